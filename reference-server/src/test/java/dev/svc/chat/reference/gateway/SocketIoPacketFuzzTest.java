package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.model.Json;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.service.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of the gateway's frame parser ({@link SocketIoPacket#parse}): a packet or an
 * {@link SocketIoPacket.InvalidPacketException}, never another exception; a parsed packet written back in the
 * Socket.IO text form parses to an equal packet.
 */
class SocketIoPacketFuzzTest {
    private static final ObjectMapper MAPPER = Json.newMapper();

    @FuzzTest
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void parse(byte[] bytes) throws JsonProcessingException, SocketIoPacket.InvalidPacketException {
        String text = new String(bytes, StandardCharsets.UTF_8);
        SocketIoPacket packet;
        try {
            packet = SocketIoPacket.parse(text, MAPPER);
        } catch (SocketIoPacket.InvalidPacketException e) {
            return;
        }
        assertTrue(packet.type() >= SocketIoPacket.CONNECT && packet.type() <= SocketIoPacket.CONNECT_ERROR, text);
        assertTrue(packet.nsp().startsWith("/") && packet.nsp().indexOf(',') < 0, text);
        assertTrue(packet.ackId() == null || packet.ackId() >= 0, text);
        if (packet.data() != null) {
            try {
                StrictJson.requireWellFormedText(packet.data(), "payload"); // as ClientEvents checks every event
            } catch (ApiException e) {
                assertEquals(400, e.status());
                return; // answered with an error ack, never stored nor echoed
            }
        }
        String again = packet.type() + (packet.nsp().equals("/") ? "" : packet.nsp() + ",")
                + (packet.ackId() == null ? "" : packet.ackId().toString())
                + (packet.data() == null ? "" : MAPPER.writeValueAsString(packet.data()));
        assertEquals(packet, SocketIoPacket.parse(again, MAPPER), text + " written back as " + again);
    }
}
