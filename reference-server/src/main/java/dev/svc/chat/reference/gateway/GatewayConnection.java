package dev.svc.chat.reference.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.model.RoomPosition;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WebSocket: an Engine.IO v4 session (open packet, server pings, pong deadline) carrying at most one
 * Socket.IO session on the default namespace (handshake, joined room, token expiry). Jetty's reader thread,
 * the timers and the fan-out all touch it; its session state is guarded by its monitor, and every frame goes
 * through its {@link Outbound} queue. The fan-out's frames pass its {@link AnswerGate} and never take its
 * monitor. Under its monitor only locks that are never held across a wait are taken ({@link AnswerGate},
 * {@link Outbound}, {@link TenantPresence}, the timer queue, the fan-out's index maps): never {@link FanOut}'s
 * delivery order, never Jetty's I/O, so the gateway's one timer thread never waits behind a handshake or a
 * fan-out (docs/internals/server.md, "Locks").
 */
final class GatewayConnection {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayConnection.class);
    /** How long a closing connection waits for the peer's close frame before the TCP connection is cut. */
    static final Duration CLOSE_GRACE = Duration.ofSeconds(1);

    private final Gateway gateway;
    private final Session session;
    private final String engineSid;
    private final Outbound out;
    private final SendBlocks sendBlocks = new SendBlocks();

    // Guarded by this.
    private boolean closed;
    private Principal principal;
    private String joinedRoomId;
    private ScheduledFuture<?> pingTimer;
    private ScheduledFuture<?> pongTimer;
    private ScheduledFuture<?> connectTimer;
    private ScheduledFuture<?> expiryTimer;
    // A handshake is indexing the session outside this monitor: a session ending meanwhile leaves its
    // unregistering to that handshake, which registers it.
    private boolean registering;
    // Indexed for delivery before the handshake is answered, so nothing published after the answer can be
    // missed; frames delivered until the answer is queued wait in the gate, so none overtakes it.
    private final AnswerGate gate;
    // Read without the lock by the fan-out.
    private volatile boolean apiKey;
    private volatile String userId;
    // For the dev API only: written by Jetty's one reader thread of this socket, read by anyone.
    private final Instant openedAt;
    private volatile long framesIn;
    private volatile Instant lastPongAt;

    GatewayConnection(Gateway gateway, Session session, String engineSid) {
        this.gateway = gateway;
        this.session = session;
        this.engineSid = engineSid;
        this.out = new Outbound(session, gateway.writers(), gateway.config().outboundLimit(),
                gateway.config().outboundBytes(), this::dropSlow, gateway.fanOut().writeBacklog());
        this.gate = new AnswerGate(out);
        this.openedAt = gateway.clock().instant();
    }

    /** Sends the open packet and starts the heartbeat and the connect deadline. */
    synchronized void open() {
        GatewayConfig config = gateway.config();
        out.send(gateway.frames().open(engineSid, config.pingInterval().toMillis(),
                config.pingTimeout().toMillis(), config.maxPayload()));
        pingTimer = schedule(this::ping, config.pingInterval());
        connectTimer = schedule(this::connectTimedOut, config.connectTimeout());
    }

    /** Handles one text frame from the client: one Engine.IO packet. */
    void onText(String frame) {
        framesIn++; // one writer: this socket's reader thread
        if (frame.isEmpty()) {
            closeNow();
            return;
        }
        switch (frame.charAt(0)) {
            case '3' -> onPong();
            case '4' -> onSocketIo(frame.substring(1));
            case '5', '6' -> { } // upgrade and noop mean nothing on a WebSocket-only session
            // '2' is a ping in the wrong direction: the official server closes too. '1' is the client asking to
            // close; engine.io ignores it on a WebSocket, we honour it (nothing else could be meant by it).
            // Anything else is not an Engine.IO packet ("parse error" in engine.io): close.
            default -> closeNow();
        }
    }

    /** Binary frames are not supported: the connection is closed. */
    void onBinary() {
        closeNow();
    }

    /** Cleans up after the WebSocket closed, whoever closed it (the gateway has already dropped it from its map). */
    void onClosed() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            cancelTimers();
            endSession();
        }
        out.abort();
    }

    /** Enqueues a frame from the fan-out. */
    void deliver(OutFrame frame) {
        deliver(frame, null);
    }

    /**
     * Enqueues a frame from the fan-out; a writer it needs is added to {@code starts} (when not null) for the
     * caller to wake with {@link Outbound#startAll}.
     */
    void deliver(OutFrame frame, List<Outbound> starts) {
        gate.deliver(frame, starts);
    }

    /** Returns the order guard of this connection's {@code send-message} events. */
    SendBlocks sendBlocks() {
        return sendBlocks;
    }

    /** Returns whether this connection authenticated with an API key. */
    boolean isApiKey() {
        return apiKey;
    }

    /** Returns the token's user, or null for an API-key connection or before the handshake. */
    String userId() {
        return userId;
    }

    /** Returns the joined room, or null. */
    synchronized String joinedRoomId() {
        return joinedRoomId;
    }

    /** Makes {@code roomId} the joined room of this connection, leaving the previous one. */
    synchronized void join(String roomId) {
        if (principal == null) {
            return;
        }
        gateway.fanOut().moveJoined(this, principal.tenantId(), joinedRoomId, roomId);
        joinedRoomId = roomId;
    }

    /** Leaves {@code roomId} if it is the joined room. */
    synchronized void leave(String roomId) {
        if (principal != null && roomId.equals(joinedRoomId)) {
            gateway.fanOut().moveJoined(this, principal.tenantId(), joinedRoomId, null);
            joinedRoomId = null;
        }
    }

    /** Closes at once, dropping pending frames: protocol errors, timeouts, shutdown. */
    void closeNow() {
        out.abort();
        if (session.isOpen()) {
            // Like the official server: no status code (the client sees 1005).
            session.close(StatusCode.NO_CODE, null);
            // A peer that never answers the close frame (gone, or flooding) would keep the connection, its
            // timers and buffers until Jetty's idle timeout: cut it after a short grace instead.
            schedule(this::disconnectUnlessClosed, CLOSE_GRACE);
        }
    }

    private void disconnectUnlessClosed() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        session.disconnect();
    }

    private void onSocketIo(String text) {
        SocketIoPacket packet;
        try {
            packet = SocketIoPacket.parse(text, gateway.mapper());
        } catch (SocketIoPacket.InvalidPacketException e) {
            closeNow();
            return;
        }
        boolean connected;
        synchronized (this) {
            connected = principal != null;
        }
        boolean defaultNsp = "/".equals(packet.nsp());
        if (packet.type() == SocketIoPacket.CONNECT && !defaultNsp) {
            out.send(gateway.frames().invalidNamespace(packet.nsp()));
        } else if (packet.type() == SocketIoPacket.CONNECT && !connected) {
            handshake(packet.data());
        } else if (connected && defaultNsp && packet.type() == SocketIoPacket.EVENT) {
            onEvent(packet);
        } else if (connected && defaultNsp && packet.type() == SocketIoPacket.DISCONNECT) {
            clientDisconnect();
        } else if (connected && defaultNsp && packet.type() == SocketIoPacket.ACK) {
            return; // the server never asks for acks; a stray one is harmless
        } else {
            // The official server's "invalid state": CONNECT twice, anything before CONNECT, CONNECT_ERROR.
            closeNow();
        }
    }

    private void handshake(JsonNode auth) {
        Principal who;
        try {
            who = gateway.authenticate(auth);
        } catch (ApiException e) {
            out.send(gateway.frames().connectError(e.code()));
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            principal = who;
            apiKey = who.isApiKey();
            userId = who.userId();
            cancel(connectTimer);
            connectTimer = null;
            gate.hold();
            registering = true;
        }
        // Counted online and indexed before the answer, so the user cannot look offline and no event can be
        // missed once the client knows it is connected; the gate holds frames until the answer is queued, so
        // none overtakes it. Outside this monitor: indexing waits for the fan-out under way (the delivery
        // order's write lock), and whoever takes this monitor (the timer's ping) must not wait with it.
        FanOut fanOut = gateway.fanOut();
        fanOut.countOnline(who, now());
        fanOut.register(this, who);
        // Read after the indexing (contract section 8): a change committed after this read is published after
        // its commit, so to this connection; one committed before is at or below the position. Outside the
        // monitor too: it is a read of the store.
        List<RoomPosition> rooms = null;
        RuntimeException unread = null;
        if (!who.isApiKey()) {
            fanOut.seam().readingPositions(this);
            try {
                rooms = gateway.positions(who);
            } catch (RuntimeException e) {
                unread = e;
            }
        }
        fanOut.seam().answering(this);
        boolean ended;
        synchronized (this) {
            registering = false;
            ended = principal == null; // closed or expired meanwhile: endSession left the unregistering here
            if (ended || unread != null) {
                gate.drop();
            }
            if (!ended && unread != null) {
                endSession(); // unregisters: the client may CONNECT again, as after a refusal
                connectTimer = schedule(this::connectTimedOut, gateway.config().connectTimeout());
            } else if (!ended) {
                gate.open(gateway.frames().connected(gateway.newSocketSid(), rooms, now()));
                scheduleExpiryCheck();
            }
        }
        if (ended) {
            fanOut.unregister(this, who, null, now());
        } else if (unread != null) {
            LOG.error("handshake of connection {} refused: the positions of its rooms could not be read", engineSid,
                    unread);
            out.send(gateway.frames().connectError(ApiException.internal().code()));
        }
    }

    private void onEvent(SocketIoPacket packet) {
        Principal who;
        synchronized (this) {
            who = principal;
        }
        if (who == null) {
            return;
        }
        if (who.isExpiredAt(gateway.clock().instant())) {
            expire();
            return;
        }
        String name = packet.data().get(0).textValue();
        JsonNode arg = packet.data().size() > 1 ? packet.data().get(1) : null;
        Map<String, Object> ack;
        // a message into a small room goes to its readers from here, written before the ack (holding no lock)
        try (FanOut.InPlace inPlace = gateway.fanOut().deliverInPlace()) {
            ack = gateway.events().handle(this, who, name, arg);
        } catch (ApiException e) {
            ack = ClientEvents.error(e);
        } catch (RuntimeException e) {
            LOG.error("event {} failed", name, e);
            ack = ClientEvents.error(ApiException.internal());
        }
        if (packet.ackId() != null) {
            out.sendNow(gateway.frames().ack(packet.ackId(), ack)); // on the reader thread, holding no lock
        }
    }

    private synchronized void clientDisconnect() {
        endSession();
        // Without a session the engine connection must find a new one in time, as after opening.
        connectTimer = schedule(this::connectTimedOut, gateway.config().connectTimeout());
    }

    /**
     * Ends the Socket.IO session (if any): out of the fan-out, timers of the token stopped. A session whose
     * handshake is still registering it is unregistered by that handshake, once registered.
     */
    private void endSession() {
        if (principal != null && !registering) {
            gateway.fanOut().unregister(this, principal, joinedRoomId, now());
        }
        principal = null;
        joinedRoomId = null;
        cancel(expiryTimer);
        expiryTimer = null;
    }

    private void ping() {
        synchronized (this) {
            if (closed) {
                return;
            }
            // Checked on every ping against the injected clock, so a virtual clock that jumps is noticed.
            if (principal != null && principal.isExpiredAt(gateway.clock().instant())) {
                expire();
                return;
            }
            pongTimer = schedule(this::closeNow, gateway.config().pingTimeout());
        }
        out.send(Frames.PING);
    }

    private synchronized void onPong() {
        if (closed || pongTimer == null) {
            return; // an unsolicited pong changes nothing
        }
        lastPongAt = gateway.clock().instant();
        cancel(pongTimer);
        pongTimer = null;
        // Like engine.io v4: the next ping is one interval after the pong.
        pingTimer = schedule(this::ping, gateway.config().pingInterval());
    }

    private void connectTimedOut() {
        synchronized (this) {
            if (closed || principal != null) {
                return;
            }
        }
        closeNow(); // Jetty's close: never under this monitor
    }

    private synchronized void scheduleExpiryCheck() {
        if (closed || principal == null || principal.expiresAt() == null) {
            return;
        }
        Duration left = Duration.between(gateway.clock().instant(), principal.expiresAt());
        expiryTimer = schedule(this::checkExpiry, left.isNegative() ? Duration.ZERO : left);
    }

    private synchronized void checkExpiry() {
        if (closed || principal == null) {
            return;
        }
        if (principal.isExpiredAt(gateway.clock().instant())) {
            expire();
        } else {
            // A virtual clock has not reached exp yet: look again when it might have.
            scheduleExpiryCheck();
        }
    }

    /** Returns what the dev API shows of this connection, or null without a Socket.IO session of the tenant. */
    synchronized ConnectionInfo info(String tenantId) {
        if (closed || principal == null || !principal.tenantId().equals(tenantId)) {
            return null;
        }
        return new ConnectionInfo(userId, "websocket", openedAt, framesIn, out.framesQueued(), out.queuedBytes(),
                lastPongAt, joinedRoomId);
    }

    /** Returns whether this connection has a Socket.IO session of that user (by token) of that tenant. */
    synchronized boolean isSessionOf(String tenantId, String user) {
        return principal != null && !apiKey && principal.tenantId().equals(tenantId) && user.equals(userId);
    }

    /** The contract's expiry sequence: session-expired, then DISCONNECT, then close. */
    synchronized void expire() {
        if (closed || principal == null) {
            return;
        }
        endSession();
        cancelTimers();
        out.send(gateway.frames().event("session-expired", Map.of("code", "token_expired")));
        out.send(Frames.DISCONNECT);
        out.closeAfterFlush();
    }

    private void dropSlow() {
        LOG.warn("dropping connection {}: outbound queue over {} frames or {} bytes", engineSid,
                gateway.config().outboundLimit(), gateway.config().outboundBytes());
        // The client is not reading, so a close frame would wait behind the backlog: cut the TCP connection.
        // Not on this thread: it may hold locks here (the fan-out's, this connection's), and no lock is held
        // across Jetty's I/O.
        try {
            gateway.writers().execute(session::disconnect);
        } catch (RejectedExecutionException e) {
            // The gateway is closing: Jetty's stop, right after, closes every connection.
        }
    }

    private Instant now() {
        return gateway.clock().instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private void cancelTimers() {
        cancel(pingTimer);
        cancel(pongTimer);
        cancel(connectTimer);
        cancel(expiryTimer);
        pingTimer = pongTimer = connectTimer = expiryTimer = null;
    }

    private ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        try {
            return gateway.scheduler().schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            return null; // shutting down: every connection is being closed
        }
    }

    private static void cancel(ScheduledFuture<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
    }

    @Override
    public String toString() {
        return "GatewayConnection[" + engineSid + "]";
    }
}
