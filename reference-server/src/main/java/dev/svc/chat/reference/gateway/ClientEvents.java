package dev.svc.chat.reference.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.ApiException;
import dev.svc.chat.reference.service.ChatService;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The events a client emits, each answered with an acknowledgement {@code {ok: true, ...}} or, through
 * {@link ApiException}, {@code {ok: false, error: {code, message}}}.
 */
final class ClientEvents {

    private final ChatService service;

    ClientEvents(ChatService service) {
        this.service = service;
    }

    /** Handles event {@code name} with first argument {@code arg} and returns the success ack payload. */
    Map<String, Object> handle(GatewayConnection connection, Principal principal, String name, JsonNode arg) {
        switch (name) {
            case "join-room": {
                Room room = service.roomForJoin(principal, roomId(arg));
                connection.join(room.id());
                Map<String, Object> ack = ok();
                ack.put("room", room);
                return ack;
            }
            case "leave-room":
                connection.leave(roomId(arg));
                return ok();
            default:
                throw ApiException.badRequest("Unknown event: " + name);
        }
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
        return roomId.textValue();
    }
}
