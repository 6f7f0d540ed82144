package dev.svc.chat.reference.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.auth.RandomIds;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.model.RoomPosition;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.store.Store;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.websocket.WsContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.websocket.server.JettyWebSocketServletFactory;

/**
 * The Socket.IO v4 gateway on {@code /socket.io/}: Engine.IO v4 over WebSocket only, default namespace
 * only. It owns the connections, one timer thread for heartbeats and deadlines, and a small pool that
 * drives the asynchronous writes; {@link #close()} stops all of them.
 */
public final class Gateway implements AutoCloseable {

    /** The path of the endpoint (the official client's default). */
    public static final String PATH = "/socket.io/";

    private final GatewayConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final Store store;
    private final SessionTokens tokens;
    private final Frames frames;
    private final FanOut fanOut;
    private final ClientEvents events;
    private final ScheduledThreadPoolExecutor scheduler;
    private final ExecutorService writers;
    private final Map<String, GatewayConnection> connections = new ConcurrentHashMap<>();

    /** Creates a gateway; nothing runs until {@link #install} and the server's start. */
    public Gateway(GatewayConfig config, ObjectMapper mapper, Clock clock, Store store, SessionTokens tokens,
                   FanOut fanOut, ChatService service) {
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
        this.store = store;
        this.tokens = tokens;
        this.frames = new Frames(mapper);
        this.fanOut = fanOut;
        this.events = new ClientEvents(service, fanOut, mapper);
        this.scheduler = new ScheduledThreadPoolExecutor(1, daemonThreads("svc-ref-gateway-timer"));
        // Cancelled heartbeat timers would otherwise pile up in the queue until their delay passes.
        this.scheduler.setRemoveOnCancelPolicy(true);
        this.writers = Executors.newFixedThreadPool(
                Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors())),
                daemonThreads("svc-ref-gateway-writer"));
    }

    /** How often presence changes are published by default (net changes per user in each batch). */
    public static final Duration DEFAULT_PRESENCE_INTERVAL = PresenceFlusher.DEFAULT_INTERVAL;

    /** Returns the fan-out a {@link ChatService} publishes to; it is created before the service. */
    public static FanOut newFanOut(ObjectMapper mapper, Duration presenceInterval) {
        return new FanOut(new Frames(mapper), presenceInterval);
    }

    /**
     * Returns the fan-out a {@link ChatService} publishes to, whose watchdog reports the fan-out as stuck when
     * it had work and finished none for {@code stallThreshold} (default 5 s).
     */
    public static FanOut newFanOut(ObjectMapper mapper, Duration presenceInterval, Duration stallThreshold) {
        return new FanOut(new Frames(mapper), presenceInterval, stallThreshold);
    }

    /** Returns how the fan-out thread is doing: whether it is stuck, how often it was, its failures. */
    public FanOutHealth fanOutHealth() {
        return fanOut.health();
    }

    /** The size Jetty reads a socket's frames in, and starts an incoming message's text at: a usual frame's. */
    static final int INPUT_BUFFER_BYTES = 1024;

    /** The WebSocket extension that compresses each message (RFC 7692). */
    static final String PERMESSAGE_DEFLATE = "permessage-deflate";

    /** Applies the gateway's limits to Jetty's WebSocket factory, and its compression setting. */
    public void configure(JettyWebSocketServletFactory factory) {
        if (!config.compression()) {
            // Jetty would negotiate it with every client that offers it (browsers and the official client do)
            // and then deflate each frame once per connection. The registry is this server's own.
            factory.getAvailableExtensionNames().remove(PERMESSAGE_DEFLATE);
        }
        factory.setMaxTextMessageSize(config.maxPayload());
        factory.setMaxBinaryMessageSize(config.maxPayload());
        // A frame may be as large as a message: the official client sends each packet as one frame.
        factory.setMaxFrameSize(config.maxPayload());
        // Jetty's text sink starts each incoming message's builder at the input buffer's size (4 KiB by default):
        // 4 KiB of garbage for a send of 300 bytes. A larger message grows the builder; reads from the network
        // take pooled buffers of this size, so a large frame only takes more reads.
        factory.setInputBufferSize(INPUT_BUFFER_BYTES);
        // Our heartbeat keeps healthy connections busy; Jetty's idle timeout only reaps stuck ones.
        factory.setIdleTimeout(config.pingInterval().plus(config.pingTimeout()).plus(Duration.ofSeconds(10)));
    }

    /** Installs the endpoint and the HTTP answers of engine.io for requests it refuses. */
    public void install(Javalin app) {
        app.wsBeforeUpgrade(PATH, this::checkUpgrade);
        app.ws(PATH, ws -> {
            ws.onConnect(ctx -> onOpen(ctx));
            ws.onMessage(ctx -> withConnection(ctx, c -> c.onText(ctx.message())));
            ws.onBinaryMessage(ctx -> withConnection(ctx, GatewayConnection::onBinary));
            // Removed by its key: finding it by value walked every open connection, so closing N cost O(N²).
            ws.onClose(ctx -> {
                GatewayConnection connection = connections.remove(ctx.sessionId());
                if (connection != null) {
                    connection.onClosed();
                }
            });
            ws.onError(ctx -> withConnection(ctx, GatewayConnection::closeNow));
        });
        // Plain HTTP (long-polling, or a GET without Upgrade) is refused as engine.io refuses it.
        app.get(PATH, ctx -> refuseHttp(ctx));
        app.post(PATH, ctx -> refuseHttp(ctx));
    }

    /** Closes every connection and stops the gateway's threads. */
    @Override
    public void close() {
        for (GatewayConnection connection : new ArrayList<>(connections.values())) {
            connection.closeNow();
        }
        scheduler.shutdownNow();
        fanOut.close();
        writers.shutdown();
        try {
            if (!writers.awaitTermination(2, TimeUnit.SECONDS)) {
                writers.shutdownNow();
            }
        } catch (InterruptedException e) {
            writers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Returns the number of open connections. */
    public int connectionCount() {
        return connections.size();
    }

    /**
     * Returns what the gateway still holds for connections: open connections, pending timers and fan-out
     * index entries. It returns to zero once every connection is gone (the bookkeeping leaks nothing).
     */
    public int bookkeeping() {
        return connections.size() + scheduler.getQueue().size() + fanOut.indexedConnections();
    }

    /** Returns the connections with a Socket.IO session of {@code tenantId} (the dev API; none of another tenant). */
    public java.util.List<ConnectionInfo> connectionsOf(String tenantId) {
        java.util.List<ConnectionInfo> infos = new ArrayList<>();
        for (GatewayConnection connection : connections.values()) {
            ConnectionInfo info = connection.info(tenantId);
            if (info != null) {
                infos.add(info);
            }
        }
        return infos;
    }

    /**
     * Ends the sessions of a user's connections as an expired token does ({@code session-expired}, then
     * DISCONNECT and close); returns how many. The tokens themselves are refused by {@link SessionTokens}.
     */
    public int expireSessions(String tenantId, String userId) {
        int n = 0;
        for (GatewayConnection connection : connections.values()) {
            if (connection.isSessionOf(tenantId, userId)) {
                connection.expire();
                n++;
            }
        }
        return n;
    }

    /** Closes a user's connections at once, as a network cut would; returns how many. */
    public int disconnect(String tenantId, String userId) {
        int n = 0;
        for (GatewayConnection connection : connections.values()) {
            if (connection.isSessionOf(tenantId, userId)) {
                connection.closeNow(); // Jetty's close: never under the connection's monitor
                n++;
            }
        }
        return n;
    }

    Principal authenticate(JsonNode auth) {
        if (auth != null && auth.isObject()) {
            JsonNode token = auth.get("token");
            if (token != null && token.isTextual()) {
                return tokens.verify(token.textValue());
            }
            JsonNode apiKey = auth.get("apiKey");
            if (apiKey != null && apiKey.isTextual() && apiKey.textValue().startsWith("sk_")) {
                return store.tenantByApiKey(apiKey.textValue()).map(Principal::apiKey)
                        .orElseThrow(ApiException::unauthorized);
            }
        }
        throw ApiException.unauthorized();
    }

    /** Returns where each of the user's rooms stands: one read of the store (contract section 8). */
    List<RoomPosition> positions(Principal principal) {
        return store.positionsOf(principal.tenantId(), principal.userId());
    }

    String newSocketSid() {
        return RandomIds.base64Url(20);
    }

    GatewayConfig config() {
        return config;
    }

    ObjectMapper mapper() {
        return mapper;
    }

    Clock clock() {
        return clock;
    }

    Frames frames() {
        return frames;
    }

    FanOut fanOut() {
        return fanOut;
    }

    ClientEvents events() {
        return events;
    }

    ScheduledExecutorService scheduler() {
        return scheduler;
    }

    ExecutorService writers() {
        return writers;
    }

    private void onOpen(WsContext ctx) {
        GatewayConnection connection = new GatewayConnection(this, ctx.session, RandomIds.base64Url(20));
        connections.put(ctx.sessionId(), connection);
        connection.open();
    }

    private void withConnection(WsContext ctx, java.util.function.Consumer<GatewayConnection> action) {
        GatewayConnection connection = connections.get(ctx.sessionId());
        if (connection != null) {
            action.accept(connection);
        }
    }

    private void checkUpgrade(Context ctx) throws IOException {
        String eio = ctx.queryParam("EIO");
        String transport = ctx.queryParam("transport");
        if (!"4".equals(eio)) {
            refuseUpgrade(ctx, 5, "Unsupported protocol version");
        } else if (!"websocket".equals(transport)) {
            refuseUpgrade(ctx, 0, "Transport unknown");
        }
    }

    private void refuseUpgrade(Context ctx, int code, String message) throws IOException {
        // Javalin does not write a result during the upgrade phase: write the answer ourselves and stop.
        byte[] body = engineError(code, message);
        ctx.res().setStatus(400);
        ctx.res().setContentType("application/json");
        ctx.res().setContentLength(body.length);
        ctx.res().getOutputStream().write(body);
        ctx.res().flushBuffer();
        ctx.skipRemainingHandlers();
    }

    private void refuseHttp(Context ctx) {
        String eio = ctx.queryParam("EIO");
        String transport = ctx.queryParam("transport");
        byte[] body;
        if (!"websocket".equals(transport)) {
            body = engineError(0, "Transport unknown");
        } else if (!"4".equals(eio)) {
            body = engineError(5, "Unsupported protocol version");
        } else {
            body = engineError(3, "Bad request");
        }
        ctx.status(400).contentType("application/json").result(body);
    }

    private static byte[] engineError(int code, String message) {
        return ("{\"code\":" + code + ",\"message\":\"" + message + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static ThreadFactory daemonThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
