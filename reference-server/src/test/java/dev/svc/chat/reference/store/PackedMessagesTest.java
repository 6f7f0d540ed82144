package dev.svc.chat.reference.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.chat.reference.model.Json;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.ThreadSummary;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A packed message reads back equal to what was stored, and encodes to the same JSON, whatever its parts, texts,
 * reactions and timestamps; the indexes find messages by id and idempotency key across hash collisions and chunk
 * boundaries.
 */
class PackedMessagesTest {

    private static final ObjectMapper MAPPER = Json.newMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String ROOM = "room-1";

    @Test
    void aTextMessageReadsBackEqualAndEncodesTheSame() throws Exception {
        PackedMessages packed = new PackedMessages(ROOM);
        Message m = message(1, "alice", "c1", List.of(textPart("hello, world")));
        packed.append(m);

        Message read = packed.get(1);
        assertEquals(m, read);
        assertNotSame(m, read);
        assertEquals(MAPPER.writeValueAsString(m), MAPPER.writeValueAsString(read));
    }

    @Test
    void repliesThreadsMentionsAndSummariesReadBackEqual() throws Exception {
        PackedMessages packed = new PackedMessages(ROOM);
        Message root = message(1, "alice", "c1", List.of(textPart("root")));
        packed.append(root);
        Instant at = Instant.parse("2026-11-21T10:00:01.123Z");
        Message reply = new Message(UUID.randomUUID().toString(), ROOM, 2, 2, "bob", List.of(textPart("reply")),
                "c2", at, null, null, Map.of("👍", List.of("alice")), root.id(), root.id(),
                List.of("alice", "bob"), null);
        packed.append(reply);
        assertEquals(reply, packed.get(2));
        assertEquals(MAPPER.writeValueAsString(reply), MAPPER.writeValueAsString(packed.get(2)));

        Message counted = root.withThread(new ThreadSummary(1, at, List.of("bob"))).withRev(3);
        packed.replace(counted);
        assertEquals(counted, packed.get(1));
        Message none = counted.withThread(new ThreadSummary(0, null, List.of())).deleted(at).withRev(4);
        packed.replace(none);
        assertEquals(none, packed.get(1));
        String json = MAPPER.writeValueAsString(packed.get(1));
        assertTrue(json.contains("\"thread\":{\"replyCount\":0,\"lastReplyAt\":null,\"participantIds\":[]}"), json);
        assertTrue(json.contains("\"replyToId\":null") && json.contains("\"mentions\":[]"), json);
    }

    @Test
    void textsKeepEveryCharacterEvenUnpairedSurrogatesAndNul() throws Exception {
        String[] texts = {"", "\u0000", "é ü ß", "日本語", "emoji 😀 and 👍🏽", "lone \uD83D high", "lone \uDE00 low",
            "\uFFFF\u0080\u07FF\u0800", "x".repeat(300_000)};
        PackedMessages packed = new PackedMessages(ROOM);
        for (int i = 0; i < texts.length; i++) {
            packed.append(message(i + 1, "bob\u00e9", texts[i], List.of(textPart(texts[i]))));
        }
        for (int i = 0; i < texts.length; i++) {
            Message read = packed.get(i + 1);
            assertEquals(texts[i], read.parts().get(0).get("text").textValue(), "text " + i);
            assertEquals(texts[i], read.clientMessageId(), "clientMessageId " + i);
            assertEquals(i + 1, packed.seqOfClientId("bob\u00e9", texts[i]), "idempotency key " + i);
        }
    }

    @Test
    void anyJsonPartKeepsItsNodeTypesFieldOrderAndValues() throws Exception {
        ObjectNode image = NODES.objectNode();
        image.put("type", "image");
        image.put("url", "https://example.test/a.png");
        image.put("width", 640);
        image.put("bytes", 5_000_000_000L);
        image.put("ratio", 1.5);
        image.put("negativeZero", -0.0);
        image.put("big", new BigInteger("123456789012345678901234567890"));
        image.put("ok", true);
        image.put("no", false);
        image.putNull("nothing");
        image.putArray("tags").add("a").add(1).add(NODES.objectNode().put("deep", "yes"));
        ObjectNode reversedText = NODES.objectNode();
        reversedText.put("text", "order kept");
        reversedText.put("type", "text");
        ObjectNode textWithMore = NODES.objectNode();
        textWithMore.put("type", "text");
        textWithMore.put("text", "more");
        textWithMore.put("mentions", NODES.arrayNode().add("carol"));
        ObjectNode textNotText = NODES.objectNode();
        textNotText.put("type", "text");
        textNotText.put("text", 42);
        List<JsonNode> parts = List.of(image, reversedText, textWithMore, textNotText, textPart("plain"));

        PackedMessages packed = new PackedMessages(ROOM);
        Message m = message(1, "alice", "c1", parts);
        packed.append(m);
        Message read = packed.get(1);

        assertEquals(m, read);
        assertEquals(MAPPER.writeValueAsString(m), MAPPER.writeValueAsString(read));
        assertEquals(image.get("width").getNodeType(), read.parts().get(0).get("width").getNodeType());
        assertTrue(read.parts().get(0).get("width").isInt());
        assertTrue(read.parts().get(0).get("bytes").isLong());
        assertTrue(read.parts().get(0).get("big").isBigInteger());
        assertTrue(read.parts().get(0).get("ratio").isDouble());
        assertEquals("-0.0", read.parts().get(0).get("negativeZero").toString());
    }

    @Test
    void randomTreesReadBackEqual() throws Exception {
        Random random = new Random(7);
        PackedMessages packed = new PackedMessages(ROOM);
        List<Message> stored = new ArrayList<>();
        for (int i = 1; i <= 500; i++) {
            List<JsonNode> parts = new ArrayList<>();
            int n = random.nextInt(4);
            for (int p = 0; p < n; p++) {
                parts.add(randomTree(random, 3));
            }
            Message m = message(i, "u" + random.nextInt(5), UUID.randomUUID().toString(), parts);
            packed.append(m);
            stored.add(m);
        }
        for (Message m : stored) {
            Message read = packed.get(m.seq());
            assertEquals(m, read);
            assertEquals(MAPPER.writeValueAsString(m), MAPPER.writeValueAsString(read));
        }
    }

    @Test
    void aReplacedMessageReadsInItsLatestStateUnderItsSeqIdAndKey() {
        PackedMessages packed = new PackedMessages(ROOM);
        Message first = message(1, "alice", "c1", List.of(textPart("v1")));
        packed.append(first);
        packed.append(message(2, "bob", "c1", List.of(textPart("other"))));
        Map<String, List<String>> reactions = new LinkedHashMap<>();
        reactions.put("👍", List.of("bob", "carol"));
        reactions.put("a", List.of("alice"));
        Instant edited = Instant.ofEpochSecond(1_800_000_000L, 123_456_789);
        Message changed = new Message(first.id(), ROOM, 1, 9, "alice", List.of(textPart("v2")), "c1",
                first.createdAt(), edited, null, reactions);
        packed.replace(changed);
        Message deleted = new Message(first.id(), ROOM, 1, 10, "alice", List.of(), "c1", first.createdAt(), edited,
                edited.plusSeconds(1), Map.of());

        assertEquals(changed, packed.get(1));
        assertEquals(List.of("👍", "a"), new ArrayList<>(packed.get(1).reactions().keySet()));
        assertEquals(9, packed.rev(1));
        packed.replace(deleted);
        assertEquals(deleted, packed.get(1));
        assertEquals(10, packed.rev(1));
        assertEquals(1, packed.seqOfId(first.id()));
        assertEquals(1, packed.seqOfClientId("alice", "c1"));
        assertEquals(2, packed.seqOfClientId("bob", "c1"));
        assertEquals(0, packed.seqOfClientId("carol", "c1"));
        assertEquals(0, packed.seqOfClientId("alice", "c2"));
        assertEquals(0, packed.seqOfId("no-such-id"));
    }

    @Test
    void manyMessagesAcrossChunksAreFoundByIdAndKey() {
        PackedMessages packed = new PackedMessages(ROOM);
        List<Message> stored = new ArrayList<>();
        for (int i = 1; i <= 20_000; i++) {
            Message m = message(i, "user-" + (i % 7), "key-" + i, List.of(textPart("message " + i + " " + "x".repeat(
                    i % 300))));
            packed.append(m);
            stored.add(m);
        }
        for (Message m : stored) {
            assertEquals(m.seq(), packed.seqOfId(m.id()));
            assertEquals(m.seq(), packed.seqOfClientId(m.senderId(), m.clientMessageId()));
            assertEquals(m, packed.get(m.seq()));
        }
        assertEquals(0, packed.seqOfClientId("user-1", "key-2"), "a key is its sender's only");
    }

    @Test
    void keysWhoseHashesCollideAreToldApartByTheStoredKey() {
        // "Aa" and "BB" have the same String hash code, so do their concatenations.
        PackedMessages packed = new PackedMessages(ROOM);
        String[] keys = {"AaAa", "AaBB", "BBAa", "BBBB"};
        for (int i = 0; i < keys.length; i++) {
            packed.append(new Message(keys[i], ROOM, i + 1, i + 1, "alice", List.of(textPart(keys[i])), keys[i],
                    Instant.EPOCH, null, null, Map.of()));
        }
        for (int i = 0; i < keys.length; i++) {
            assertEquals(i + 1, packed.seqOfId(keys[i]));
            assertEquals(i + 1, packed.seqOfClientId("alice", keys[i]));
        }
        assertEquals(0, packed.seqOfId("AaAaAa"));
    }

    @Test
    void aNullIdempotencyKeyIsStoredAndFound() {
        PackedMessages packed = new PackedMessages(ROOM);
        Message m = message(1, "system", null, List.of(textPart("no key")));
        packed.append(m);
        assertEquals(m, packed.get(1));
        assertEquals(1, packed.seqOfClientId("system", null));
    }

    @Test
    void aChangeMustKeepTheSenderAndKeyItIsFoundBy() {
        PackedMessages packed = new PackedMessages(ROOM);
        Message m = message(1, "alice", "c1", List.of(textPart("v1")));
        packed.append(m);
        Message otherSender = new Message(m.id(), ROOM, 1, 2, "mallory", m.parts(), "c1", m.createdAt(), null, null,
                Map.of());
        Message otherKey = new Message(m.id(), ROOM, 1, 2, "alice", m.parts(), "c2", m.createdAt(), null, null,
                Map.of());
        assertThrows(IllegalArgumentException.class, () -> packed.replace(otherSender));
        assertThrows(IllegalArgumentException.class, () -> packed.replace(otherKey));
        assertEquals(m, packed.get(1));
        assertEquals(1, packed.seqOfClientId("alice", "c1"));
        assertEquals(0, packed.seqOfId(null));
    }

    @Test
    void aPartThatIsNotJsonIsRefusedRatherThanReadBackAsAnotherNode() {
        PackedMessages packed = new PackedMessages(ROOM);
        ObjectNode part = NODES.objectNode();
        part.set("data", NODES.binaryNode(new byte[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> packed.append(message(1, "alice", "c1", List.of(part))));
        part.set("data", NODES.pojoNode(List.of(1, 2)));
        assertThrows(IllegalArgumentException.class, () -> packed.append(message(1, "alice", "c1", List.of(part))));
    }

    @Test
    void entriesOfOneHashKeepTheirOrderWhenTheIndexGrows() {
        // Hash 7 in a table of 8 fills slots 7, 0, 1 and 2 (the run wraps); the fifth entry doubles the table.
        SeqIndex index = new SeqIndex();
        for (int seq = 1; seq <= 5; seq++) {
            index.add(7, seq);
        }
        assertEquals(1, index.find(7, seq -> true), "the first one added comes first");
        assertEquals(3, index.find(7, seq -> seq >= 3));
        assertEquals(0, index.find(7, seq -> seq > 5));
        assertEquals(0, index.find(8, seq -> true));
    }

    private static Message message(long seq, String sender, String clientMessageId, List<JsonNode> parts) {
        Instant created = Instant.ofEpochSecond(1_700_000_000L + seq, seq * 1_000_001 % 1_000_000_000);
        return new Message(UUID.randomUUID().toString(), ROOM, seq, seq, sender, parts, clientMessageId, created,
                null, null, Map.of());
    }

    private static ObjectNode textPart(String text) {
        ObjectNode part = NODES.objectNode();
        part.put("type", "text");
        part.put("text", text);
        return part;
    }

    private static JsonNode randomTree(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 10 : 8);
        switch (kind) {
            case 0: return NODES.nullNode();
            case 1: return NODES.booleanNode(random.nextBoolean());
            case 2: return NODES.numberNode(random.nextInt());
            case 3: return NODES.numberNode(random.nextLong());
            case 4: return NODES.numberNode(random.nextDouble() * 1e6 - 5e5);
            case 5: return NODES.textNode(randomText(random));
            case 6: return NODES.numberNode(BigInteger.valueOf(random.nextLong()).shiftLeft(70));
            case 7: return textPart(randomText(random));
            case 8: {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(randomTree(random, depth - 1));
                }
                return array;
            }
            default: {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.set(randomText(random), randomTree(random, depth - 1));
                }
                return object;
            }
        }
    }

    private static String randomText(Random random) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            s.append((char) (random.nextBoolean() ? 'a' + random.nextInt(26) : random.nextInt(0x10000)));
        }
        return s.toString();
    }
}
