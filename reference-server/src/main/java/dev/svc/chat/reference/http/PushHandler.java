package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.service.ActingUser;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.service.PushService;
import io.javalin.http.Context;
import java.util.Map;

/**
 * Push: device registration with a session token, and the push outbox for the tenant backend (API key):
 * {@code GET /v1/push/outbox?userId=} lists what the server would have sent, {@code DELETE} empties it.
 */
final class PushHandler {

    private final Credentials credentials;
    private final ObjectMapper mapper;
    private final Responses responses;
    private final PushService push;

    PushHandler(Credentials credentials, ObjectMapper mapper, Responses responses, PushService push) {
        this.credentials = credentials;
        this.mapper = mapper;
        this.responses = responses;
        this.push = push;
    }

    void register(Context ctx) {
        Principal principal = credentials.session(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        String token = body.optionalString("token");
        if (!PushService.isToken(token)) {
            throw ApiException.badRequest("token is required: 1 to 4096 of A-Z a-z 0-9 _ - . : + = ~");
        }
        String platform = body.optionalString("platform");
        if (!"fcm".equals(platform) && !"apns".equals(platform)) {
            throw ApiException.badRequest("platform is required and must be fcm or apns");
        }
        ActingUser.require(principal, body::get);
        responses.json(ctx, 201, push.register(principal, token, platform));
    }

    void unregister(Context ctx) {
        Principal principal = credentials.session(ctx);
        String token = ctx.pathParam("token");
        if (!PushService.isToken(token)) {
            throw ApiException.badRequest("malformed device token");
        }
        push.unregister(principal, token);
        ctx.status(204);
    }

    void outbox(Context ctx) {
        Principal principal = credentials.apiKey(ctx);
        String userId = ctx.queryParam("userId");
        if (userId != null && userId.isEmpty()) {
            userId = null;
        }
        if (userId != null) {
            Inputs.userId(userId, "userId");
        }
        responses.json(ctx, 200, Map.of("pushes", push.outbox(principal.tenantId(), userId)));
    }

    void clearOutbox(Context ctx) {
        Principal principal = credentials.apiKey(ctx);
        push.clearOutbox(principal.tenantId());
        ctx.status(204);
    }
}
