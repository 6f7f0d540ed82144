package dev.svc.chat.internal.realtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.json.ServiceError;
import dev.svc.chat.internal.socketio.EngineIoCodec;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;
import dev.svc.chat.transport.Transport;

/**
 * The realtime connection to the gateway: Engine.IO v4 and Socket.IO v5 over a {@link Transport}'s WebSocket, as an
 * actor. Every field is confined to the {@link Scheduler}'s thread; public methods and transport callbacks
 * only post to it. It owns the state machine of {@link ConnectionState}, reconnects with backoff, the
 * acknowledgements' registry and the handover of a token refresh; each socket's protocol (handshake,
 * heartbeat, frames) is its {@link GatewayConnection}'s, which reports typed results to it. It parses no
 * frame: the stages of the inbound path are listed in {@link InboundPipeline}.
 */
public final class RealtimeEngine {
  /** How long a WebSocket may take from opening to the gateway's CONNECT answer. */
  static final long HANDSHAKE_TIMEOUT_MILLIS = 20_000;
  /** How long {@link #shutdown()} blocks at most in all: for the closing task, then for the socket's end. */
  static final long CLOSE_GRACE_MILLIS = 1_000;

  private final Transport transport;
  /** The gateway's WebSocket URL: one string shared by the clients of an API URL ({@code ApiUrls}). */
  private final String socketUrl;
  private final Scheduler actor;
  private final ReconnectPolicy reconnectPolicy;
  private final EngineListener listener;
  private final Log log;
  private final PendingAcks acks;
  private final QueuedEmits queued;
  private final InboundPipeline pipeline;
  /** The engine's side of its connections' reports. */
  private final GatewayConnection.Owner owner = new ConnectionReports();
  /** Whether an expired token is refreshed by the client (then the engine waits for the new token). */
  private final boolean refreshesTokens;

  private ConnectionState state = ConnectionState.DISCONNECTED;
  private volatile ConnectionState publishedState = ConnectionState.DISCONNECTED;
  private String token;
  private GatewayConnection current;
  private int connectionCount;
  private int reconnectAttempt;
  private Scheduler.Timer reconnectTimer;
  /** The refusal of the latest expired token, for the outcome if no fresh one comes. */
  private ApiException expiredBy;
  private final List<CompletableFuture<Void>> connectWaiters = new ArrayList<>(1);
  /** The previous connection of a token refresh, kept delivering until the new one took over. */
  private final Handover handover;
  /** Futures of commands posted to the actor and not yet complete: failed by {@link #shutdown()}. */
  private final OpenCommands openCommands;

  /**
   * Creates an engine; {@code decoder} reads the gateway's events (the client's one frame decoder), and
   * {@code undelivered} counts the events not yet handled (for the inbound gate).
   */
  public RealtimeEngine(Transport transport, String socketUrl, Scheduler actor, ReconnectPolicy reconnectPolicy,
      long ackTimeoutMillis, boolean refreshesTokens, EventDecoder decoder, IntSupplier undelivered,
      EngineListener listener, Log log) {
    this.transport = transport;
    this.socketUrl = socketUrl;
    this.actor = actor;
    this.reconnectPolicy = reconnectPolicy;
    this.listener = listener;
    this.log = log;
    this.acks = new PendingAcks(actor, ackTimeoutMillis);
    this.queued = new QueuedEmits(actor, ackTimeoutMillis);
    this.refreshesTokens = refreshesTokens;
    this.pipeline = new InboundPipeline(decoder, undelivered, actor, listener, log);
    this.handover = new Handover(actor, acks, listener);
    this.openCommands = new OpenCommands(actor);
  }

  /** Returns the state as last published; callable from any thread. */
  public ConnectionState state() {
    return publishedState;
  }

  /** Returns the token the actor has from the credentials (the handshake sends it); actor only. */
  public String tokenInActor() {
    return token;
  }

  /** Returns the id of the current connection (0 when none); call on the actor thread only. */
  public int connectionIdInActor() {
    return current == null ? 0 : current.id;
  }

  /** Returns the accepted connection's offer of socket sends, or null; actor only. */
  public SocketSendChannel socketSendsInActor() {
    return state == ConnectionState.CONNECTED && current != null && current.accepted ? current.sendChannel : null;
  }

  /** A REST send was answered while the current connection was accepted: that proves it too; any thread. */
  public void serviceAnswered() {
    actor.execute(() -> {
      if (current != null && current.accepted) current.answered = true;
    });
  }

  /** Returns the scheduler that is this engine's actor. */
  public Scheduler actor() {
    return actor;
  }

  // ---------------------------------------------------------------- commands (any thread)

  /** Connects, or reconnects with a new token; completes when the gateway accepted the handshake. */
  public CompletableFuture<Void> connect(final String token) {
    final CompletableFuture<Void> result = new CompletableFuture<>();
    post(result, () -> doConnect(token, result));
    return result;
  }

  /** The credentials' token changed: a connection moves to it (as {@link #connect}); a disconnected one keeps it. */
  public void tokenChanged(final String token) {
    actor.execute(() -> { // decided on the actor, so a change racing disconnect() never reconnects
      if (state == ConnectionState.DISCONNECTED || state == ConnectionState.CLOSED) this.token = token;
      else doConnect(token, new CompletableFuture<>());
    });
  }

  /** Disconnects politely and stays disconnected. */
  public CompletableFuture<Void> disconnect() {
    final CompletableFuture<Void> result = new CompletableFuture<>();
    post(result, () -> {
      if (state != ConnectionState.CLOSED) {
        stop(ConnectionState.DISCONNECTED, ConnectionReason.CLIENT_DISCONNECT, new TransportException("disconnected"));
      }
      result.complete(null);
    });
    return result;
  }

  /** Starts the pending reconnect attempt now, if the engine is waiting out a backoff delay. */
  public void reconnectNow() {
    actor.execute(() -> {
      if (state == ConnectionState.RECONNECTING && current == null && reconnectTimer != null) {
        cancelReconnectTimer();
        log.info("reconnecting now, as asked");
        open();
      }
    });
  }

  /**
   * Closes for good: disconnects politely, waits for the socket to end (one deadline in all), then cancels it
   * so no transport thread stays behind. Must not be called on the actor thread. The closing task is the actor's
   * last (it shuts the actor down), so it runs even when the actor reaches it only after the grace (a loaded
   * machine): then the app's futures fail at once, and the task cancels the socket itself when it runs.
   */
  public void shutdown() {
    final GatewayConnection[] last = new GatewayConnection[1];
    final CountDownLatch done = new CountDownLatch(1);
    // set by whichever comes second: the closing task (the closer waits for the socket) or the closer giving up
    final AtomicBoolean claimed = new AtomicBoolean();
    boolean posted = actor.execute(() -> {
      GatewayConnection conn = current;
      stop(ConnectionState.CLOSED, ConnectionReason.CLOSED, new TransportException("the client was closed"));
      actor.shutdown(); // what is queued behind this task is dropped; its futures fail just below
      openCommands.failAll();
      last[0] = conn;
      if (claimed.compareAndSet(false, true)) {
        done.countDown();
      } else if (conn != null && conn.webSocket != null) {
        conn.webSocket.cancel(); // the closer stopped waiting: no one else ends the socket
      }
    });
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_GRACE_MILLIS);
    try {
      if (posted) done.await(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS); // else its executor was shut down
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (claimed.compareAndSet(false, true)) { // the closing task has not run (yet): the app's futures end now
      openCommands.failAll();
      return;
    }
    GatewayConnection conn = last[0];
    if (conn != null && conn.webSocket != null
        && !conn.awaitGone(TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))) {
      conn.webSocket.cancel();
    }
  }

  /** Emits an event that expects an acknowledgement; completes with the ACK's argument array (JSON). */
  public CompletableFuture<String> emitWithAck(final String event, final String argsJson) {
    final CompletableFuture<String> result = new CompletableFuture<>();
    post(result, () -> emitWithAckInActor(event, argsJson, result, null));
    return result;
  }

  /**
   * Runs {@code command} on the actor; {@code result} is its outcome. If the engine is shut down before
   * the command ran, {@code result} fails with a {@link ChatStateException} instead of never completing.
   */
  public void post(final CompletableFuture<?> result, Runnable command) {
    openCommands.post(result, command);
  }

  // ---------------------------------------------------------------- actor side

  /**
   * Emits on the actor thread. Without an accepted connection (connecting, reconnecting, or a token
   * refresh under way) the emit waits for the next one, up to the ack timeout; while disconnected or closed
   * it fails at once. {@code read} (or null), for an emit of an accepted connection only, completes once the frame
   * left the socket's queue as far as the client can tell (see {@link PendingAcks}): even after a timeout.
   */
  public void emitWithAckInActor(String event, String argsJson, CompletableFuture<String> result,
      CompletableFuture<Void> read) {
    GatewayConnection conn = current;
    if (state == ConnectionState.DISCONNECTED || state == ConnectionState.CLOSED) {
      result.completeExceptionally(new ChatStateException("cannot emit '" + event + "' while " + state));
      return;
    }
    if (state != ConnectionState.CONNECTED || conn == null || !conn.accepted) {
      queued.add(event, argsJson, result);
      return;
    }
    int id = acks.register(event, result, read);
    String frame = EngineIoCodec.message(SocketIoCodec.encode(SocketIoPacket.event(event, argsJson, id)));
    RuntimeException failure = conn.send(frame);
    if (failure != null) acks.fail(id, failure);
  }

  private void doConnect(String newToken, CompletableFuture<Void> result) {
    if (state == ConnectionState.CLOSED) {
      result.completeExceptionally(new ChatStateException("the client is closed"));
      return;
    }
    boolean sameToken = newToken.equals(token);
    token = newToken;
    if (state == ConnectionState.CONNECTED && sameToken) {
      result.complete(null);
      return;
    }
    connectWaiters.add(result);
    if (sameToken && current != null && !current.accepted) return; // the attempt under way will answer
    cancelReconnectTimer();
    GatewayConnection old = current;
    if (old != null) {
      // a refresh: the old handshake carried the old token, so start over on a new socket. Make before
      // break: an accepted old connection keeps delivering events until the new one is accepted.
      current = null;
      if (!old.accepted || !handover.begin(old)) {
        abandon(old);
        acks.failAll(new TransportException("reconnecting with a new token"));
      } // else the old connection stays open: its pending acknowledgements still arrive through the handover
    }
    if (state == ConnectionState.DISCONNECTED) {
      reconnectAttempt = 0;
      setState(ConnectionState.CONNECTING, ConnectionReason.CONNECT, null, 0, -1);
    } // else a new token while connected or reconnecting: invisible to the app, the state stays
    open();
  }

  private void open() {
    final GatewayConnection conn = pipeline.connection(++connectionCount, owner, acks);
    current = conn;
    if (HandshakeSlots.SHARED.tryAcquire(conn, actor, () -> openSocket(conn))) openSocket(conn);
  }

  /** Opens {@code conn}'s socket once it has a handshake slot, unless it was dropped meanwhile; actor only. */
  private void openSocket(final GatewayConnection conn) {
    if (!conn.keepSlot(conn == current && !conn.abandoned)) return;
    if (log.isDebug()) log.debug("opening connection #" + conn.id + " to " + socketUrl);
    conn.startHandshakeTimer(HANDSHAKE_TIMEOUT_MILLIS);
    conn.webSocket = transport.open(socketUrl, Collections.<String, String>emptyMap(), pipeline.reader(conn));
  }

  /** Returns how many inbound frames wait for the actor; any thread. */
  public int queuedFrames() {
    return pipeline.queuedFrames();
  }

  void onAccepted(GatewayConnection conn) {
    if (conn.accepted) return;
    conn.accepted = true;
    conn.handshakeDone();
    log.info("connected (connection #" + conn.id + ")");
    setState(ConnectionState.CONNECTED, ConnectionReason.CONNECTED, null, reconnectAttempt, -1);
    completeConnectWaiters(null);
    handover.newConnectionAccepted();
    queued.flush((event, json, result) -> emitWithAckInActor(event, json, result, null));
    listener.onConnectionAccepted();
  }

  /**
   * The token expired (refused, or {@code session-expired} on an open connection). With a refresher the
   * engine waits, RECONNECTING, for the credentials' new token ({@link #tokenChanged}) or for
   * {@link #refreshFailed}; without one it stays DISCONNECTED.
   */
  void tokenExpired(ApiException cause) {
    if (!refreshesTokens) {
      stop(ConnectionState.DISCONNECTED, ConnectionReason.TOKEN_EXPIRED, cause, false);
      return;
    }
    handover.finish();
    cancelTimers();
    GatewayConnection conn = current;
    current = null;
    if (conn != null) {
      conn.accepted = false; // the gateway ended the session: no DISCONNECT from us
      abandon(conn);
    }
    acks.failAll(new TransportException("the session token has expired; reconnecting with a fresh one", cause));
    expiredBy = cause;
    setState(ConnectionState.RECONNECTING, ConnectionReason.TOKEN_EXPIRED, cause, reconnectAttempt + 1, -1);
    listener.onTokenExpired();
  }

  /** The client could not refresh an expired token: stay DISCONNECTED. */
  public void refreshFailed(final Throwable error) {
    actor.execute(() -> {
      if (state != ConnectionState.RECONNECTING || current != null) return;
      log.info("the expired token could not be refreshed: " + error);
      ApiException cause = expiredBy != null ? expiredBy
          : new ApiException(401, "token_expired", ServiceError.TOKEN_EXPIRED);
      stop(ConnectionState.DISCONNECTED, ConnectionReason.TOKEN_EXPIRED, cause, false);
    });
  }

  /** Reports a problem the engine handled to the client (a rejoin refused). */
  void reportError(ClientError error) {
    listener.onClientError(error);
  }

  /** Handles the loss of {@code conn}: unless it is stale, go RECONNECTING and retry after a backoff. */
  void onTransportLost(GatewayConnection conn, ConnectionReason reason, RuntimeException cause) {
    if (handover.onLost(conn)) return;
    if (conn != current) return;
    handover.finish();
    current = null;
    abandon(conn);
    if (conn.webSocket != null) conn.webSocket.cancel();
    if (conn.proved()) reconnectAttempt = 0; // a working connection cut: start the backoff over
    log.info("connection #" + conn.id + " lost: " + reason.code());
    final long delay = reconnectPolicy.delayMillis(reconnectAttempt++);
    if (log.isDebug()) log.debug("reconnect attempt " + reconnectAttempt + " in " + delay + " ms");
    setState(ConnectionState.RECONNECTING, reason, cause, reconnectAttempt, delay);
    acks.failAll(new TransportException("the connection was lost (" + reason.code() + ")", cause));
    completeConnectWaiters(new TransportException("could not connect (" + reason.code() + "); retrying", cause));
    reconnectTimer = actor.schedule(() -> {
      reconnectTimer = null;
      if (state == ConnectionState.RECONNECTING && current == null) open();
    }, delay);
  }

  private void cancelTimers() {
    cancelReconnectTimer();
    if (current != null && current.proved()) reconnectAttempt = 0;
  }

  /** Ends the connection without reconnecting, in state {@code target}; says DISCONNECT first. */
  private void stop(ConnectionState target, ConnectionReason reason, RuntimeException cause) {
    stop(target, reason, cause, true);
  }

  /**
   * Ends the connection without reconnecting, in state {@code target}. {@code polite}: send DISCONNECT
   * first (not when the gateway itself refused or disconnected us).
   */
  void stop(ConnectionState target, ConnectionReason reason, RuntimeException cause, boolean polite) {
    handover.finish();
    cancelTimers();
    GatewayConnection conn = current;
    current = null;
    if (conn != null) {
      if (!polite) conn.accepted = false; // closePolitely says DISCONNECT only on an accepted connection
      abandon(conn);
    }
    RuntimeException failure = cause instanceof ApiException
        ? new TransportException("disconnected (" + reason.code() + ")", cause) : cause;
    setState(target, reason, cause instanceof TransportException ? null : cause, 0, -1);
    acks.failAll(failure);
    queued.failAll(failure);
    completeConnectWaiters(cause);
  }

  /** Drops {@code conn} for good: its reader stops waiting, then it is closed politely. */
  private void abandon(GatewayConnection conn) {
    conn.abandoned = true;
    conn.closePolitely();
  }

  /** The engine's side of its connections' reports ({@link GatewayConnection.Owner}); actor. */
  private final class ConnectionReports implements GatewayConnection.Owner {
    @Override
    public void accepted(GatewayConnection conn) {
      if (conn == current) onAccepted(conn);
    }

    @Override
    public void lost(GatewayConnection conn, ConnectionReason reason, RuntimeException cause) {
      onTransportLost(conn, reason, cause);
    }

    /** The refusal of the CONNECT ({@code error} null: unreadable, so retried with backoff). */
    @Override
    public void refused(GatewayConnection conn, ServiceError error) {
      if (conn != current) return;
      if (error == null) { // not a refusal the client can read: neither assume "unauthorized" nor give up
        onTransportLost(conn, ConnectionReason.PROTOCOL_ERROR, new TransportException("unreadable CONNECT_ERROR"));
        return;
      }
      ApiException cause = error.toApiException();
      if (cause.status() >= 500 || cause.status() == 429) {
        // the gateway failed (or is overloaded) and did not judge the token: retried with backoff, as the outbox
        // retries a send answered so; only a refusal (4xx) stops the client
        log.info("the gateway failed the handshake: " + error.code + "; retrying");
        onTransportLost(conn, ConnectionReason.HANDSHAKE_FAILED, cause);
        return;
      }
      log.info("the gateway refused the handshake: " + error.code);
      if (cause.isTokenExpired()) {
        tokenExpired(cause);
      } else {
        stop(ConnectionState.DISCONNECTED, "unauthorized".equals(error.code) ? ConnectionReason.UNAUTHORIZED
            : ConnectionReason.REFUSED, cause, false);
      }
    }

    /** The gateway's DISCONNECT: the end of a handover's old connection, an expired session, or the end. */
    @Override
    public void disconnected(GatewayConnection conn) {
      if (handover.onLost(conn) || conn != current) return;
      if (conn.sessionExpired) {
        tokenExpired(new ApiException(401, "token_expired", ServiceError.TOKEN_EXPIRED));
      } else {
        stop(ConnectionState.DISCONNECTED, ConnectionReason.SERVER_DISCONNECT,
            new TransportException("the gateway disconnected the client"), false);
      }
    }

    @Override
    public void event(GatewayConnection conn, EventDecoder.Event<?> event) {
      if (conn != current) {
        handover.onEvent(conn, event); // the old connection of a token refresh still delivers
      } else if (!handover.hold(event)) {
        listener.onEvent(event);
      }
    }

    @Override
    public void clientError(GatewayConnection conn, ClientError error) {
      if (conn == current) listener.onClientError(error);
    }

    @Override
    public String token() {
      return tokenInActor();
    }
  }

  /** Moves to {@code next} and reports it; a repeated RECONNECTING is reported too (every attempt is). */
  private void setState(ConnectionState next, ConnectionReason reason, Throwable cause, int attempt, long delay) {
    if (state == next && next != ConnectionState.RECONNECTING) return;
    ConnectionState previous = state;
    state = next;
    publishedState = next;
    listener.onStateChange(new ConnectionStateChange(previous, next, reason, cause, attempt, delay));
  }

  private void completeConnectWaiters(RuntimeException error) {
    if (connectWaiters.isEmpty()) return;
    List<CompletableFuture<Void>> waiters = new ArrayList<>(connectWaiters);
    connectWaiters.clear();
    for (CompletableFuture<Void> f : waiters) {
      if (error == null) {
        f.complete(null);
      } else {
        f.completeExceptionally(error);
      }
    }
  }

  private void cancelReconnectTimer() {
    if (reconnectTimer != null) reconnectTimer.cancel();
    reconnectTimer = null;
  }
}
