package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The positions of the CONNECT answer (contract section 8), on each backend: the user's rooms with their
 * newest seq and rev, none for an API key, and a room joined later seen through its first event. The order
 * of the read against the fan-out is proved in {@code gateway.ConnectPositionsOrderTest}.
 */
class ConnectPositionsTest {

    private static final String KEY = "sk_test_positions_0123456789";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00.123Z"));
    private ReferenceServer server;
    private Http http;

    @BeforeEach
    void start() {
        server = Backends.builder().clock(clock).build().start();
        http = new Http(server);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theAnswerListsEveryRoomOfTheUserWithItsNewestSeqAndRev() {
        String busy = http.createRoom(server.apiKey(), "alice", "bob");
        String empty = http.createRoom(server.apiKey(), "alice");
        String others = http.createRoom(server.apiKey(), "bob", "carol");
        String bob = http.mint(server.apiKey(), "bob");
        String first = http.sendText(bob, busy, "c1", "one").json().get("id").asText();
        http.sendText(bob, busy, "c2", "two");
        http.sendText(bob, busy, "c3", "three");
        assertEquals(200, http.bearer("PATCH", "/v1/chat/rooms/" + busy + "/messages/" + first, bob,
                Map.of("parts", List.of(Map.of("type", "text", "text", "one, edited")))).status());
        http.sendText(bob, others, "c4", "elsewhere");

        try (SocketClient alice = SocketClient.open(server)) {
            alice.expectOpen();
            alice.send("40{\"token\":\"" + http.mint(server.apiKey(), "alice") + "\"}");
            JsonNode answer = answer(alice.next());
            assertEquals(Map.of(busy, "3/4", empty, "0/0"), positions(answer), answer.toString());
            assertEquals("2026-11-21T10:00:00.123Z", answer.get("at").asText());
            assertTrue(answer.get("svc").get("sendMessage").asBoolean(), answer.toString());
            assertEquals(20, answer.get("sid").asText().length());
        }
    }

    @Test
    void aUserInNoRoomGetsAnEmptyList() {
        http.createRoom(server.apiKey(), "bob");
        try (SocketClient alice = SocketClient.open(server)) {
            alice.expectOpen();
            alice.send("40{\"token\":\"" + http.mint(server.apiKey(), "alice") + "\"}");
            JsonNode answer = answer(alice.next());
            assertTrue(answer.get("rooms").isArray() && answer.get("rooms").isEmpty(), answer.toString());
        }
    }

    @Test
    void anApiKeyConnectionsAnswerHasNoRooms() {
        http.createRoom(server.apiKey(), "alice");
        try (SocketClient bot = SocketClient.open(server)) {
            bot.expectOpen();
            bot.send("40{\"apiKey\":\"" + server.apiKey() + "\"}");
            JsonNode answer = answer(bot.next());
            assertFalse(answer.has("rooms"), answer.toString());
            assertEquals("2026-11-21T10:00:00.123Z", answer.get("at").asText());
        }
    }

    @Test
    void aRoomJoinedLaterIsNotInTheAnswerAndItsFirstEventArrives() {
        String bob = http.mint(server.apiKey(), "bob");
        String room = http.createRoom(server.apiKey(), "bob");
        http.sendText(bob, room, "c1", "before alice");
        try (SocketClient alice = SocketClient.open(server)) {
            alice.expectOpen();
            alice.send("40{\"token\":\"" + http.mint(server.apiKey(), "alice") + "\"}");
            assertEquals(Map.of(), positions(answer(alice.next())));
            Http.Response added = http.apiKey("POST", "/v1/chat/rooms/" + room + "/members", server.apiKey(),
                    Map.of("userIds", List.of("alice")));
            assertEquals(200, added.status(), added.json().toString());
            http.sendText(bob, room, "c2", "after alice");
            JsonNode message = nextEvent(alice, "new-message");
            assertEquals(room, message.get("roomId").asText());
            assertEquals(2, message.get("seq").asLong());
            assertEquals(2, message.get("rev").asLong());
        }
    }

    @Test
    void onAClusterTheAnswerCountsTheOtherNodesChangesAndTheirLaterOnesArrive() throws Exception {
        assumeTrue("postgres".equals(Backends.current()), "needs the PostgreSQL backend");
        EmbeddedPg pg = EmbeddedPg.shared();
        String schema = "positions_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
        try (ReferenceServer nodeA = node(pg, schema); ReferenceServer nodeB = node(pg, schema)) {
            Http httpA = new Http(nodeA);
            Http httpB = new Http(nodeB);
            String room = httpB.createRoom(KEY, "alice", "bob");
            String bob = httpB.mint(KEY, "bob");
            httpB.sendText(bob, room, "c1", "one");
            httpB.sendText(bob, room, "c2", "two");
            try (SocketClient alice = SocketClient.open(nodeA)) {
                alice.expectOpen();
                alice.send("40{\"token\":\"" + httpA.mint(KEY, "alice") + "\"}");
                assertEquals(Map.of(room, "2/2"), positions(answer(alice.next())));
                httpB.sendText(bob, room, "c3", "three");
                // Node B's notifications of seq 1 and 2 may reach node A after alice's registration: at or below
                // her position, they may arrive too (the client drops them as repeats).
                JsonNode message = nextEvent(alice, "new-message");
                while (message.get("seq").asLong() <= 2) {
                    message = nextEvent(alice, "new-message");
                }
                assertEquals(3, message.get("seq").asLong(), message.toString());
            }
        }
    }

    private static ReferenceServer node(EmbeddedPg pg, String schema) {
        return ReferenceServer.builder().apiKey(KEY)
                .databaseUrl(pg.jdbcUrl(), pg.user(), null).databaseSchema(schema).build().start();
    }

    /** Parses a CONNECT answer frame, failing unless it is one. */
    private static JsonNode answer(String frame) {
        assertTrue(frame.startsWith("40{"), "expected a CONNECT answer, got " + frame);
        try {
            return Http.JSON.readTree(frame.substring(2));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Returns the answer's rooms as roomId to "seq/rev", checking that each room is listed once. */
    private static Map<String, String> positions(JsonNode answer) {
        Map<String, String> positions = new TreeMap<>();
        for (JsonNode room : answer.get("rooms")) {
            String previous = positions.put(room.get("id").asText(), room.get("seq").asLong() + "/"
                    + room.get("rev").asLong());
            assertEquals(null, previous, "a room listed twice: " + answer);
        }
        return positions;
    }

    /** Returns the payload of the socket's next {@code name} event, skipping others (presence). */
    private static JsonNode nextEvent(SocketClient socket, String name) {
        while (true) {
            JsonNode event = socket.nextEvent();
            if (name.equals(event.get(0).asText())) {
                return event.get(1);
            }
        }
    }
}
