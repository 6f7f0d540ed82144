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
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.transport.Transport;

/**
 * The realtime connection to the gateway: Engine.IO v4 and Socket.IO v5 over a {@link Transport}'s WebSocket, as an
 * actor. Every field is confined to the {@link Scheduler}'s thread; public methods and transport callbacks
 * only post to it. It owns the state machine of {@link ConnectionState}, reconnects with backoff, the
 * acknowledgements' registry and the handover of a token refresh; each socket's protocol (handshake,
 * heartbeat, frames) is its {@link GatewayConnection}'s, which reports typed results to it, read by
 * {@link ConnectionReports}. The wait for a fresh token after an expiry is {@link TokenRenewal}'s, the backoff
 * {@link ReconnectSchedule}'s. It parses no frame: the stages of the inbound path are listed in
 * {@link InboundPipeline}.
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
  private final EngineListener listener;
  private final Log log;
  private final PendingAcks acks;
  private final QueuedEmits queued;
  private final InboundPipeline pipeline;
  /** The engine's side of its connections' reports. */
  private final GatewayConnection.Owner owner;
  /** The backoff of reconnects (and of refreshes asked again), and its one timer. */
  private final ReconnectSchedule reconnects;
  /** The wait for a fresh token after the gateway said the token expired. */
  private final TokenRenewal renewal;

  private ConnectionState state = ConnectionState.DISCONNECTED;
  private volatile ConnectionState publishedState = ConnectionState.DISCONNECTED;
  private String token;
  private GatewayConnection current;
  private int connectionCount;
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
    this.listener = listener;
    this.log = log;
    this.acks = new PendingAcks(actor, ackTimeoutMillis);
    this.queued = new QueuedEmits(actor, ackTimeoutMillis);
    this.reconnects = new ReconnectSchedule(reconnectPolicy, actor);
    this.renewal = new TokenRenewal(this, reconnects, listener, refreshesTokens, log);
    this.pipeline = new InboundPipeline(decoder, undelivered, actor, listener, log);
    this.handover = new Handover(actor, acks, listener);
    this.owner = new ConnectionReports(this, handover, renewal, listener, log);
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

  /**
   * Starts the pending reconnect attempt now (or asks again for the refresh that failed), if the engine is
   * waiting out a backoff delay.
   */
  public void reconnectNow() {
    actor.execute(() -> {
      if (state == ConnectionState.RECONNECTING && current == null && reconnects.pending()) {
        log.info("reconnecting now, as asked");
        reconnects.runNow();
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
    String frame = SocketIoCodec.eventFrame(event, argsJson, id);
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
    reconnects.cancel();
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
      reconnects.reset();
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

  /** Returns whether {@code conn} is the current connection (not a stale or a handover's old one); actor. */
  boolean isCurrent(GatewayConnection conn) {
    return conn == current;
  }

  void onAccepted(GatewayConnection conn) {
    if (conn.accepted) return;
    conn.accepted = true;
    conn.handshakeDone();
    log.info("connected (connection #" + conn.id + ")");
    setState(ConnectionState.CONNECTED, ConnectionReason.CONNECTED, null, reconnects.attempt(), -1);
    answerConnectWaiters(null);
    StartPositions positions = handover.underway() ? conn.positions.duringHandover() : conn.positions;
    handover.newConnectionAccepted();
    queued.flush((event, json, result) -> emitWithAckInActor(event, json, result, null));
    listener.onConnectionAccepted(positions);
  }

  /** The client cannot have a fresh token for the expired one (refused, or no refresher): stay DISCONNECTED. */
  public void refreshRefused(final Throwable error) {
    actor.execute(() -> renewal.refused(error));
  }

  /** The refresh of the expired token failed transiently: asked again after the reconnect backoff. */
  public void refreshFailed(final Throwable error) {
    actor.execute(() -> renewal.failed(error));
  }

  /** Returns whether the engine waits, RECONNECTING with no connection, for a fresh token; actor only. */
  boolean awaitsToken() {
    return state == ConnectionState.RECONNECTING && current == null;
  }

  /**
   * Drops the connection without a DISCONNECT (the gateway ended the session) and fails what waits on it with
   * {@code failure}, leaving the state to the caller.
   */
  void dropConnection(RuntimeException failure) {
    handover.finish();
    cancelTimers();
    GatewayConnection conn = current;
    current = null;
    if (conn != null) {
      conn.accepted = false;
      abandon(conn);
    }
    acks.failAll(failure);
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
    if (conn.proved()) reconnects.reset(); // a working connection cut: start the backoff over
    log.info("connection #" + conn.id + " lost: " + reason.code());
    final long delay = reconnects.next();
    if (log.isDebug()) log.debug("reconnect attempt " + reconnects.attempt() + " in " + delay + " ms");
    setState(ConnectionState.RECONNECTING, reason, cause, reconnects.attempt(), delay);
    acks.failAll(new TransportException("the connection was lost (" + reason.code() + ")", cause));
    answerConnectWaiters(new TransportException("could not connect (" + reason.code() + "); retrying", cause));
    reconnects.schedule(delay, () -> {
      if (state == ConnectionState.RECONNECTING && current == null) open();
    });
  }

  private void cancelTimers() {
    reconnects.cancel();
    if (current != null && current.proved()) reconnects.reset();
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
    answerConnectWaiters(cause);
  }

  /** Drops {@code conn} for good: its reader stops waiting, then it is closed politely. */
  private void abandon(GatewayConnection conn) {
    conn.abandoned = true;
    conn.closePolitely();
  }

  /** Moves to {@code next} and reports it; a repeated RECONNECTING is reported too (every attempt is). */
  void setState(ConnectionState next, ConnectionReason reason, Throwable cause, int attempt, long delay) {
    if (state == next && next != ConnectionState.RECONNECTING) return;
    ConnectionState previous = state;
    state = next;
    publishedState = next;
    listener.onStateChange(new ConnectionStateChange(previous, next, reason, cause, attempt, delay));
  }

  /** Completes the futures of {@link #connect}: with {@code error}, or successfully when it is null. */
  void answerConnectWaiters(RuntimeException error) {
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
}
