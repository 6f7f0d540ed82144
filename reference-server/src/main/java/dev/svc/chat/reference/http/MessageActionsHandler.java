package dev.svc.chat.reference.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.service.ActingUser;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.service.MessageActions;
import dev.svc.chat.reference.service.MessageParts;
import dev.svc.chat.reference.service.ThreadRules;
import io.javalin.http.Context;
import java.util.List;
import java.util.Map;

/**
 * The session-token routes that act on sent messages: edit, delete, react, mark read; the room's receipts;
 * and presence.
 */
final class MessageActionsHandler {

    private final Credentials credentials;
    private final ObjectMapper mapper;
    private final Responses responses;
    private final MessageActions actions;

    MessageActionsHandler(Credentials credentials, ObjectMapper mapper, Responses responses, MessageActions actions) {
        this.credentials = credentials;
        this.mapper = mapper;
        this.responses = responses;
        this.actions = actions;
    }

    void update(Context ctx) {
        Principal principal = credentials.session(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        List<JsonNode> parts = MessageParts.validate(body.get("parts"));
        List<String> mentions = ThreadRules.mentions(body.get("mentions"));
        ActingUser.require(principal, body::get,
                () -> actions.requireRoom(principal.tenantId(), ctx.pathParam("roomId")));
        responses.json(ctx, 200, actions.update(principal, ctx.pathParam("roomId"), ctx.pathParam("messageId"),
                parts, mentions));
    }

    void get(Context ctx) {
        Principal principal = credentials.session(ctx);
        responses.json(ctx, 200, actions.message(principal, ctx.pathParam("roomId"), ctx.pathParam("messageId")));
    }

    void delete(Context ctx) {
        Principal principal = credentials.session(ctx);
        responses.json(ctx, 200, actions.delete(principal, ctx.pathParam("roomId"), ctx.pathParam("messageId")));
    }

    void react(Context ctx) {
        Principal principal = credentials.session(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        String emoji = emoji(body.requiredText("emoji", Inputs.MAX_EMOJI));
        ActingUser.require(principal, body::get,
                () -> actions.requireRoom(principal.tenantId(), ctx.pathParam("roomId")));
        responses.json(ctx, 200, actions.toggleReaction(principal, ctx.pathParam("roomId"),
                ctx.pathParam("messageId"), emoji));
    }

    void read(Context ctx) {
        Principal principal = credentials.session(ctx);
        JsonBody body = JsonBody.read(ctx, mapper);
        String messageId = body.requiredId("messageId", 64);
        ActingUser.require(principal, body::get,
                () -> actions.requireRoom(principal.tenantId(), ctx.pathParam("roomId")));
        responses.json(ctx, 200, actions.markRead(principal, ctx.pathParam("roomId"), messageId));
    }

    void receipts(Context ctx) {
        Principal principal = credentials.session(ctx);
        responses.json(ctx, 200, Map.of("receipts", actions.receipts(principal, ctx.pathParam("roomId"))));
    }

    void presence(Context ctx) {
        Principal principal = credentials.session(ctx);
        responses.json(ctx, 200, Map.of("online", actions.onlineUsers(principal)));
    }

    /** Refuses whitespace and control characters: a reaction is a symbol, not text. */
    private static String emoji(String emoji) {
        for (int i = 0; i < emoji.length(); ) {
            int cp = emoji.codePointAt(i);
            if (Character.isWhitespace(cp) || Character.isISOControl(cp)) {
                throw ApiException.badRequest("emoji must not contain whitespace or control characters");
            }
            i += Character.charCount(cp);
        }
        return emoji;
    }
}
