package dev.svc.chat.reference.dev;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.RandomIds;
import dev.svc.chat.reference.store.Store;
import dev.svc.chat.reference.store.TenantRecord;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.websocket.WsContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The dev channel (docs/console.md): Socket.IO v4 over WebSocket on {@value #PATH}, namespace {@value #NSP}
 * only, that pushes one tenant's events to the console. A socket CONNECTs with {@code {"apiKey": "sk_..."}} and
 * then receives the events of that key's tenant only; a session token, a wrong key or a connection while the
 * dev API is off is refused. It never reads anything from a socket but its handshake and pongs.
 *
 * <p>Every frame goes out on the channel's one thread ({@link #publish} only enqueues, so a caller holding a
 * room's lock never waits for a console), in publish order, one write in flight per socket; a socket more than
 * {@value #QUEUE_LIMIT} frames behind is closed (the console reconnects and reloads its state).
 */
public final class DevChannel implements AutoCloseable {

    /** The Engine.IO path of the channel (the socket.io client's {@code path} option). */
    public static final String PATH = "/v1/dev/socket.io/";
    /** The only namespace. */
    public static final String NSP = "/dev";
    /** How many frames may wait for one socket before it is closed. */
    static final int QUEUE_LIMIT = 5_000;
    private static final String PREFIX = "4"; // an Engine.IO message carrying a Socket.IO packet

    private final DevAccess access;
    private final Store store;
    private final ObjectMapper mapper;
    private final Duration pingInterval;
    private final Duration pingTimeout;
    private final ScheduledThreadPoolExecutor thread;
    private final Map<String, DevSocket> sockets = new ConcurrentHashMap<>();
    // Tenant id to its connected sockets: publish looks only here.
    private final Map<String, Set<DevSocket>> byTenant = new ConcurrentHashMap<>();
    private final List<Runnable> ticks = new java.util.concurrent.CopyOnWriteArrayList<>();
    // Sockets that joined a tenant so far: a view pushed on change pushes anew to a console that just joined.
    private final java.util.concurrent.atomic.AtomicLong joins = new java.util.concurrent.atomic.AtomicLong();

    /** Creates the channel; nothing is served until {@link #install}. */
    public DevChannel(DevAccess access, Store store, ObjectMapper mapper, Duration pingInterval,
                      Duration pingTimeout) {
        this.access = access;
        this.store = store;
        this.mapper = mapper;
        this.pingInterval = pingInterval;
        this.pingTimeout = pingTimeout;
        this.thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "svc-ref-dev-channel");
            t.setDaemon(true);
            return t;
        });
        this.thread.setRemoveOnCancelPolicy(true);
        this.thread.scheduleWithFixedDelay(this::heartbeat, pingInterval.toMillis(), pingInterval.toMillis(),
                TimeUnit.MILLISECONDS);
        this.thread.scheduleWithFixedDelay(this::tick, 500, 500, TimeUnit.MILLISECONDS);
    }

    /** Installs the endpoint on {@code app}. */
    public void install(Javalin app) {
        app.wsBeforeUpgrade(PATH, this::checkUpgrade);
        app.ws(PATH, ws -> {
            ws.onConnect(ctx -> {
                DevSocket socket = new DevSocket(ctx);
                sockets.put(ctx.sessionId(), socket);
                socket.send("0" + json(Map.of("sid", RandomIds.base64Url(20), "upgrades", List.of(),
                        "pingInterval", pingInterval.toMillis(), "pingTimeout", pingTimeout.toMillis(),
                        "maxPayload", 100_000)));
            });
            ws.onMessage(ctx -> {
                DevSocket socket = sockets.get(ctx.sessionId());
                if (socket != null) {
                    onText(socket, ctx.message());
                }
            });
            ws.onBinaryMessage(ctx -> ctx.closeSession());
            ws.onClose(ctx -> forget(sockets.remove(ctx.sessionId())));
            ws.onError(ctx -> ctx.closeSession());
        });
    }

    /**
     * Sends {@code event} with {@code payload} to the tenant's connected sockets; returns at once. Does
     * nothing (not even encode) when the tenant has none.
     */
    public void publish(String tenantId, String event, Object payload) {
        if (!byTenant.containsKey(tenantId)) {
            return;
        }
        String frame;
        try {
            frame = PREFIX + "2" + NSP + "," + mapper.writeValueAsString(List.of(event, payload));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a dev event", e);
        }
        execute(() -> {
            Set<DevSocket> targets = byTenant.get(tenantId);
            if (targets != null) {
                for (DevSocket socket : targets) {
                    socket.send(frame);
                }
            }
        });
    }

    /** Returns whether a console of the tenant is connected (a publisher may skip work when none is). */
    public boolean watched(String tenantId) {
        return byTenant.containsKey(tenantId);
    }

    /** Returns the ids of the tenants with a connected console. */
    Set<String> watchedTenants() {
        return Set.copyOf(byTenant.keySet());
    }

    /** Returns how many sockets joined a tenant so far (a view compares it to push to new consoles). */
    long joins() {
        return joins.get();
    }

    /** Runs {@code task} on the channel's thread twice a second (a view whose changes are checked, not told). */
    void everyHalfSecond(Runnable task) {
        ticks.add(task);
    }

    /** Returns the number of connected dev sockets (tests). */
    public int socketCount() {
        return sockets.size();
    }

    /** Closes every socket and stops the channel's thread. */
    @Override
    public void close() {
        thread.shutdownNow();
        for (DevSocket socket : new ArrayList<>(sockets.values())) {
            socket.close();
        }
    }

    private void onText(DevSocket socket, String text) {
        if (text.equals("3")) {
            socket.ponged = true;
        } else if (text.startsWith("40")) {
            connect(socket, text.substring(2));
        } else if (text.startsWith("41" + NSP)) {
            forget(socket);
        } else if (text.startsWith("42" + NSP) && socket.tenantId != null) {
            return; // the channel takes no events from the console
        } else {
            socket.close(); // the official server's "invalid state" or a parse error
        }
    }

    private void connect(DevSocket socket, String rest) {
        if (!rest.equals(NSP) && !rest.startsWith(NSP + ",")) {
            String nsp = rest.startsWith("/") ? rest.substring(0, Math.max(1, rest.indexOf(',') < 0
                    ? rest.length() : rest.indexOf(','))) : "/";
            socket.send("44" + (nsp.equals("/") ? "" : nsp + ",") + json(Map.of("message", "Invalid namespace")));
            return;
        }
        if (socket.tenantId != null) {
            socket.close();
            return;
        }
        TenantRecord tenant = tenantOf(rest.length() > NSP.length() ? rest.substring(NSP.length() + 1) : "");
        if (!access.devApi() || tenant == null) {
            String code = access.devApi() ? "unauthorized" : "forbidden";
            Map<String, Object> error = new LinkedHashMap<>(); // as the gateway's: message, then data
            error.put("message", code);
            error.put("data", Map.of("code", code));
            socket.send("44" + NSP + "," + json(error));
            return;
        }
        socket.tenantId = tenant.id();
        socket.send("40" + NSP + "," + json(Map.of("sid", RandomIds.base64Url(20))));
        // After the answer (the channel's thread keeps the order): the first events follow the CONNECT.
        execute(() -> {
            byTenant.computeIfAbsent(tenant.id(), k -> ConcurrentHashMap.newKeySet()).add(socket);
            joins.incrementAndGet();
        });
    }

    /** Returns the tenant of an auth payload {@code {"apiKey": "sk_..."}}, or null. */
    private TenantRecord tenantOf(String auth) {
        try {
            JsonNode node = auth.isEmpty() ? null : mapper.readTree(auth);
            JsonNode key = node != null ? node.get("apiKey") : null;
            if (key == null || !key.isTextual() || !key.textValue().startsWith("sk_")) {
                return null;
            }
            return store.tenantByApiKey(key.textValue()).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private void forget(DevSocket socket) {
        if (socket == null || socket.tenantId == null) {
            return;
        }
        String tenantId = socket.tenantId;
        socket.tenantId = null;
        execute(() -> byTenant.computeIfPresent(tenantId, (k, set) -> {
            set.remove(socket);
            return set.isEmpty() ? null : set;
        }));
    }

    private void heartbeat() {
        for (DevSocket socket : sockets.values()) {
            if (!socket.ponged || (socket.tenantId == null && socket.pings > 1)) {
                socket.close(); // no pong in a whole interval, or no CONNECT in two
            } else {
                socket.ponged = false;
                socket.pings++;
                socket.send("2");
            }
        }
    }

    private void tick() {
        for (Runnable task : ticks) {
            try {
                task.run();
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(DevChannel.class).warn("a dev channel view failed", e);
            }
        }
    }

    private void execute(Runnable task) {
        try {
            thread.execute(task);
        } catch (RejectedExecutionException e) {
            // closing: every socket is being closed
        }
    }

    private void checkUpgrade(Context ctx) throws IOException {
        if (!access.devApi()) {
            byte[] body = ("{\"error\":{\"code\":\"forbidden\",\"message\":\"The dev API is off: the server listens"
                    + " on a non-loopback address (start it with --dev-api on to allow it)\"}}")
                    .getBytes(StandardCharsets.UTF_8);
            ctx.res().setStatus(403);
            ctx.res().setContentType("application/json");
            ctx.res().setContentLength(body.length);
            ctx.res().getOutputStream().write(body);
            ctx.res().flushBuffer();
            ctx.skipRemainingHandlers();
        } else if (!"4".equals(ctx.queryParam("EIO")) || !"websocket".equals(ctx.queryParam("transport"))) {
            ctx.res().setStatus(400);
            ctx.res().setContentType("application/json");
            ctx.res().getOutputStream().write("{\"code\":3,\"message\":\"Bad request\"}"
                    .getBytes(StandardCharsets.UTF_8));
            ctx.res().flushBuffer();
            ctx.skipRemainingHandlers();
        }
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One console's WebSocket: its tenant once connected, and its queue of frames with one write in flight. */
    private static final class DevSocket {
        private final WsContext ctx;
        private final java.util.ArrayDeque<String> queue = new java.util.ArrayDeque<>();
        private boolean writing;
        volatile String tenantId;
        volatile boolean ponged = true;
        volatile int pings;

        DevSocket(WsContext ctx) {
            this.ctx = ctx;
        }

        void send(String frame) {
            boolean overflow = false;
            synchronized (this) {
                if (queue.size() >= QUEUE_LIMIT) {
                    queue.clear();
                    writing = true; // nothing more is written: the socket is going
                    overflow = true;
                } else {
                    queue.addLast(frame);
                    if (writing) {
                        return;
                    }
                    writing = true;
                }
            }
            if (overflow) {
                close(); // outside the monitor: Jetty's close takes its own locks
            } else {
                writeNext();
            }
        }

        private void writeNext() {
            String frame;
            synchronized (this) {
                frame = queue.pollFirst();
                if (frame == null) {
                    writing = false;
                    return;
                }
            }
            try {
                ctx.session.getRemote().sendString(frame, new org.eclipse.jetty.websocket.api.WriteCallback() {
                    @Override
                    public void writeFailed(Throwable x) {
                        close();
                    }

                    @Override
                    public void writeSuccess() {
                        writeNext();
                    }
                });
            } catch (RuntimeException e) {
                close();
            }
        }

        void close() {
            if (ctx.session.isOpen()) {
                ctx.session.disconnect();
            }
        }
    }
}
