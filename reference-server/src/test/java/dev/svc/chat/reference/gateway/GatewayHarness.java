package dev.svc.chat.reference.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.auth.RandomIds;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.model.Json;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.MessageActions;
import dev.svc.chat.reference.service.SendRateLimiter;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.Store;
import dev.svc.chat.reference.store.TenantRecord;
import io.javalin.Javalin;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * A gateway on its own Javalin server over an in-memory store (or a store a test gives it, which it closes),
 * with its {@link FanOut} in reach, so that a test of this package can install a {@link FanOutSeam}. Listens on
 * a free loopback port.
 */
final class GatewayHarness implements AutoCloseable {

    static final String TENANT = "t";

    private final TenantRecord tenant = new TenantRecord(TENANT, "sk_test_harness", RandomIds.bytes(32));
    private final Store store;
    private final Clock clock = Clock.systemUTC();
    private final SessionTokens tokens;
    private final MessageActions actions;
    private final FanOut fanOut;
    private final ChatService service;
    private final Gateway gateway;
    private final Javalin app;

    /** A gateway that pings every {@code pingInterval} (the pong deadline is long). */
    GatewayHarness(Duration pingInterval) {
        this(pingInterval, Duration.ofSeconds(5));
    }

    /** As above, its fan-out reported stuck after {@code stallThreshold} without progress. */
    GatewayHarness(Duration pingInterval, Duration stallThreshold) {
        this(pingInterval, stallThreshold, new InMemoryStore());
    }

    /** As above, over {@code store} (closed with the harness). */
    GatewayHarness(Duration pingInterval, Duration stallThreshold, Store store) {
        this.store = store;
        this.tokens = new SessionTokens(store, clock);
        ObjectMapper mapper = Json.newMapper();
        store.createTenant(tenant, TenantSettings.defaults(true));
        fanOut = Gateway.newFanOut(mapper, Duration.ofMillis(50), stallThreshold);
        service = new ChatService(store, clock, new SendRateLimiter(clock, 10_000, 10_000), fanOut);
        actions = new MessageActions(store, service, fanOut, fanOut);
        gateway = new Gateway(new GatewayConfig(pingInterval, Duration.ofSeconds(60), Duration.ofSeconds(60),
                GatewayConfig.DEFAULT_MAX_PAYLOAD, GatewayConfig.DEFAULT_OUTBOUND_LIMIT,
                GatewayConfig.DEFAULT_OUTBOUND_BYTES, false), mapper, clock, store, tokens, fanOut, service);
        app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.startupWatcherEnabled = false;
            config.jetty.modifyWebSocketServletFactory(gateway::configure);
        });
        gateway.install(app);
        app.start("127.0.0.1", 0);
    }

    FanOut fanOut() {
        return fanOut;
    }

    Gateway gateway() {
        return gateway;
    }

    String socketUrl() {
        return "ws://127.0.0.1:" + app.port() + Gateway.PATH + "?EIO=4&transport=websocket";
    }

    /** Returns a token of {@code userId}, valid for an hour. */
    String token(String userId) {
        service.userForMint(TENANT, userId, null);
        return tokens.mint(tenant, userId, null, 3600).token();
    }

    /** Creates a room of these members; returns its id. */
    String room(String... members) {
        Room room = service.createRoom(TENANT, "room", List.of(members));
        return room.id();
    }

    /** Stores and publishes a text message of {@code userId}, as a REST send does; returns it. */
    Message send(String userId, String roomId, String clientMessageId) {
        Principal sender = tokens.verify(token(userId));
        return service.send(sender, roomId, null, clientMessageId, text(clientMessageId)).message();
    }

    /** Edits a message of {@code userId} to {@code text}, as a REST edit does; returns the stored version. */
    Message edit(String userId, String roomId, String messageId, String text) {
        return actions.update(tokens.verify(token(userId)), roomId, messageId, text(text));
    }

    private static List<JsonNode> text(String text) {
        return List.of(Json.newMapper().createObjectNode().put("type", "text").put("text", text));
    }

    @Override
    public void close() {
        gateway.close();
        app.stop();
        store.close();
    }
}
