package dev.svc.chat.session;

import java.io.File;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatLogger;
import org.jspecify.annotations.Nullable;
import dev.svc.chat.SerialExecutor;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.TokenRefresher;
import okhttp3.OkHttpClient;

/**
 * Keeps a {@link ChatClient} signed in: the JS SDK's {@code createSessionManager}. It fetches the session
 * (from the tenant's {@code /api/chat/session} route or a typed session), creates the client from the
 * session's {@code apiUrl}, connects, and refreshes the token {@linkplain Builder#refreshLeadMillis five
 * minutes} before it expires (see {@link SessionStatus} for the states and {@code RefreshPolicy}'s rule for
 * short tokens). A refresh hands the new token to the client ({@link ChatClient#updateToken}), which moves
 * its connection to it while the app keeps the same client object, its handlers and its joined room;
 * messages arriving meanwhile are delivered once. The manager calls {@code connect} only to start a run.
 *
 * <p>The client is created with a {@link TokenRefresher} that is this manager: a REST {@code 401
 * token_expired}, a gateway {@code token_expired} and the scheduled refresh all share one fetch.
 * {@link #stop()} is the "page hide" of the JS SDK (it disconnects); {@link #start()} resumes. Its parts are
 * listed in the package's comment.
 */
public final class SessionManager {
  /** The default refresh lead time: 5 minutes before the token expires. */
  public static final long DEFAULT_REFRESH_LEAD_MILLIS = 5 * 60 * 1000;

  private final SessionScheduler scheduler;
  private final boolean ownsScheduler;
  private final SerialExecutor callbacks;
  private final SessionClient client;
  private final SessionLifecycle lifecycle;

  private SessionManager(Builder b) {
    this.ownsScheduler = b.scheduler == null;
    this.scheduler = b.scheduler != null ? b.scheduler : new SystemSessionScheduler();
    this.callbacks = b.callbackExecutor != null ? SerialExecutor.on(b.callbackExecutor, b.logger)
        : SerialExecutor.ownThread("svc-session-callbacks", b.logger);
    this.client = new SessionClient(b.clientFactory, b.logger, b.callbackExecutor, b.outboxDirectory, b.okHttpClient,
        b.clientOptions);
    this.lifecycle = new SessionLifecycle(b.fetcher, scheduler, b.refreshLeadMillis,
        new StatusBoard(b.listener, callbacks), client, new SessionLog(b.logger));
  }

  /**
   * Returns a manager with the default options: the JS SDK's {@code createSessionManager({fetchSession,
   * onStateChange})}. Call {@link #start()} to sign in.
   *
   * @param fetchSession fetches the session, such as {@link SessionFetcher#http(String, OkHttpClient)}
   * @param onStateChange receives every new state
   * @return a new manager in {@link SessionStatus#IDLE}
   */
  public static SessionManager create(SessionFetcher fetchSession, SessionStateListener onStateChange) {
    return builder(fetchSession, onStateChange).build();
  }

  /**
   * Returns a builder of a manager.
   *
   * @param fetchSession fetches the session
   * @param onStateChange receives every new state
   * @return a new builder
   */
  public static Builder builder(SessionFetcher fetchSession, SessionStateListener onStateChange) {
    return new Builder(fetchSession, onStateChange);
  }

  /**
   * Returns the state now.
   *
   * @return an immutable snapshot
   */
  public SessionState state() {
    return lifecycle.state();
  }

  /**
   * Starts (or resumes after {@link #stop()}, or retries after {@link SessionStatus#ERROR}): goes
   * {@link SessionStatus#LOADING}, fetches the session unless the one held is still good for longer than the
   * lead time (or joins a fetch still under way), and connects. Does nothing when already started.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public void start() {
    lifecycle.start();
  }

  /**
   * Stops: the JS SDK's "page hide". Cancels the refresh timer, disconnects the client (kept, with its
   * handlers and joined room) and goes {@link SessionStatus#IDLE}. Does nothing when not started. A fetch
   * under way is not cancelled: its session is kept for the next {@link #start()}, and it connects nothing.
   * The client is left disconnected even when a fetch or a connect completes on another thread meanwhile.
   */
  public void stop() {
    lifecycle.stop();
  }

  /**
   * Stops, closes the client and releases the manager's threads. A closed manager cannot start again.
   */
  public void close() {
    lifecycle.stop();
    if (!lifecycle.close()) return;
    client.close();
    if (ownsScheduler) scheduler.shutdown();
    callbacks.shutdown();
  }

  /**
   * Tells the manager that the device lost its network (on Android, the default network's
   * {@code NetworkCallback.onLost}). A started manager goes {@link SessionStatus#OFFLINE} at once rather than
   * when the connection times out; the client keeps its own reconnect schedule. Does nothing when stopped.
   */
  public void networkLost() {
    lifecycle.networkLost();
  }

  /**
   * Tells the manager that a network is available (on Android, {@code NetworkCallback.onAvailable}). A
   * started manager retries now instead of waiting out its backoff: a session fetch waiting to be retried
   * runs at once, and the client's waiting reconnect attempt starts at once ({@link ChatClient#reconnectNow()}).
   * If the connection survived a {@link #networkLost()}, the manager goes back to {@link SessionStatus#READY}.
   * Does nothing when stopped.
   */
  public void networkAvailable() {
    lifecycle.networkAvailable();
  }

  /**
   * Refreshes now, sharing a refresh under way: fetches the session and hands its token to the client
   * (which moves its connection to it). This is what the client's {@link TokenRefresher} and the refresh
   * timer call.
   *
   * @return a future of the new token; failed when stopped, not signed in, or the network failed
   */
  public CompletableFuture<String> refresh() {
    return lifecycle.refresh();
  }

  /** Creates the client from options the manager prepared (with its token refresher); tests pass fakes. */
  public interface ClientFactory {
    /**
     * Returns a new client.
     *
     * @param options the options, with the session's {@code apiUrl} and the manager's token refresher
     * @return the client
     */
    ChatClient create(SvcOptions options);
  }

  /** Builds a {@link SessionManager}. */
  public static final class Builder {
    private final SessionFetcher fetcher;
    private final SessionStateListener listener;
    private long refreshLeadMillis = DEFAULT_REFRESH_LEAD_MILLIS;
    private @Nullable SessionScheduler scheduler;
    private ClientFactory clientFactory = Svc::init;
    private @Nullable Executor callbackExecutor;
    private @Nullable File outboxDirectory;
    private @Nullable OkHttpClient okHttpClient;
    private ChatLogger logger = ChatLogger.NONE;
    private @Nullable Consumer<SvcOptions.Builder> clientOptions;

    Builder(SessionFetcher fetcher, SessionStateListener listener) {
      if (fetcher == null) throw new NullPointerException("fetchSession == null");
      if (listener == null) throw new NullPointerException("onStateChange == null");
      this.fetcher = fetcher;
      this.listener = listener;
    }

    /**
     * Sets how long before the token's expiry it is refreshed; 5 minutes by default.
     *
     * @param millis at least 0
     * @return this builder
     */
    public Builder refreshLeadMillis(long millis) {
      if (millis < 0) throw new IllegalArgumentException("refreshLeadMillis < 0: " + millis);
      this.refreshLeadMillis = millis;
      return this;
    }

    /**
     * Sets the clock and timers (tests pass a virtual one). By default the system clock and a daemon thread.
     *
     * @param scheduler the scheduler; not shut down by the manager
     * @return this builder
     */
    public Builder scheduler(SessionScheduler scheduler) {
      if (scheduler == null) throw new NullPointerException("scheduler == null");
      this.scheduler = scheduler;
      return this;
    }

    /**
     * Sets how the client is created; by default {@link Svc#init(SvcOptions)}.
     *
     * @param factory the factory
     * @return this builder
     */
    public Builder clientFactory(ClientFactory factory) {
      if (factory == null) throw new NullPointerException("factory == null");
      this.clientFactory = factory;
      return this;
    }

    /**
     * Sets the executor of state callbacks and of the client's callbacks (Android: the main thread).
     *
     * @param executor the executor; never shut down by the manager
     * @return this builder
     */
    public Builder callbackExecutor(Executor executor) {
      if (executor == null) throw new NullPointerException("executor == null");
      this.callbackExecutor = executor;
      return this;
    }

    /**
     * Makes the client's outbox file-backed in {@code directory} ({@code SvcOptions.Builder.outboxDirectory}).
     *
     * @param directory a directory private to the app
     * @return this builder
     */
    public Builder outboxDirectory(File directory) {
      if (directory == null) throw new NullPointerException("directory == null");
      this.outboxDirectory = directory;
      return this;
    }

    /**
     * Sets more of the client's options, applied after the manager's own (apiUrl, token refresher, logger,
     * callback executor): the offline store, for example, {@code b -> b.store(SqliteChatStore.provider(dir))}.
     *
     * @param customizer changes the options' builder
     * @return this builder
     */
    public Builder clientOptions(Consumer<SvcOptions.Builder> customizer) {
      if (customizer == null) throw new NullPointerException("customizer == null");
      this.clientOptions = customizer;
      return this;
    }

    /**
     * Sets the OkHttp client the chat client shares (for example the app's, with its cookie jar).
     *
     * @param client the client; never shut down by the manager
     * @return this builder
     */
    public Builder okHttpClient(OkHttpClient client) {
      if (client == null) throw new NullPointerException("client == null");
      this.okHttpClient = client;
      return this;
    }

    /**
     * Sets the logger of the manager and its client.
     *
     * @param logger the logger
     * @return this builder
     */
    public Builder logger(ChatLogger logger) {
      if (logger == null) throw new NullPointerException("logger == null");
      this.logger = logger;
      return this;
    }

    /**
     * Returns the manager, in {@link SessionStatus#IDLE}.
     *
     * @return a new manager
     */
    public SessionManager build() {
      return new SessionManager(this);
    }
  }
}
