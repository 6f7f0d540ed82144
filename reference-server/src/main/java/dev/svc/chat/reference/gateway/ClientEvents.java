package dev.svc.chat.reference.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.JsonText;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.ActingUser;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.SendInput;
import dev.svc.chat.reference.service.StrictJson;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events a client emits, each answered with an acknowledgement {@code {ok: true, ...}} or, through
 * {@link ApiException}, {@code {ok: false, error: {code, message}}}.
 */
final class ClientEvents {

    private static final Logger LOG = LoggerFactory.getLogger(ClientEvents.class);

    private final ChatService service;
    private final FanOut fanOut;
    private final ObjectMapper mapper;

    ClientEvents(ChatService service, FanOut fanOut, ObjectMapper mapper) {
        this.service = service;
        this.fanOut = fanOut;
        this.mapper = mapper;
    }

    /** Handles event {@code name} with first argument {@code arg} and returns the success ack payload. */
    Map<String, Object> handle(GatewayConnection connection, Principal principal, String name, JsonNode arg) {
        // As strict as REST: a lone surrogate or a NUL anywhere in the event is bad_request.
        StrictJson.requireWellFormed(name, "event name");
        StrictJson.requireWellFormedText(arg, "payload");
        ActingUser.require(principal, field -> SendInput.field(arg, field));
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
            case "send-message":
                return sendMessage(connection.sendBlocks(), principal, arg);
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

    /**
     * The {@code send-message} event, specified once in docs/protocol.md, section "Extension: sends over the
     * socket" (the SDK's side, its {@code SendRoute}, cites the same section): REST {@code sendMessage} as an
     * event, through the same service call ({@link ChatService#send}), handled in the order the connection's
     * events arrive (each one stored before the next is read), with the order guard of {@link SendBlocks}.
     * Token connections only: an API-key connection is nobody ({@code forbidden}).
     */
    private Map<String, Object> sendMessage(SendBlocks blocks, Principal principal, JsonNode arg) {
        if (principal.isApiKey()) {
            throw ApiException.forbidden("An API-key connection is nobody and cannot send; use REST");
        }
        String roomId = roomId(arg);
        if (bytes(arg) > Inputs.MAX_BODY_BYTES) {
            throw ApiException.payloadTooLarge(Inputs.MAX_BODY_BYTES);
        }
        SendInput input = SendInput.read(field -> SendInput.field(arg, field));
        blocks.check(principal.userId(), roomId, input.clientMessageId());
        ChatService.SendResult result;
        try {
            result = service.send(principal, roomId, input);
        } catch (ApiException e) {
            blocks.refused(principal.userId(), roomId, input.clientMessageId(), e);
            throw e;
        } catch (RuntimeException e) {
            LOG.error("send-message failed", e);
            ApiException internal = ApiException.internal();
            blocks.refused(principal.userId(), roomId, input.clientMessageId(), internal);
            throw internal;
        }
        Map<String, Object> ack = ok();
        // The new message's encoding made for its event, written as it is (no second encoding).
        ack.put("message", result.json() != null ? new JsonText(result.json()) : result.message());
        return ack;
    }

    /**
     * Returns the size of {@code arg} encoded as UTF-8 JSON, the measure of a REST body's 64 KiB limit; encoded
     * only when a cheap upper bound (every character escaped to 6 bytes) does not already show it fits.
     */
    private long bytes(JsonNode arg) {
        if (upperBound(arg) <= Inputs.MAX_BODY_BYTES) {
            return 0;
        }
        try {
            return mapper.writeValueAsBytes(arg).length;
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("The payload cannot be encoded");
        }
    }

    /** Returns at least the UTF-8 JSON size of {@code node}: strings as if every char were escaped. */
    private static long upperBound(JsonNode node) {
        if (node.isTextual()) {
            return 2 + 6L * node.textValue().length();
        }
        if (!node.isContainerNode()) {
            return 2 + node.asText().length(); // a number, boolean or null as written
        }
        long size = 2;
        var fields = node.fields();
        if (node.isObject()) {
            while (fields.hasNext()) {
                var field = fields.next();
                size += 4 + 6L * field.getKey().length() + upperBound(field.getValue());
            }
        } else {
            for (JsonNode item : node) {
                size += 1 + upperBound(item);
            }
        }
        return size;
    }

    /** Returns the failure ack payload of {@code e}. */
    static Map<String, Object> error(ApiException e) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", e.code());
        error.put("message", e.getMessage());
        if (e.retryAfterSeconds() > 0) {
            error.put("retryAfter", e.retryAfterSeconds()); // what REST says with Retry-After
        }
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
