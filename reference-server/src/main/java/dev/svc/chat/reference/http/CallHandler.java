package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.service.ActingUser;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.service.CallService;
import io.javalin.http.Context;

/** The session-token call routes: start, accept, decline, end, and the room's active call. */
final class CallHandler {

    private final Credentials credentials;
    private final ObjectMapper mapper;
    private final Responses responses;
    private final CallService calls;

    CallHandler(Credentials credentials, ObjectMapper mapper, Responses responses, CallService calls) {
        this.credentials = credentials;
        this.mapper = mapper;
        this.responses = responses;
        this.calls = calls;
    }

    void start(Context ctx) {
        Principal principal = credentials.session(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        String kind = body.optionalString("kind");
        if (!"audio".equals(kind) && !"video".equals(kind)) {
            throw ApiException.badRequest("kind is required and must be audio or video");
        }
        ActingUser.require(principal, body::get,
                () -> calls.requireRoom(principal.tenantId(), ctx.pathParam("roomId")));
        responses.json(ctx, 201, calls.start(principal, ctx.pathParam("roomId"), kind));
    }

    void accept(Context ctx) {
        responses.json(ctx, 200, calls.accept(credentials.session(ctx), ctx.pathParam("callId")));
    }

    void decline(Context ctx) {
        responses.json(ctx, 200, calls.decline(credentials.session(ctx), ctx.pathParam("callId")));
    }

    void end(Context ctx) {
        responses.json(ctx, 200, calls.end(credentials.session(ctx), ctx.pathParam("callId")));
    }

    void active(Context ctx) {
        responses.json(ctx, 200, calls.active(credentials.session(ctx), ctx.pathParam("roomId")));
    }
}
