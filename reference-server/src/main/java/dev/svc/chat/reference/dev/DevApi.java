package dev.svc.chat.reference.dev;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.auth.RandomIds;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.gateway.Gateway;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.User;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.MessageActions;
import dev.svc.chat.reference.store.PageRequest;
import dev.svc.chat.reference.store.Store;
import dev.svc.chat.reference.store.TenantRecord;
import dev.svc.chat.reference.webhook.WebhookDispatcher;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The dev API under {@code /v1/dev/} (docs/console.md): what a tenant has and who is connected, its request
 * log, and actions a developer needs to try an app (send as a user, expire sessions, cut connections, inject
 * faults, mint tokens, export and import). API key only; every route reads and changes the key's tenant only.
 * When the dev API is off, every route answers 403.
 */
public final class DevApi {

    private static final Set<Integer> FAULT_STATUSES = Set.of(429, 500, 502, 503, 504);
    /** The longest latency a fault may add: longer ones would only tie up the server's threads. */
    private static final long MAX_LATENCY_MS = 30_000;

    private final DevAccess access;
    private final Store store;
    private final ObjectMapper mapper;
    private final SessionTokens tokens;
    private final ChatService service;
    private final MessageActions actions;
    private final Gateway gateway;
    private final DevTools tools;
    private final WebhookDispatcher webhooks;
    private final Clock clock;

    /** Creates the routes' handlers; nothing is served until {@link #install}. */
    public DevApi(DevAccess access, Store store, ObjectMapper mapper, SessionTokens tokens, ChatService service,
                  MessageActions actions, Gateway gateway, DevTools tools, WebhookDispatcher webhooks,
                  Clock clock) {
        this.access = access;
        this.store = store;
        this.mapper = mapper;
        this.tokens = tokens;
        this.service = service;
        this.actions = actions;
        this.gateway = gateway;
        this.tools = tools;
        this.webhooks = webhooks;
        this.clock = clock;
    }

    /** Installs the routes on {@code app}; errors go through the server's error mapping. */
    public void install(Javalin app) {
        app.get("/v1/dev/state", ctx -> json(ctx, new DevState(store, gateway, tools.faults(), tools.drops())
                .of(tenant(ctx).id())));
        app.get("/v1/dev/rooms/{roomId}/messages", this::tail);
        app.post("/v1/dev/rooms/{roomId}/messages", this::sendAs);
        app.patch("/v1/dev/rooms/{roomId}/messages/{messageId}", this::editAs);
        app.delete("/v1/dev/rooms/{roomId}/messages/{messageId}", this::deleteAs);
        app.post("/v1/dev/rooms", this::createRoom);
        app.post("/v1/dev/users", this::createUser);
        app.post("/v1/dev/users/{userId}/expire-sessions", this::expireSessions);
        app.post("/v1/dev/users/{userId}/disconnect", this::disconnect);
        app.post("/v1/dev/tokens", this::mint);
        app.get("/v1/dev/faults", ctx -> {
            String tenantId = tenant(ctx).id();
            json(ctx, Map.of("faults", tools.faults().list(tenantId), "fanOutDrops", tools.drops().list(tenantId)));
        });
        app.post("/v1/dev/faults", this::addFault);
        app.delete("/v1/dev/faults", ctx -> {
            String tenantId = tenant(ctx).id();
            tools.faults().clear(tenantId);
            tools.drops().clear(tenantId);
            json(ctx, Map.of("faults", List.of(), "fanOutDrops", List.of()));
        });
        app.post("/v1/dev/users/{userId}/drop-fanout", this::dropFanOut);
        app.get("/v1/dev/webhooks", ctx -> json(ctx, Map.of("deliveries", tools.webhooks().latest(tenant(ctx).id(),
                intParam(ctx, "limit", 100, 1, DevWebhookLog.CAPACITY)))));
        app.post("/v1/dev/webhooks/{webhookId}/redeliver", this::redeliver);
        app.get("/v1/dev/requests", this::requests);
        app.get("/v1/dev/export", ctx -> json(ctx, tools.snapshot().export(tenant(ctx).id())));
        app.post("/v1/dev/import", this::importSnapshot);
    }

    private TenantRecord tenant(Context ctx) {
        return DevKey.tenant(access, store, ctx);
    }

    private void tail(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        Room room = service.room(tenant.id(), ctx.pathParam("roomId"));
        int limit = intParam(ctx, "limit", Inputs.DEFAULT_PAGE, 1, Inputs.MAX_PAGE);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("room", DevState.room(room));
        answer.put("messages", store.messages(tenant.id(), room.id(), new PageRequest(limit, null, null)).messages());
        answer.put("receipts", store.receipts(tenant.id(), room.id()));
        answer.put("call", store.liveCall(tenant.id(), room.id()).map(c -> c.call()).orElse(null));
        json(ctx, answer);
    }

    private void sendAs(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        DevBody body = DevBody.read(ctx, mapper);
        String userId = body.userId("userId");
        String clientMessageId = body.optionalText("clientMessageId", Inputs.MAX_CLIENT_MESSAGE_ID);
        ChatService.SendResult sent = service.send(new Principal(tenant, userId, null), ctx.pathParam("roomId"),
                userId, clientMessageId != null ? clientMessageId : "dev-" + RandomIds.base62(16),
                body.parts(mapper));
        json(ctx, sent.created() ? 201 : 200, sent.message());
    }

    private void editAs(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        DevBody body = DevBody.read(ctx, mapper);
        String userId = body.userId("userId");
        json(ctx, 200, actions.update(new Principal(tenant, userId, null), ctx.pathParam("roomId"),
                ctx.pathParam("messageId"), body.parts(mapper)));
    }

    private void deleteAs(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        String userId = DevBody.read(ctx, mapper).userId("userId");
        json(ctx, 200, actions.delete(new Principal(tenant, userId, null), ctx.pathParam("roomId"),
                ctx.pathParam("messageId")));
    }

    private void createRoom(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        DevBody body = DevBody.read(ctx, mapper);
        String name = body.optionalText("name", Inputs.MAX_ROOM_NAME);
        JsonNode members = body.root().path("members");
        if (!members.isArray() || members.isEmpty()) {
            throw ApiException.badRequest("members must be a non-empty array of userIds");
        }
        List<String> ids = new java.util.ArrayList<>();
        members.forEach(m -> ids.add(Inputs.userId(m.asText(null), "members")));
        json(ctx, 201, DevState.room(service.createRoom(tenant.id(), name, ids)));
    }

    private void createUser(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        DevBody body = DevBody.read(ctx, mapper);
        User user = service.upsertUser(tenant.id(), body.userId("userId"),
                body.optionalText("username", Inputs.MAX_USERNAME));
        json(ctx, 200, user);
    }

    private void expireSessions(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        String userId = Inputs.userId(ctx.pathParam("userId"), "userId");
        // The tokens first: a socket that reconnects at once must be refused with its old token.
        tokens.expireSessions(tenant.id(), userId);
        json(ctx, 200, Map.of("userId", userId, "connections", gateway.expireSessions(tenant.id(), userId)));
    }

    private void disconnect(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        String userId = Inputs.userId(ctx.pathParam("userId"), "userId");
        json(ctx, 200, Map.of("userId", userId, "connections", gateway.disconnect(tenant.id(), userId)));
    }

    private void mint(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        DevBody body = DevBody.read(ctx, mapper);
        String userId = body.userId("userId");
        Long expiresIn = body.optionalLong("expiresIn", Inputs.MIN_EXPIRES_IN, Inputs.MAX_EXPIRES_IN);
        User user = service.userForMint(tenant.id(), userId, null);
        SessionTokens.Minted minted = tokens.mint(tenant, userId, user.username(),
                expiresIn != null ? expiresIn.intValue() : Inputs.DEFAULT_EXPIRES_IN);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("userId", userId);
        answer.put("token", minted.token());
        answer.put("expiresAt", minted.expiresAt());
        json(ctx, 200, answer);
    }

    private void addFault(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        DevBody body = DevBody.read(ctx, mapper);
        Long status = body.optionalLong("status", 100, 599);
        Long latency = body.optionalLong("latencyMs", 1, MAX_LATENCY_MS);
        if (status == null && latency == null) {
            throw ApiException.badRequest("a fault needs a status, a latencyMs, or both");
        }
        if (status != null && !FAULT_STATUSES.contains(status.intValue())) {
            throw ApiException.badRequest("status must be one of " + new java.util.TreeSet<>(FAULT_STATUSES));
        }
        Long count = body.optionalLong("count", 1, 1_000_000);
        Long seconds = body.optionalLong("durationSeconds", 1, 86_400);
        Long retryAfter = body.optionalLong("retryAfterSeconds", 0, 86_400);
        String prefix = body.optionalText("routePrefix", 200);
        if (prefix == null) {
            prefix = "/v1/";
        } else if (!prefix.startsWith("/v1/") || prefix.startsWith("/v1/dev/")) {
            throw ApiException.badRequest("routePrefix must start with /v1/ and not be under /v1/dev/");
        }
        int code = status != null ? status.intValue() : 0;
        DevFaults.Fault fault = tools.faults().add(tenant.id(), code, latency != null ? latency : 0,
                retryAfter != null ? retryAfter : code == 429 ? 1 : 0,
                count == null && seconds == null ? Long.valueOf(1) : count,
                seconds != null ? clock.instant().plus(Duration.ofSeconds(seconds)) : null, prefix);
        json(ctx, 201, fault);
    }

    private void dropFanOut(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        String userId = Inputs.userId(ctx.pathParam("userId"), "userId");
        DevBody body = DevBody.read(ctx, mapper);
        Long count = body.optionalLong("count", 1, 1_000_000);
        Long seconds = body.optionalLong("durationSeconds", 1, 86_400);
        json(ctx, 201, tools.drops().add(tenant.id(), userId, count == null && seconds == null ? Long.valueOf(1) : count,
                seconds != null ? clock.instant().plus(Duration.ofSeconds(seconds)) : null));
    }

    private void redeliver(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        String id = ctx.pathParam("webhookId");
        DevWebhookLog.Stored stored = tools.webhooks().stored(tenant.id(), id);
        if (stored == null) {
            throw ApiException.notFound("No such webhook delivery");
        }
        String status = tools.webhooks().status(tenant.id(), id);
        if ("pending".equals(status) || "retrying".equals(status)) {
            throw ApiException.conflict("The delivery is still being attempted");
        }
        if (!webhooks.redeliver(tenant.id(), id, stored.type(), stored.body())) {
            throw ApiException.conflict("The tenant has no webhookUrl");
        }
        json(ctx, 202, Map.of("id", id, "status", "pending"));
    }

    private void requests(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        int limit = intParam(ctx, "limit", 100, 1, DevRequestLog.CAPACITY);
        json(ctx, Map.of("requests", tools.requestLog().latest(tenant.id(), limit)));
    }

    private void importSnapshot(Context ctx) {
        TenantRecord tenant = tenant(ctx);
        JsonNode root = DevBody.read(ctx, mapper).root();
        DevSnapshot.checkFormat(root);
        JsonNode chosen = null;
        JsonNode tenants = root.get("tenants");
        if (tenants.size() == 1) {
            chosen = tenants.get(0);
        } else {
            for (JsonNode t : tenants) {
                if (tenant.id().equals(t.path("id").asText())) {
                    chosen = t;
                }
            }
        }
        if (chosen == null) {
            throw ApiException.badRequest("the snapshot must hold one tenant, or one with this key's tenant id");
        }
        json(ctx, 200, tools.importer().load(tenant.id(), chosen));
    }

    private static int intParam(Context ctx, String name, int otherwise, int min, int max) {
        String value = ctx.queryParam(name);
        if (value == null) {
            return otherwise;
        }
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the 400
        }
        throw ApiException.badRequest(name + " must be a whole number from " + min + " to " + max);
    }

    private void json(Context ctx, Object body) {
        json(ctx, 200, body);
    }

    private void json(Context ctx, int status, Object body) {
        try {
            ctx.status(status).contentType("application/json").header("Cache-Control", "no-store")
                    .result(mapper.writeValueAsBytes(body));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize the answer", e);
        }
    }
}
