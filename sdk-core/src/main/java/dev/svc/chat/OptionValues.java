package dev.svc.chat;

import java.io.File;
import java.util.concurrent.Executor;

import dev.svc.chat.store.ChatStoreProvider;
import dev.svc.chat.transport.Transport;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * The values of {@link SvcOptions}, their defaults and their checks: an {@link SvcOptions.Builder} fills one in,
 * each value checked by {@link #notNull} or {@link #atLeast} as it is set, and each {@link SvcOptions} keeps a
 * {@link #copy()} taken at {@code build()}, never changed after.
 */
final class OptionValues {
  final String apiUrl;
  @Nullable OkHttpClient okHttpClient;
  @Nullable Transport transport;
  @Nullable Executor callbackExecutor;
  ChatLogger logger = ChatLogger.NONE;
  long ackTimeoutMillis = SvcOptions.DEFAULT_ACK_TIMEOUT_MILLIS;
  ReconnectSettings reconnect = ReconnectSettings.defaults();
  @Nullable TokenRefresher tokenRefresher;
  @Nullable Executor engineExecutor;
  @Nullable TaskScheduler scheduler;
  boolean recoverMissedEvents = true;
  long sendTimeoutMillis;
  boolean socketSends = true;
  @Nullable File outboxDirectory;
  @Nullable FileCacheSettings fileCache;
  @Nullable ChatStoreProvider store;
  int unreadCap = SvcOptions.DEFAULT_UNREAD_CAP;

  OptionValues(String apiUrl) {
    this.apiUrl = apiUrl;
  }

  /** Returns a copy of these values, for options that must not change when their builder is used again. */
  OptionValues copy() {
    OptionValues c = new OptionValues(apiUrl);
    c.okHttpClient = okHttpClient;
    c.transport = transport;
    c.callbackExecutor = callbackExecutor;
    c.logger = logger;
    c.ackTimeoutMillis = ackTimeoutMillis;
    c.reconnect = reconnect;
    c.tokenRefresher = tokenRefresher;
    c.engineExecutor = engineExecutor;
    c.scheduler = scheduler;
    c.recoverMissedEvents = recoverMissedEvents;
    c.sendTimeoutMillis = sendTimeoutMillis;
    c.socketSends = socketSends;
    c.outboxDirectory = outboxDirectory;
    c.fileCache = fileCache;
    c.store = store;
    c.unreadCap = unreadCap;
    return c;
  }

  /**
   * Returns {@code value}, a setting named {@code name}; throws {@link NullPointerException} ({@code "name == null"})
   * if it is null.
   */
  static <T> T notNull(@Nullable T value, String name) {
    if (value == null) throw new NullPointerException(name + " == null");
    return value;
  }

  /**
   * Returns {@code value}, a setting named {@code name}; throws {@link IllegalArgumentException}
   * ({@code "name < min: value"}) if it is below {@code min}.
   */
  static long atLeast(long min, long value, String name) {
    if (value < min) throw new IllegalArgumentException(name + " < " + min + ": " + value);
    return value;
  }

  /** As {@link #atLeast(long, long, String)}, for an int setting. */
  static int atLeast(int min, int value, String name) {
    if (value < min) throw new IllegalArgumentException(name + " < " + min + ": " + value);
    return value;
  }
}
