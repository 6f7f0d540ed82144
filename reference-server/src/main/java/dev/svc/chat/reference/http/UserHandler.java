package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.service.ChatService;
import io.javalin.http.Context;

/** {@code POST /v1/users} (upsert) and {@code GET /v1/users/{userId}}, API key only. */
final class UserHandler {

    private final Credentials credentials;
    private final ObjectMapper mapper;
    private final Responses responses;
    private final ChatService service;

    UserHandler(Credentials credentials, ObjectMapper mapper, Responses responses, ChatService service) {
        this.credentials = credentials;
        this.mapper = mapper;
        this.responses = responses;
        this.service = service;
    }

    void upsert(Context ctx) {
        Principal principal = credentials.apiKey(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        String userId = body.requiredUserId("userId");
        String username = body.optionalText("username", Inputs.MAX_USERNAME);
        responses.json(ctx, 200, service.upsertUser(principal.tenantId(), userId, username));
    }

    void get(Context ctx) {
        Principal principal = credentials.apiKey(ctx);
        String userId = Inputs.userId(ctx.pathParam("userId"), "userId");
        responses.json(ctx, 200, service.user(principal.tenantId(), userId));
    }
}
