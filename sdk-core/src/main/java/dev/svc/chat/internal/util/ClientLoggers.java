package dev.svc.chat.internal.util;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatLogger;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The logger of each client made by {@code Svc.init}, so that the helpers built on a client ({@code
 * TenantPresenceTracker}, {@code ComposerTypingController}) log through it without a logger in their own
 * signatures. Keys are weak: a client that is no longer used is forgotten. Values are weak too, so a logger that
 * refers to its client cannot keep it alive; the client itself holds its logger strongly, through its options.
 */
public final class ClientLoggers {
  private static final Map<ChatClient, WeakReference<ChatLogger>> LOGGERS = new WeakHashMap<>();

  private ClientLoggers() {
  }

  /** Records {@code logger} as {@code client}'s; the default, {@link ChatLogger#NONE}, needs no entry. */
  public static void register(ChatClient client, ChatLogger logger) {
    if (logger == ChatLogger.NONE) return; // what of() answers anyway: a fleet's clients cost no entry each
    synchronized (LOGGERS) {
      LOGGERS.put(client, new WeakReference<>(logger));
    }
  }

  /** Returns {@code client}'s logger, or {@link ChatLogger#NONE} for a client not made by {@code Svc.init}. */
  public static ChatLogger of(ChatClient client) {
    WeakReference<ChatLogger> ref;
    synchronized (LOGGERS) {
      ref = LOGGERS.get(client);
    }
    ChatLogger logger = ref == null ? null : ref.get();
    return logger == null ? ChatLogger.NONE : logger;
  }
}
