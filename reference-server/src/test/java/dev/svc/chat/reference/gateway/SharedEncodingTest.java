package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.model.Json;
import dev.svc.chat.reference.model.JsonText;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.service.PayloadEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A message encoded once ({@link PayloadEncoder}) and reused for its room's frame, the sender's ack and its
 * webhook gives exactly the bytes that encoding the message itself in each place gives.
 */
class SharedEncodingTest {

    private final ObjectMapper mapper = Json.newMapper();
    private final Frames frames = new Frames(mapper);

    private Message message() throws Exception {
        List<JsonNode> parts = List.of(
                mapper.readTree("{\"type\":\"text\",\"text\":"
                        + "\"h\u00e9 \\\"quoted\\\" </script> \ud83d\ude00 \\u0001\"}"),
                mapper.readTree("{\"type\":\"image\",\"url\":\"https://example.test/a.png\",\"size\":1.5e3,"
                        + "\"meta\":{\"w\":10,\"tags\":[true,null,\"x\"]}}"));
        Map<String, List<String>> reactions = new LinkedHashMap<>();
        reactions.put("\ud83d\udc4d", List.of("bob", "carol"));
        reactions.put("ok", List.of("alice"));
        return new Message("5b3f0c64-6a55-4a8b-9a3c-0d0d7f1f2a10", "room-1", 42, 77, "alice", parts, "c-1",
                Instant.parse("2026-11-25T13:00:00.123456Z"), Instant.parse("2026-11-25T13:00:01Z"), null,
                reactions);
    }

    @Test
    void theSharedFrameIsByteIdenticalToThePerTargetEncoding() throws Exception {
        Message message = message();
        String json = new PayloadEncoder(mapper).apply(message);
        assertEquals(mapper.writeValueAsString(message), json);
        OutFrame shared = frames.eventOfJson("new-message", json);
        OutFrame own = frames.event("new-message", message);
        assertEquals(own.toString(), shared.toString());
        assertEquals(own.payload(), shared.payload()); // the UTF-8 bytes on the wire
        assertTrue(shared.toString().startsWith("42[\"new-message\",{\"id\":"), shared.toString());
    }

    @Test
    void anEventOfJsonIsTheFrameOfItsJoinedTextWhateverItsName() throws Exception {
        for (String name : new String[] {"new-message", "\u00e9v\u00e9nement", "quo\"te", "new-message"}) {
            String expected = "42[" + mapper.writeValueAsString(name) + ",{\"t\":\"\u00e9\"}]";
            assertEquals(expected, frames.eventOfJson(name, "{\"t\":\"\u00e9\"}").toString(), name);
            assertEquals(expected.replace("\u00e9\"}", "e\"}"), frames.eventOfJson(name, "{\"t\":\"e\"}").toString(),
                    name);
        }
    }

    /**
     * A REST answer encodes to bytes ({@code writeValueAsBytes}), a frame to a String: both must write a
     * character outside the BMP the same way (Jackson's UTF-8 writer escaped it as two {@code \\uXXXX} by default,
     * so a new message's answer and the answer to its repeat differed).
     */
    @Test
    void theBytesAnswerAndTheTextEncodingAgree() throws Exception {
        Message message = message();
        String json = new PayloadEncoder(mapper).apply(message);
        assertEquals(json, new String(mapper.writeValueAsBytes(message), StandardCharsets.UTF_8));
        assertTrue(json.contains("\ud83d\ude00"), json);
    }

    @Test
    void anAckOrAWebhookCarryingTheSharedTextWritesTheSameBytes() throws Exception {
        Message message = message();
        JsonText text = new JsonText(new PayloadEncoder(mapper).apply(message));
        Map<String, Object> ownAck = new LinkedHashMap<>();
        ownAck.put("ok", true);
        ownAck.put("message", message);
        Map<String, Object> sharedAck = new LinkedHashMap<>();
        sharedAck.put("ok", true);
        sharedAck.put("message", text);
        assertEquals(frames.ack(7, ownAck).toString(), frames.ack(7, sharedAck).toString());
        assertEquals("437[" + mapper.writeValueAsString(sharedAck) + "]", frames.ack(7, sharedAck).toString());
        assertEquals(frames.ack(7, ownAck).payload(), frames.ack(7, sharedAck).payload());
        Map<String, Object> ownEnvelope = new LinkedHashMap<>();
        ownEnvelope.put("type", "message.new");
        ownEnvelope.put("data", message);
        Map<String, Object> sharedEnvelope = new LinkedHashMap<>();
        sharedEnvelope.put("type", "message.new");
        sharedEnvelope.put("data", text);
        assertEquals(mapper.writeValueAsString(ownEnvelope), mapper.writeValueAsString(sharedEnvelope));
    }
}
