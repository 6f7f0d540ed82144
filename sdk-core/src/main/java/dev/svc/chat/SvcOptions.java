package dev.svc.chat;

import java.io.File;
import java.util.List;
import java.util.concurrent.Executor;

import dev.svc.chat.internal.util.ApiUrls;
import dev.svc.chat.store.ChatStoreProvider;
import dev.svc.chat.transport.Transport;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * The settings of a {@link ChatClient}: the service's API URL and optional collaborators. Create with
 * {@link #builder(String)}.
 */
public final class SvcOptions {
  /** The default time to wait for the gateway to acknowledge an emitted event: 10 seconds. */
  public static final long DEFAULT_ACK_TIMEOUT_MILLIS = 10_000;
  /** The default base of the reconnect backoff: 0.5 seconds ({@link ReconnectSettings#defaults()}). */
  public static final long DEFAULT_RECONNECT_BASE_MILLIS = ReconnectSettings.DEFAULT_BASE_DELAY_MILLIS;
  /** The default cap of the reconnect backoff: 30 seconds ({@link ReconnectSettings#defaults()}). */
  public static final long DEFAULT_RECONNECT_MAX_MILLIS = ReconnectSettings.DEFAULT_MAX_DELAY_MILLIS;
  /** The default {@link Builder#unreadCap}: counts above it show as "999+". */
  public static final int DEFAULT_UNREAD_CAP = 999;

  private final OptionValues values;

  private SvcOptions(Builder b) {
    this.values = b.values.copy();
  }

  /**
   * Returns a builder for a client of the service at {@code apiUrl}.
   *
   * @param apiUrl the API base, {@code http(s)://host[:port]/v1} as the tenant's session route answers it, or
   *     the origin alone ({@code http://127.0.0.1:8080}), to which {@code /v1} is appended; a trailing slash is
   *     tolerated
   * @return a new builder
   * @throws IllegalArgumentException if the URL is not an http(s) URL, or its path is neither empty nor ends
   *     with {@code /v1} (the message says what to write)
   */
  public static Builder builder(String apiUrl) {
    return new Builder(apiUrl);
  }

  /**
   * Returns the API base without a trailing slash, such as {@code https://chat.example.com/v1}.
   *
   * @return the API URL
   */
  public String apiUrl() {
    return values.apiUrl;
  }

  /**
   * Returns the OkHttp client the SDK derives its own from, if one was given.
   *
   * @return the given client, or null when the SDK creates one
   */
  public @Nullable OkHttpClient okHttpClient() {
    return values.okHttpClient;
  }

  /**
   * Returns the transport of the realtime connection, if one was given.
   *
   * @return the given transport, or null for OkHttp's WebSocket
   */
  public @Nullable Transport transport() {
    return values.transport;
  }

  /**
   * Returns the executor that runs event handlers and completes futures, if one was given.
   *
   * @return the given executor, or null when the client uses the SDK's shared callback threads
   */
  public @Nullable Executor callbackExecutor() {
    return values.callbackExecutor;
  }

  /**
   * Returns the logger.
   *
   * @return the logger; {@link ChatLogger#NONE} unless one was given
   */
  public ChatLogger logger() {
    return values.logger;
  }

  /**
   * Returns how long to wait for the gateway to acknowledge an emitted event.
   *
   * @return milliseconds
   */
  public long ackTimeoutMillis() {
    return values.ackTimeoutMillis;
  }

  /**
   * Returns the reconnect backoff.
   *
   * @return the settings ({@link ReconnectSettings#defaults()} unless set)
   */
  public ReconnectSettings reconnect() {
    return values.reconnect;
  }

  /**
   * Returns the base delay of the reconnect backoff: {@code reconnect().baseDelayMillis()}.
   *
   * @return milliseconds
   */
  public long reconnectBaseMillis() {
    return values.reconnect.baseDelayMillis();
  }

  /**
   * Returns the largest delay of the reconnect backoff: {@code reconnect().maxDelayMillis()}.
   *
   * @return milliseconds
   */
  public long reconnectMaxMillis() {
    return values.reconnect.maxDelayMillis();
  }

  /**
   * Returns the refresher called when the service says the session token expired, if one was given.
   *
   * @return the refresher, or null when an expired token simply fails the operation
   */
  public @Nullable TokenRefresher tokenRefresher() {
    return values.tokenRefresher;
  }

  /**
   * Returns the executor the client's connection work runs on, or null for the SDK's shared engine threads.
   *
   * @return the engine executor, or null
   */
  public @Nullable Executor engineExecutor() {
    return values.engineExecutor;
  }

  /**
   * Returns the timers and clock of the client, or null for the SDK's shared timer thread and the system
   * clock.
   *
   * @return the scheduler, or null
   */
  public @Nullable TaskScheduler scheduler() {
    return values.scheduler;
  }

  /**
   * Returns whether the client recovers what it missed while not connected (the default).
   *
   * @return true when missed messages, changes and receipts are back-filled
   */
  public boolean recoverMissedEvents() {
    return values.recoverMissedEvents;
  }

  /**
   * Returns whether sends go over the gateway's WebSocket, pipelined, when the service offers it.
   *
   * @return true (the default) to send over the socket where offered; false for REST only
   */
  public boolean socketSends() {
    return values.socketSends;
  }

  /**
   * Returns how long a send may take, retries included, before its future fails with a
   * {@link SendTimeoutException}.
   *
   * @return milliseconds, or 0 when sends have no deadline (the default)
   */
  public long sendTimeoutMillis() {
    return values.sendTimeoutMillis;
  }

  /**
   * Returns the directory that keeps the outbox's pending sends across restarts, if one was given.
   *
   * @return the directory, or null for an outbox in memory only
   */
  public @Nullable File outboxDirectory() {
    return values.outboxDirectory;
  }

  /**
   * Returns where thumbnails are cached, if set.
   *
   * @return the settings, or null for no cache
   */
  public @Nullable FileCacheSettings fileCache() {
    return values.fileCache;
  }

  /**
   * Returns the offline store's provider, if one was given.
   *
   * @return the provider, or null for a client that keeps nothing across restarts but its outbox directory
   */
  public @Nullable ChatStoreProvider store() {
    return values.store;
  }

  /**
   * Returns the cap of the room list's unread counts.
   *
   * @return the cap ({@link #DEFAULT_UNREAD_CAP} unless set)
   */
  public int unreadCap() {
    return values.unreadCap;
  }

  @Override
  public String toString() {
    return "SvcOptions{apiUrl=" + values.apiUrl + "}";
  }

  /** Builds {@link SvcOptions}. */
  public static final class Builder {
    private final OptionValues values;

    Builder(String apiUrl) {
      this.values = new OptionValues(ApiUrls.normalize(apiUrl));
    }

    /**
     * Sets an OkHttp client to share, for example among a bot fleet's clients. Every chat client built on it shares
     * the clients the SDK derives from it ({@link OkHttpClient#newBuilder()}): for REST, one per API origin on the
     * given dispatcher and a pool of its own; for the WebSockets (unless another {@link #transport}) one on a
     * dispatcher of the SDK's own (OkHttp reads each socket on a daemon thread of its own), so REST never queues
     * behind sockets. The SDK never shuts it down. Without one, chat clients share the SDK's (64 REST calls/host).
     *
     * @param client the client to share
     * @return this builder
     */
    public Builder okHttpClient(OkHttpClient client) {
      values.okHttpClient = OptionValues.notNull(client, "client");
      return this;
    }

    /**
     * Sets the gateway WebSocket's transport: by default (and on Android) OkHttp's, a thread per socket; a bot fleet
     * may use {@code JdkTransport.shared()} (svc-chat-sdk-transport-jdk, Java 11+), a few threads in all.
     *
     * @param transport the transport, shared by every client given it
     * @return this builder
     */
    public Builder transport(Transport transport) {
      values.transport = OptionValues.notNull(transport, "transport");
      return this;
    }

    /**
     * Sets the executor that runs event handlers and completes futures, such as an Android main-thread
     * executor. Callbacks are submitted one at a time, in order, even to a multi-threaded executor. The
     * client never shuts the given executor down. By default every client of the JVM shares a small pool of
     * daemon threads named {@code svc-chat-callbacks-N} (as many as cores), each client's callbacks in a
     * serial queue of its own: a handler that blocks holds one of these threads, and the pool adds a thread
     * when its queued work made no progress for a second (up to 64), so other clients' callbacks are
     * delayed, not stopped. Give a client whose handlers block for long an executor of its own.
     *
     * @param executor the executor
     * @return this builder
     */
    public Builder callbackExecutor(Executor executor) {
      values.callbackExecutor = OptionValues.notNull(executor, "executor");
      return this;
    }

    /**
     * Sets the logger.
     *
     * @param logger the logger
     * @return this builder
     */
    public Builder logger(ChatLogger logger) {
      values.logger = OptionValues.notNull(logger, "logger");
      return this;
    }

    /**
     * Sets how long to wait for the gateway to acknowledge an emitted event (such as {@code join-room})
     * before failing it with a {@link TransportException}.
     *
     * @param millis at least 1
     * @return this builder
     */
    public Builder ackTimeoutMillis(long millis) {
      values.ackTimeoutMillis = OptionValues.atLeast(1, millis, "ackTimeoutMillis");
      return this;
    }

    /**
     * Sets the reconnect backoff, for example {@code reconnect(ReconnectSettings.development())} against a local
     * server that restarts often (back within about a second instead of up to 30 s). Default:
     * {@link ReconnectSettings#defaults()}, for production.
     *
     * @param settings the backoff
     * @return this builder
     */
    public Builder reconnect(ReconnectSettings settings) {
      values.reconnect = OptionValues.notNull(settings, "settings");
      return this;
    }

    /**
     * Sets the reconnect backoff from its two bounds: the same as {@link #reconnect(ReconnectSettings)} with
     * {@code ReconnectSettings.builder().baseDelayMillis(baseMillis).maxDelayMillis(maxMillis).build()}.
     *
     * @param baseMillis at least 1
     * @param maxMillis at least {@code baseMillis}
     * @return this builder
     */
    public Builder reconnectDelay(long baseMillis, long maxMillis) {
      return reconnect(ReconnectSettings.builder().baseDelayMillis(baseMillis).maxDelayMillis(maxMillis).build());
    }

    /**
     * Sets the refresher that fetches a new session token when the service answers {@code token_expired}:
     * a REST call is then retried once with the new token, and the realtime connection reconnects with it.
     * Overlapping expiries share one refresh. Without one, an expired token fails the operation (REST) or
     * leaves the client {@link ConnectionState#DISCONNECTED} with reason {@code token_expired} (gateway).
     *
     * @param refresher the refresher
     * @return this builder
     */
    public Builder tokenRefresher(TokenRefresher refresher) {
      values.tokenRefresher = OptionValues.notNull(refresher, "refresher");
      return this;
    }

    /**
     * Sets the executor that runs the client's connection work (the engine, recovery and the outbox). The
     * client runs its work on it one task at a time, in order, and never blocks it, so many clients may
     * share one small pool. The client never shuts it down. Default: a pool of daemon threads named
     * {@code svc-chat-engine-N} (as many as cores) shared by every client of the JVM, which end when idle;
     * separate from the callback threads, so a blocking handler never holds up connections. On that default
     * pool, a socket's reader thread that finds the client's engine idle hands it the first two frames of a burst
     * by running the engine's work itself (no other thread woken), and so does an app's thread that sends: it queues
     * the send and hands its frame to the socket before {@code sendMessage} returns, unless a {@link
     * #callbackExecutor} was given (a UI's thread never runs engine work); with an executor given, all of it runs
     * there.
     * It must accept every task while its clients are open: a task it refuses stops the client (an error is
     * logged, and sends and other operations fail as on a closed client), so shut it down only after closing
     * them.
     *
     * @param executor the executor; {@code Runnable::run} runs everything on the calling thread (tests)
     * @return this builder
     */
    public Builder engineExecutor(Executor executor) {
      values.engineExecutor = OptionValues.notNull(executor, "executor");
      return this;
    }

    /**
     * Sets the timers and the clock of the client: heartbeats, backoff, acknowledgement timeouts, outbox
     * retries and deadlines, and recovery all use it. Default: one daemon timer thread shared by every
     * client of the JVM, and the system clock. Tests pass a virtual one, with {@link #engineExecutor} set
     * to a direct executor, to run a whole client on virtual time.
     *
     * @param scheduler the scheduler
     * @return this builder
     */
    public Builder scheduler(TaskScheduler scheduler) {
      values.scheduler = OptionValues.notNull(scheduler, "scheduler");
      return this;
    }

    /**
     * Sets whether the client recovers what it missed (default true). With recovery, every room of the user
     * is caught up after each reconnect and whenever a live message skips a {@code seq}: each message is
     * delivered once and in order, with the edits, reactions, deletes and receipts made meanwhile (see
     * {@link EventType#RECOVERY}). Without it, live events are delivered as they arrive, repeats dropped, and
     * whatever happened while not connected is not fetched: for a bot that acts only on what it sees live.
     *
     * @param recover false to turn recovery off
     * @return this builder
     */
    public Builder recoverMissedEvents(boolean recover) {
      values.recoverMissedEvents = recover;
      return this;
    }

    /**
     * Sets whether sends may go over the gateway's WebSocket. A service that offers it in its answer to the
     * Socket.IO CONNECT (the reference server does: see docs/protocol.md, "Extension: sends over the socket")
     * then gets up to 256 sends per room in flight on the one ordered connection, so that a sender's rate into a
     * room is no longer bound to one REST round trip per message; order, retries, deadlines and the outbox
     * are as over REST. Against a service that does not offer it, sends use REST, one in flight per room, as
     * they do with this option off.
     *
     * @param enabled false to send over REST only; true by default
     * @return this builder
     */
    public Builder socketSends(boolean enabled) {
      values.socketSends = enabled;
      return this;
    }

    /**
     * Sets a deadline for sends: a send that has not succeeded this long after
     * {@link ChatClient#sendMessage(String, List, String)} was called fails with a {@link SendTimeoutException}
     * and is not tried again. By default sends have no deadline: the outbox retries until the service stores
     * the message, refuses it, or the client is closed.
     *
     * @param millis at least 1, or 0 for no deadline
     * @return this builder
     */
    public Builder sendTimeoutMillis(long millis) {
      values.sendTimeoutMillis = OptionValues.atLeast(0, millis, "sendTimeoutMillis");
      return this;
    }

    /**
     * Makes the outbox file-backed: each pending send is written to {@code directory} (one file per send,
     * written atomically) before its first attempt and deleted when it succeeds or is refused, so sends
     * survive the end of the process, even a kill, and go out at the next {@link ChatClient#connect} of the
     * same user. Use a directory private to the app (on Android, under {@code Context.getFilesDir()}); it is
     * created if missing. Several users may share it: each user's sends are kept apart.
     *
     * @param directory the directory
     * @return this builder
     */
    public Builder outboxDirectory(File directory) {
      values.outboxDirectory = OptionValues.notNull(directory, "directory");
      return this;
    }

    /**
     * Keeps fetched thumbnails in a bounded disk cache (docs/files.md).
     *
     * @param settings the cache's directory and bound
     * @return this builder
     */
    public Builder fileCache(FileCacheSettings settings) {
      values.fileCache = OptionValues.notNull(settings, "settings");
      return this;
    }

    /**
     * Turns on the offline store: the client keeps its user's rooms, messages, receipts, recovery watermarks and
     * pending sends in the store {@code provider} opens at the first {@link ChatClient#connect}, so an app started
     * without a network reads them at once ({@link MessagePage#fromStore()}) and a restart delivers only what it
     * missed, once. The outbox then lives in the store. Tokens are never stored; {@link ChatClient#logout()} wipes
     * it. Stores: {@code SqliteChatStore} (JVM), {@code AndroidChatStore} (Android); docs/offline.md.
     *
     * @param provider opens the store of a user
     * @return this builder
     */
    public Builder store(ChatStoreProvider provider) {
      values.store = OptionValues.notNull(provider, "provider");
      return this;
    }

    /**
     * Sets the cap of the room list's unread counts ({@link RoomSummary}): a count is exact up to it, and above it
     * the count is the cap with {@link RoomSummary#unreadCapped()} set. The client reads at most about this many
     * messages of a room to count them.
     *
     * @param cap at least 1 ({@link #DEFAULT_UNREAD_CAP} by default)
     * @return this builder
     */
    public Builder unreadCap(int cap) {
      values.unreadCap = OptionValues.atLeast(1, cap, "unreadCap");
      return this;
    }

    /**
     * Returns the options.
     *
     * @return new immutable options
     */
    public SvcOptions build() {
      return new SvcOptions(this);
    }
  }
}
