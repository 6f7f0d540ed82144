package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.service.ActingUser;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.SendInput;
import dev.svc.chat.reference.store.PageRequest;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The session-token routes of rooms and messages: list rooms, read history and changes, send. */
final class MessageHandler {

    private final Credentials credentials;
    private final ObjectMapper mapper;
    private final Responses responses;
    private final ChatService service;

    MessageHandler(Credentials credentials, ObjectMapper mapper, Responses responses, ChatService service) {
        this.credentials = credentials;
        this.mapper = mapper;
        this.responses = responses;
        this.service = service;
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
        String threadId = ctx.queryParam("threadId");
        threadId = threadId == null || threadId.isEmpty() ? null : threadId;
        boolean mainOnly = mainOnly(ctx.queryParam("mainOnly"));
        if (threadId != null && mainOnly) {
            throw ApiException.badRequest("threadId and mainOnly=true cannot be combined");
        }
        PageRequest page = new PageRequest(limit != null ? limit.intValue() : Inputs.DEFAULT_PAGE, before, after);
        responses.json(ctx, 200, service.messages(principal, ctx.pathParam("roomId"), page, threadId, mainOnly));
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
        Sent sent = accept(credentials.session(ctx), JsonBody.read(ctx, mapper), ctx.pathParam("roomId"));
        // Stored and handed to the fan-out already: answered at once, never held for the room's readers (a reader
        // that falls behind is cut at its queue's bound and recovers from history; docs/server.md, "Slow readers").
        answer(ctx, sent);
    }

    /**
     * Sends as {@code principal}, whose request's body and room are given (checked in the contract's order after
     * the credential): the message is stored and handed to the fan-out when this returns, its answer due at once.
     * Both {@link #send(Context)} and {@link SendRoute} answer a send through here.
     */
    Sent accept(Principal principal, JsonBody body, String roomId) {
        SendInput input = SendInput.read(body::get);
        ActingUser.require(principal, body::get, () -> service.room(principal.tenantId(), roomId));
        ChatService.SendResult result = service.send(principal, roomId, input);
        return new Sent(result.created() ? 201 : 200, answerJson(result));
    }

    /** A send stored and handed to the fan-out: its answer's status and body. */
    record Sent(int status, byte[] json) {
    }

    private void answer(Context ctx, Sent sent) {
        ctx.status(sent.status()).contentType("application/json").result(sent.json());
    }

    /** Returns a send's answer: the message's encoding made for its event when there is one (a new message). */
    private byte[] answerJson(ChatService.SendResult result) {
        return result.json() != null ? result.json().getBytes(StandardCharsets.UTF_8)
                : responses.json(result.message());
    }

    /** Returns the {@code mainOnly} query parameter: {@code true} or {@code false}, absent or empty false; else 400. */
    private static boolean mainOnly(String raw) {
        if (raw == null || raw.isEmpty() || raw.equals("false")) {
            return false;
        }
        if (raw.equals("true")) {
            return true;
        }
        throw ApiException.badRequest("mainOnly must be true or false");
    }

    /** Returns a non-negative integer query parameter, null when absent or empty, else throws 400. */
    private static Long number(Context ctx, String name) {
        return Inputs.queryNumber(ctx.queryParam(name), name);
    }
}
