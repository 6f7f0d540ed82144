package dev.svc.chat.reference.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.ApiException;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.Inputs;
import dev.svc.chat.reference.service.StrictJson;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The events a client emits, each answered with an acknowledgement {@code {ok: true, ...}} or, through
 * {@link ApiException}, {@code {ok: false, error: {code, message}}}.
 */
final class ClientEvents {

    private final ChatService service;
    private final FanOut fanOut;

    ClientEvents(ChatService service, FanOut fanOut) {
        this.service = service;
        this.fanOut = fanOut;
    }

    /** Handles event {@code name} with first argument {@code arg} and returns the success ack payload. */
    Map<String, Object> handle(GatewayConnection connection, Principal principal, String name, JsonNode arg) {
        // As strict as REST: a lone surrogate or a NUL anywhere in the event is bad_request.
        StrictJson.requireWellFormed(name, "event name");
        StrictJson.requireWellFormedText(arg, "payload");
        switch (name) {
            case "join-room": {
                Room room = service.roomForJoin(principal, roomId(arg));
                connection.join(room.id());
                if (!principal.isApiKey()
                        && !service.room(principal.tenantId(), room.id()).hasMember(principal.userId())) {
                    // Removed while joining: the removal may have missed this connection's index entry.
                    connection.leave(room.id());
                    throw ApiException.forbidden("Not a member of this room");
                }
                Map<String, Object> ack = ok();
                ack.put("room", room);
                return ack;
            }
            case "leave-room":
                connection.leave(roomId(arg));
                return ok();
            case "typing":
                typing(connection, principal, arg);
                return ok();
            default:
                throw ApiException.badRequest("Unknown event: " + name);
        }
    }

    /**
     * Relays a typing indicator of the connection's joined room; another room is {@code bad_request}. An
     * API-key connection is nobody, so it cannot type ({@code forbidden}).
     */
    private void typing(GatewayConnection connection, Principal principal, JsonNode arg) {
        String roomId = roomId(arg);
        JsonNode isTyping = arg.get("isTyping");
        if (isTyping == null || !isTyping.isBoolean()) {
            throw ApiException.badRequest("isTyping is required and must be a boolean");
        }
        if (!roomId.equals(connection.joinedRoomId())) {
            throw ApiException.badRequest("typing applies only to the joined room; join " + roomId + " first");
        }
        if (principal.isApiKey()) {
            throw ApiException.forbidden("An API-key connection is nobody and cannot type");
        }
        fanOut.typing(principal.tenantId(), roomId, principal.userId(), isTyping.booleanValue());
    }

    /** Returns the failure ack payload of {@code e}. */
    static Map<String, Object> error(ApiException e) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", e.code());
        error.put("message", e.getMessage());
        Map<String, Object> ack = new LinkedHashMap<>();
        ack.put("ok", false);
        ack.put("error", error);
        return ack;
    }

    private static Map<String, Object> ok() {
        Map<String, Object> ack = new LinkedHashMap<>();
        ack.put("ok", true);
        return ack;
    }

    private static String roomId(JsonNode arg) {
        JsonNode roomId = arg != null && arg.isObject() ? arg.get("roomId") : null;
        if (roomId == null || !roomId.isTextual() || roomId.textValue().isEmpty()) {
            throw ApiException.badRequest("roomId is required and must be a string");
        }
        return Inputs.id(roomId.textValue(), "roomId");
    }
}
