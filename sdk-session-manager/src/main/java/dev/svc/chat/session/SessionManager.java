package dev.svc.chat.session;

import java.io.File;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatLogger;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventHandler;
import dev.svc.chat.EventType;
import dev.svc.chat.LogLevel;
import org.jspecify.annotations.Nullable;
import dev.svc.chat.SerialExecutor;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.TokenRefresher;
import dev.svc.chat.TransportException;
import okhttp3.OkHttpClient;

/**
 * Keeps a {@link ChatClient} signed in: the JS SDK's {@code createSessionManager}. It fetches the session
 * (from the tenant's {@code /api/chat/session} route or a typed session), creates the client from the
 * session's {@code apiUrl}, connects, and refreshes the token {@linkplain Builder#refreshLeadMillis five
 * minutes} before it expires (see {@link SessionStatus} for the states and {@code RefreshPolicy}'s rule for
 * short tokens). A refresh reconnects with the new token while the app keeps the same client object, its
 * handlers and its joined room; messages arriving meanwhile are delivered once.
 *
 * <p>The client is created with a {@link TokenRefresher} that is this manager: a REST {@code 401
 * token_expired}, a gateway {@code token_expired} and the scheduled refresh all share one fetch.
 * {@link #stop()} is the "page hide" of the JS SDK (it disconnects); {@link #start()} resumes.
 */
public final class SessionManager {
  /** The default refresh lead time: 5 minutes before the token expires. */
  public static final long DEFAULT_REFRESH_LEAD_MILLIS = 5 * 60 * 1000;

  private final SessionFetcher fetcher;
  private final SessionStateListener listener;
  private final SessionScheduler scheduler;
  private final boolean ownsScheduler;
  private final ClientFactory clientFactory;
  private final SerialExecutor callbacks;
  private final @Nullable Executor clientExecutor;
  private final @Nullable OkHttpClient okHttpClient;
  private final ChatLogger logger;
  private final RefreshPolicy policy;

  // guarded by this
  private SessionStatus status = SessionStatus.IDLE;
  private @Nullable ChatClient client;
  private @Nullable Throwable error;
  private @Nullable Session session;
  private boolean started;
  private boolean closed;
  /** Bumped by start, stop and error, so late answers of an earlier run are ignored. */
  private int generation;
  private @Nullable CompletableFuture<String> refreshInFlight;
  private SessionScheduler.@Nullable Task timer;
  /** The session the pending refresh timer is for. */
  private @Nullable Session timedSession;
  private int retryAttempt;

  private final @Nullable File outboxDirectory;

  private SessionManager(Builder b) {
    this.fetcher = b.fetcher;
    this.listener = b.listener;
    this.ownsScheduler = b.scheduler == null;
    this.scheduler = b.scheduler != null ? b.scheduler : new SystemSessionScheduler();
    this.clientFactory = b.clientFactory;
    this.logger = b.logger;
    this.clientExecutor = b.callbackExecutor;
    this.outboxDirectory = b.outboxDirectory;
    this.okHttpClient = b.okHttpClient;
    this.callbacks = b.callbackExecutor != null ? SerialExecutor.on(b.callbackExecutor, logger)
        : SerialExecutor.ownThread("svc-session-callbacks", logger);
    this.policy = new RefreshPolicy(b.refreshLeadMillis);
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
  public synchronized SessionState state() {
    return new SessionState(status, client, error, session);
  }

  /**
   * Starts (or resumes after {@link #stop()}, or retries after {@link SessionStatus#ERROR}): goes
   * {@link SessionStatus#LOADING}, fetches the session unless the one held is still good for longer than the
   * lead time, and connects. Does nothing when already started.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public void start() {
    boolean fetch;
    ChatClient c;
    Session s;
    synchronized (this) {
      if (closed) throw new IllegalStateException("the session manager is closed");
      if (started) return;
      started = true;
      generation++;
      retryAttempt = 0;
      setStatus(SessionStatus.LOADING, null);
      s = session;
      c = client;
      fetch = s == null || c == null || s.expiresAtMillis() - scheduler.nowMillis() <= policy.leadMillis();
    }
    if (fetch) {
      refresh();
    } else {
      connect(c, s);
    }
  }

  /**
   * Stops: the JS SDK's "page hide". Cancels the refresh timer, disconnects the client (kept, with its
   * handlers and joined room) and goes {@link SessionStatus#IDLE}. Does nothing when not started.
   */
  public void stop() {
    ChatClient c;
    synchronized (this) {
      if (!started) {
        if (status == SessionStatus.ERROR) setStatus(SessionStatus.IDLE, null);
        return;
      }
      started = false;
      generation++;
      cancelTimer();
      setStatus(SessionStatus.IDLE, null);
      c = client;
    }
    if (c != null) c.disconnect();
  }

  /**
   * Stops, closes the client and releases the manager's threads. A closed manager cannot start again.
   */
  public void close() {
    stop();
    ChatClient c;
    synchronized (this) {
      if (closed) return;
      closed = true;
      c = client;
    }
    if (c != null) c.close();
    if (ownsScheduler) scheduler.shutdown();
    callbacks.shutdown();
  }

  /**
   * Tells the manager that the device lost its network (on Android, the default network's
   * {@code NetworkCallback.onLost}). A started manager goes {@link SessionStatus#OFFLINE} at once rather than
   * when the connection times out; the client keeps its own reconnect schedule. Does nothing when stopped.
   */
  public void networkLost() {
    synchronized (this) {
      if (!started || status == SessionStatus.OFFLINE) return;
      setStatus(SessionStatus.OFFLINE, new TransportException("the device has no network"));
    }
  }

  /**
   * Tells the manager that a network is available (on Android, {@code NetworkCallback.onAvailable}). A
   * started manager retries now instead of waiting out its backoff: a session fetch waiting to be retried
   * runs at once, and the client's waiting reconnect attempt starts at once ({@link ChatClient#reconnectNow()}).
   * If the connection survived a {@link #networkLost()}, the manager goes back to {@link SessionStatus#READY}.
   * Does nothing when stopped.
   */
  public void networkAvailable() {
    boolean fetchNow;
    ChatClient c;
    synchronized (this) {
      if (!started) return;
      c = client;
      if (status == SessionStatus.OFFLINE && c != null && c.state() == ConnectionState.CONNECTED) {
        onConnected();
        return;
      }
      // retryAttempt > 0 with a timer: a failed fetch waiting out its backoff (not the expiry timer)
      fetchNow = retryAttempt > 0 && timer != null && refreshInFlight == null;
      if (fetchNow) cancelTimer();
    }
    if (fetchNow) refresh();
    if (c != null) c.reconnectNow();
  }

  /**
   * Refreshes now, sharing a refresh under way: fetches the session and reconnects with its token. This is
   * what the client's {@link TokenRefresher} and the refresh timer call.
   *
   * @return a future of the new token; failed when stopped, not signed in, or the network failed
   */
  public CompletableFuture<String> refresh() {
    final CompletableFuture<String> result;
    final int g;
    synchronized (this) {
      if (!started) {
        CompletableFuture<String> f = new CompletableFuture<>();
        f.completeExceptionally(new ChatStateException("the session manager is not started"));
        return f;
      }
      if (refreshInFlight != null) return refreshInFlight;
      result = new CompletableFuture<>();
      refreshInFlight = result;
      g = generation;
      cancelTimer();
    }
    CompletableFuture<Session> fetched;
    try {
      fetched = fetcher.fetch();
    } catch (RuntimeException e) {
      fetched = new CompletableFuture<>();
      fetched.completeExceptionally(e);
    }
    fetched.whenComplete(new BiConsumer<Session, Throwable>() {
      @Override
      public void accept(Session s, Throwable e) {
        onFetched(g, result, s, e);
      }
    });
    return result;
  }

  private void onFetched(int g, CompletableFuture<String> result, @Nullable Session s, @Nullable Throwable e) {
    ChatClient c;
    synchronized (this) {
      if (refreshInFlight == result) refreshInFlight = null;
      if (g != generation || !started) {
        result.completeExceptionally(new ChatStateException("the session manager was stopped"));
        return;
      }
      e = unwrap(e);
      if (e == null && s == null) e = new IllegalStateException("the session fetcher gave no session");
      if (e == null) e = checkSameUser(s);
      if (e == null && client == null) {
        try {
          client = clientFactory.create(clientOptions(s.apiUrl()));
          client.on(EventType.CONNECTION_STATE, new ClientStateHandler());
        } catch (RuntimeException bad) {
          e = bad;
        }
      }
      if (e != null) {
        if (e instanceof ApiException || e instanceof IllegalArgumentException || e instanceof IllegalStateException) {
          fail(e); // not signed in, or an answer no retry will fix
        } else {
          retryLater(e);
        }
        result.completeExceptionally(e);
        return;
      }
      session = s;
      c = client;
    }
    connect(c, s);
    result.complete(s.token());
  }

  private @Nullable Throwable checkSameUser(Session s) {
    Session previous = session;
    if (previous == null) return null;
    if (!previous.chatUserId().equals(s.chatUserId())) {
      return new IllegalStateException("the signed-in user changed; create a new SessionManager for the new user");
    }
    if (!previous.apiUrl().equals(s.apiUrl())) {
      return new IllegalStateException("the session's apiUrl changed; create a new SessionManager");
    }
    return null;
  }

  private void connect(ChatClient c, final Session s) {
    final int g;
    synchronized (this) {
      g = generation;
    }
    c.connect(s.chatUserId(), s.token()).whenComplete(new BiConsumer<Void, Throwable>() {
      @Override
      public void accept(Void v, Throwable e) {
        onConnectResult(g, s, unwrap(e));
      }
    });
  }

  private synchronized void onConnectResult(int g, Session s, @Nullable Throwable e) {
    if (g != generation || !started || s != session) return;
    if (e == null) {
      onConnected();
    } else if (e instanceof ApiException && !((ApiException) e).isTokenExpired()) {
      fail(e); // unauthorized: an invalid token is not retried
    } else if (!(e instanceof ApiException) && !(e instanceof ChatStateException)) {
      // the network: the client keeps reconnecting by itself; keep the refresh timer for this token
      if (status != SessionStatus.OFFLINE) setStatus(SessionStatus.OFFLINE, e);
      scheduleRefresh();
    }
    // token_expired is handled by the client, which asks refresh() through its TokenRefresher
  }

  private void onConnected() {
    retryAttempt = 0;
    if (status != SessionStatus.READY) setStatus(SessionStatus.READY, null);
    scheduleRefresh();
  }

  /** Follows the client's connection (reported on the client's callback executor). */
  private final class ClientStateHandler implements EventHandler<ConnectionStateChange> {
    @Override
    public void onEvent(ConnectionStateChange change) {
      synchronized (SessionManager.this) {
        if (!started) return;
        switch (change.current()) {
          case CONNECTED:
            onConnected();
            break;
          case RECONNECTING:
            // an expired token being refreshed by the client is not "offline": it is invisible to the app
            if (change.reason() != ConnectionReason.TOKEN_EXPIRED
                && (status == SessionStatus.READY || status == SessionStatus.LOADING)) {
              setStatus(SessionStatus.OFFLINE, change.cause());
            }
            break;
          case DISCONNECTED:
            if (change.reason() == ConnectionReason.UNAUTHORIZED) {
              fail(change.cause() != null ? change.cause()
                  : new ApiException(401, "unauthorized", "the session token was refused"));
            } else if (change.reason() == ConnectionReason.TOKEN_EXPIRED) {
              // the client refreshed once already (through this manager) and the fresh token was refused as
              // expired too, or could not be fetched: the clocks disagree; retrying would loop
              fail(new ApiException(401, "token_expired", "the service refused a freshly fetched token as expired"));
            }
            break;
          default:
            break;
        }
      }
    }
  }

  // ---------------------------------------------------------------- guarded by this

  private void scheduleRefresh() {
    final Session s = session;
    if (s == null || refreshInFlight != null || (timer != null && timedSession == s)) return;
    cancelTimer();
    long delay = policy.delayMillis(s.expiresAtMillis(), scheduler.nowMillis());
    log(LogLevel.DEBUG, "refreshing the session token in " + delay + " ms", null);
    schedule(delay, s);
  }

  private void retryLater(Throwable e) {
    ChatClient c = client;
    boolean connected = c != null && c.state() == ConnectionState.CONNECTED;
    if (!connected && status != SessionStatus.OFFLINE) setStatus(SessionStatus.OFFLINE, e);
    long delay = RefreshPolicy.retryDelayMillis(retryAttempt++);
    log(LogLevel.INFO, "fetching the session failed (" + e.getClass().getSimpleName() + "); retrying in " + delay
        + " ms", null);
    cancelTimer();
    schedule(delay, session);
  }

  private void schedule(long delay, @Nullable Session s) {
    final int g = generation;
    timedSession = s;
    timer = scheduler.schedule(new Runnable() {
      @Override
      public void run() {
        synchronized (SessionManager.this) {
          if (g != generation || !started) return;
          timer = null;
          timedSession = null;
        }
        refresh();
      }
    }, delay);
  }

  private void cancelTimer() {
    if (timer != null) timer.cancel();
    timer = null;
    timedSession = null;
  }

  private void fail(Throwable e) {
    log(LogLevel.WARN, "the session failed: " + e.getMessage(), null);
    started = false;
    generation++;
    cancelTimer();
    setStatus(SessionStatus.ERROR, e);
    final ChatClient c = client;
    if (c != null) c.disconnect();
  }

  private void setStatus(SessionStatus next, @Nullable Throwable cause) {
    status = next;
    error = next == SessionStatus.ERROR || next == SessionStatus.OFFLINE ? cause : null;
    final SessionState snapshot = new SessionState(status, client, error, session);
    callbacks.execute(new Runnable() {
      @Override
      public void run() {
        listener.onStateChange(snapshot);
      }
    });
  }

  private SvcOptions clientOptions(String apiUrl) {
    SvcOptions.Builder b = SvcOptions.builder(apiUrl).logger(logger).tokenRefresher(new TokenRefresher() {
      @Override
      public CompletableFuture<String> refreshToken() {
        return refresh();
      }
    });
    if (clientExecutor != null) b.callbackExecutor(clientExecutor);
    if (outboxDirectory != null) b.outboxDirectory(outboxDirectory);
    if (okHttpClient != null) b.okHttpClient(okHttpClient);
    return b.build();
  }

  private static @Nullable Throwable unwrap(@Nullable Throwable e) {
    while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
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
    private ClientFactory clientFactory = new ClientFactory() {
      @Override
      public ChatClient create(SvcOptions options) {
        return Svc.init(options);
      }
    };
    private @Nullable Executor callbackExecutor;
    private @Nullable File outboxDirectory;
    private @Nullable OkHttpClient okHttpClient;
    private ChatLogger logger = ChatLogger.NONE;

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
     * Makes the client's outbox file-backed in {@code directory}, so that sends survive the process (see
     * {@code SvcOptions.Builder.outboxDirectory}).
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

  /** Logs through the app's logger, which may neither filter badly nor throw into the manager. */
  private void log(LogLevel level, String message, @Nullable Throwable error) {
    try {
      if (logger.isLoggable(level)) logger.log(level, message, error);
    } catch (RuntimeException ignored) {
      // a broken logger must not break the session
    }
  }
}
