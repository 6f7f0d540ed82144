package dev.svc.chat.reference.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.model.JsonText;
import dev.svc.chat.reference.model.RoomPosition;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Encodes the WebSocket text frames the server sends: Engine.IO packets with Socket.IO packets inside, one
 * packet per frame as socket.io v4 sends them over a WebSocket.
 */
final class Frames {

    /** Engine.IO ping. */
    static final OutFrame PING = OutFrame.of("2");
    /** Socket.IO DISCONNECT on the default namespace: the server ends the session. */
    static final OutFrame DISCONNECT = OutFrame.of("41");

    private final ObjectMapper mapper;
    /** {@link #eventHead} by event name; any thread encodes frames, so a concurrent map. */
    private final Map<String, String> eventHeads = new ConcurrentHashMap<>();

    Frames(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** Returns the Engine.IO open packet. */
    OutFrame open(String sid, long pingIntervalMs, long pingTimeoutMs, int maxPayload) {
        Map<String, Object> open = new LinkedHashMap<>();
        open.put("sid", sid);
        open.put("upgrades", List.of());
        open.put("pingInterval", pingIntervalMs);
        open.put("pingTimeout", pingTimeoutMs);
        open.put("maxPayload", maxPayload);
        return OutFrame.of("0" + json(open));
    }

    /**
     * Returns the CONNECT answer of an accepted handshake: the {@code sid} of Socket.IO; this server's
     * extensions, {@code "svc":{"sendMessage":true}} (the {@code send-message} event, docs/protocol.md); for a
     * session-token connection the positions of the user's rooms ({@code rooms}, null for an API-key connection:
     * the key is left out); and {@code at}, the service's time. Official clients ignore the extra keys.
     */
    OutFrame connected(String socketSid, List<RoomPosition> rooms, Instant at) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("sid", socketSid);
        answer.put("svc", Map.of("sendMessage", true));
        if (rooms != null) {
            answer.put("rooms", rooms);
        }
        answer.put("at", at);
        return OutFrame.of("40" + json(answer));
    }

    /** Returns a CONNECT_ERROR with the contract's {@code {message: code, data: {code}}}. */
    OutFrame connectError(String code) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("message", code);
        error.put("data", Map.of("code", code));
        return OutFrame.of("44" + json(error));
    }

    /** Returns the CONNECT_ERROR for a namespace this server does not have. */
    OutFrame invalidNamespace(String nsp) {
        return OutFrame.of("44" + nsp + "," + json(Map.of("message", "Invalid namespace")));
    }

    /** Returns an EVENT {@code 42["name",payload]}, encoded once for all its targets. */
    OutFrame event(String name, Object payload) {
        return eventOfJson(name, json(payload));
    }

    /**
     * Returns an EVENT whose payload is already encoded by this mapper ({@code payloadJson}): the same frame
     * as {@link #event} of the payload.
     */
    OutFrame eventOfJson(String name, String payloadJson) {
        String head = eventHead(name);
        return head == null ? OutFrame.of("42[" + json(name) + "," + payloadJson + "]")
                : OutFrame.of(head, payloadJson, "]");
    }

    /** Returns an ACK {@code 43<id>[payload]}. */
    OutFrame ack(long ackId, Object payload) {
        String message = sentMessage(payload);
        if (message != null) {
            // the mapper's compact text of {ok: true, message: <the text as it is>}, without running it
            return OutFrame.of("43" + ackId + "[{\"ok\":true,\"message\":", message, "}]");
        }
        return OutFrame.of("43" + ackId + "[", json(payload), "]");
    }

    /**
     * Returns the message's JSON if {@code payload} is a send's answer, {@code {ok: true, message: JsonText}} in
     * that order (ClientEvents' LinkedHashMap); null for any other payload.
     */
    private static String sentMessage(Object payload) {
        if (!(payload instanceof LinkedHashMap<?, ?> map) || map.size() != 2) {
            return null;
        }
        Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
        Map.Entry<?, ?> first = entries.next();
        Map.Entry<?, ?> second = entries.next();
        boolean answer = "ok".equals(first.getKey()) && Boolean.TRUE.equals(first.getValue())
                && "message".equals(second.getKey());
        return answer && second.getValue() instanceof JsonText text ? text.json() : null;
    }

    /**
     * Returns {@code 42["name",}, the head of an EVENT, or null if its JSON is not ASCII; kept for the server's
     * few event names (its own constants), so a fan-out's frame does not run the mapper for its name each time.
     */
    private String eventHead(String name) {
        String head = eventHeads.get(name);
        if (head != null) {
            return head;
        }
        head = "42[" + json(name) + ",";
        if (!isAscii(head)) {
            return null;
        }
        if (name.length() <= 64 && eventHeads.size() < 256) {
            eventHeads.putIfAbsent(name, head);
        }
        return head;
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + value.getClass().getSimpleName(), e);
        }
    }
}
