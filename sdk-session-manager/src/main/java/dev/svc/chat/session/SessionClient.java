package dev.svc.chat.session;

import java.io.File;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatLogger;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.TokenRefresher;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * The client of a {@link SessionManager}: created once from the first session's {@code apiUrl}, with the
 * manager as its {@link TokenRefresher}, and the calls on it queued in the order the manager decides them
 * ({@link ClientCalls}). Every method but {@link #drain()} and {@link #close()} is called under the manager's
 * lock; the calls themselves run when the manager drains, outside the lock.
 */
final class SessionClient {
  private final SessionManager.ClientFactory factory;
  private final ChatLogger logger;
  private final @Nullable Executor callbackExecutor;
  private final @Nullable File outboxDirectory;
  private final @Nullable OkHttpClient okHttpClient;
  private final @Nullable Consumer<SvcOptions.Builder> clientOptions;
  private final ClientCalls calls;
  private volatile @Nullable ChatClient client;

  SessionClient(SessionManager.ClientFactory factory, ChatLogger logger, @Nullable Executor callbackExecutor,
      @Nullable File outboxDirectory, @Nullable OkHttpClient okHttpClient,
      @Nullable Consumer<SvcOptions.Builder> clientOptions) {
    this.clientOptions = clientOptions;
    this.factory = factory;
    this.logger = logger;
    this.callbackExecutor = callbackExecutor;
    this.outboxDirectory = outboxDirectory;
    this.okHttpClient = okHttpClient;
    this.calls = new ClientCalls(new SessionLog(logger));
  }

  /** Returns the client, or null before the first session. */
  @Nullable ChatClient get() {
    return client;
  }

  /**
   * Creates the client for {@code apiUrl}, refreshing through {@code refresher} and reporting its connection
   * to {@code onState}; the factory may throw.
   */
  ChatClient create(String apiUrl, TokenRefresher refresher, final Consumer<ConnectionStateChange> onState) {
    SvcOptions.Builder b = SvcOptions.builder(apiUrl).logger(logger).tokenRefresher(refresher);
    if (callbackExecutor != null) b.callbackExecutor(callbackExecutor);
    if (outboxDirectory != null) b.outboxDirectory(outboxDirectory);
    if (okHttpClient != null) b.okHttpClient(okHttpClient);
    if (clientOptions != null) clientOptions.accept(b);
    ChatClient c = factory.create(b.build());
    c.on(EventType.CONNECTION_STATE, change -> {
      onState.accept(change);
      calls.drain();
    });
    client = c;
    return c;
  }

  /** Queues a connect with {@code s}; {@code answer} gets its failure, or null, then the queue is drained. */
  void connect(final Session s, final Consumer<@Nullable Throwable> answer) {
    final ChatClient c = client;
    if (c == null) return;
    calls.add(() -> {
      CompletableFuture<Void> connected = c.connect(s.chatUserId(), s.token());
      connected.whenComplete((v, e) -> {
        answer.accept(e);
        calls.drain();
      });
    });
  }

  /**
   * Queues the hand-over of {@code s}'s token to the client's credentials ({@link ChatClient#updateToken}): a
   * refresh never connects; a connected client moves to the token, a disconnected one keeps it.
   */
  void updateToken(final Session s) {
    final ChatClient c = client;
    if (c != null) calls.add(() -> c.updateToken(s.token()));
  }

  /** Queues a disconnect, if there is a client. */
  void disconnect() {
    final ChatClient c = client;
    if (c != null) calls.add(c::disconnect);
  }

  /** Queues {@link ChatClient#reconnectNow()}, if there is a client. */
  void reconnectNow() {
    final ChatClient c = client;
    if (c != null) calls.add(c::reconnectNow);
  }

  /** Runs the queued calls (see {@link ClientCalls}); call without the manager's lock. */
  void drain() {
    calls.drain();
  }

  /** Closes the client at once: a call still queued behind a slow one then fails on a closed client. */
  void close() {
    ChatClient c = client;
    if (c != null) c.close();
  }
}
