package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.gateway.SendPacing;
import dev.svc.chat.reference.service.ActingUser;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.SendInput;
import dev.svc.chat.reference.store.PageRequest;
import io.javalin.http.Context;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The session-token routes of rooms and messages: list rooms, read history and changes, send. */
final class MessageHandler {

    private final Credentials credentials;
    private final ObjectMapper mapper;
    private final Responses responses;
    private final ChatService service;
    private final SendPacing pacing;

    MessageHandler(Credentials credentials, ObjectMapper mapper, Responses responses, ChatService service,
                   SendPacing pacing) {
        this.credentials = credentials;
        this.mapper = mapper;
        this.responses = responses;
        this.service = service;
        this.pacing = pacing;
    }

    void listRooms(Context ctx) {
        Principal principal = credentials.session(ctx);
        responses.json(ctx, 200, Map.of("rooms", service.roomsOf(principal)));
    }

    void history(Context ctx) {
        Principal principal = credentials.session(ctx);
        Long limit = number(ctx, "limit");
        Long before = number(ctx, "before");
        Long after = number(ctx, "after");
        if (limit != null && (limit < 1 || limit > Inputs.MAX_PAGE)) {
            throw ApiException.badRequest("limit must be from 1 to " + Inputs.MAX_PAGE);
        }
        if (before != null && after != null) {
            throw ApiException.badRequest("before and after cannot be combined");
        }
        PageRequest page = new PageRequest(limit != null ? limit.intValue() : Inputs.DEFAULT_PAGE, before, after);
        responses.json(ctx, 200, service.messages(principal, ctx.pathParam("roomId"), page));
    }

    void changes(Context ctx) {
        Principal principal = credentials.session(ctx);
        Long since = number(ctx, "since");
        Long limit = number(ctx, "limit");
        if (since == null) {
            throw ApiException.badRequest("since is required: the last rev the client has (0 for all)");
        }
        if (limit != null && (limit < 1 || limit > Inputs.MAX_PAGE)) {
            throw ApiException.badRequest("limit must be from 1 to " + Inputs.MAX_PAGE);
        }
        int size = limit != null ? limit.intValue() : Inputs.DEFAULT_CHANGES_PAGE;
        responses.json(ctx, 200, service.changes(principal, ctx.pathParam("roomId"), since, size));
    }

    void send(Context ctx) {
        Principal principal = credentials.session(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        String roomId = ctx.pathParam("roomId");
        SendInput input = SendInput.read(body::get);
        ActingUser.require(principal, body::get, () -> service.room(principal.tenantId(), roomId));
        ChatService.SendResult result = service.send(principal, roomId, input);
        // Stored and fanned out already; while the room's connections are behind, the answer waits for them
        // (asynchronously, bounded: docs/server.md, "Send pacing").
        CompletableFuture<Void> paced = pacing.whenRoomKeepsUp(principal.tenantId(), roomId);
        if (paced.isDone()) {
            answer(ctx, result);
        } else {
            ctx.future(() -> paced.thenRun(() -> answer(ctx, result)));
        }
    }

    /** Answers a send: the message's encoding made for its event when there is one (a new message). */
    private void answer(Context ctx, ChatService.SendResult result) {
        int status = result.created() ? 201 : 200;
        if (result.json() != null) {
            responses.json(ctx, status, result.json());
        } else {
            responses.json(ctx, status, result.message());
        }
    }

    /** Returns a non-negative integer query parameter, null when absent or empty, else throws 400. */
    private static Long number(Context ctx, String name) {
        return Inputs.queryNumber(ctx.queryParam(name), name);
    }
}
