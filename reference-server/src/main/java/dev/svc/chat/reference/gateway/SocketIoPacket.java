package dev.svc.chat.reference.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.service.StrictJson;
import java.util.Set;

/**
 * One decoded Socket.IO v5 packet (the text after the Engine.IO {@code 4}), with the decoding rules of the
 * official {@code socket.io-parser}: {@code <type>[/nsp,][ackId][JSON]}. Binary packets are refused: this
 * server is text only.
 *
 * @param type the packet type, {@link #CONNECT} to {@link #ACK} or {@link #CONNECT_ERROR}
 * @param nsp the namespace, {@code /} when omitted
 * @param ackId the acknowledgement id, or null
 * @param data the JSON payload, or null when there is none
 */
record SocketIoPacket(int type, String nsp, Long ackId, JsonNode data) {

    static final int CONNECT = 0;
    static final int DISCONNECT = 1;
    static final int EVENT = 2;
    static final int ACK = 3;
    static final int CONNECT_ERROR = 4;

    /** Event names the official server refuses, as they collide with its own lifecycle events. */
    private static final Set<String> RESERVED = Set.of(
            "connect", "connect_error", "disconnect", "disconnecting", "newListener", "removeListener");

    /** Thrown for a packet the official server would refuse; the connection is then closed. */
    static final class InvalidPacketException extends Exception {
        InvalidPacketException(String message) {
            super(message, null, false, false);
        }
    }

    /** Decodes {@code text}, else throws {@link InvalidPacketException}. */
    static SocketIoPacket parse(String text, ObjectMapper mapper) throws InvalidPacketException {
        if (text.isEmpty()) {
            throw new InvalidPacketException("empty packet");
        }
        int type = text.charAt(0) - '0';
        if (type < CONNECT || type > CONNECT_ERROR) {
            // 5 and 6 are the binary types: refused like any unknown type.
            throw new InvalidPacketException("unsupported packet type");
        }
        int i = 1;
        String nsp = "/";
        if (i < text.length() && text.charAt(i) == '/') {
            int comma = text.indexOf(',', i);
            int end = comma < 0 ? text.length() : comma;
            nsp = text.substring(i, end);
            i = comma < 0 ? end : end + 1;
        }
        Long ackId = null;
        int digits = i;
        while (digits < text.length() && Character.isDigit(text.charAt(digits)) && text.charAt(digits) < 128) {
            digits++;
        }
        if (digits > i) {
            if (digits - i > 15) {
                throw new InvalidPacketException("ack id too large");
            }
            ackId = Long.parseLong(text.substring(i, digits));
            i = digits;
        }
        JsonNode data = null;
        if (i < text.length()) {
            try {
                // Nesting is bounded here; strings are checked per event, so a bad one gets an error ack.
                data = StrictJson.parseText(mapper, text.substring(i));
            } catch (ApiException e) {
                throw new InvalidPacketException("bad JSON");
            }
        }
        if (!isPayloadValid(type, data)) {
            throw new InvalidPacketException("invalid payload");
        }
        return new SocketIoPacket(type, nsp, ackId, data);
    }

    private static boolean isPayloadValid(int type, JsonNode data) {
        switch (type) {
            case CONNECT:
                return data == null || data.isObject();
            case DISCONNECT:
                return data == null;
            case CONNECT_ERROR:
                return data != null && (data.isTextual() || data.isObject());
            case EVENT:
                return data != null && data.isArray() && data.size() > 0 && data.get(0).isTextual()
                        && !RESERVED.contains(data.get(0).textValue());
            case ACK:
                return data != null && data.isArray();
            default:
                return false;
        }
    }
}
