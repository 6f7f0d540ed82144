package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.cluster.BusFaults;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two servers on one PostgreSQL schema whose event bus loses a call move and a member removal (the PostgreSQL
 * run of the suites only): sent while the other node's listening connection was lost, not fitting in the
 * full queue, or queued on a node that died. The other node's sockets still get the call's move, once, and
 * the removed member's connections there stop getting the room's typing (see {@code cluster/CallCatchUp} and
 * {@code cluster/MemberCatchUp}).
 */
class ClusterCallCatchUpTest {

    private static final String KEY = "sk_test_callcatchup_0123456789";
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private String schema;
    private EmbeddedPg pg;
    private final AtomicInteger ackIds = new AtomicInteger(1);

    @BeforeEach
    void sharedSchema() {
        assumeTrue("postgres".equals(Backends.current()), "needs the PostgreSQL backend");
        schema = "callcatchup_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
        pg = EmbeddedPg.shared();
    }

    @Test
    void aCallMoveAndARemovalMadeWhileTheListeningConnectionWasLostReachTheNodeWhenItListensAgain()
            throws Exception {
        CountDownLatch lost = new CountDownLatch(1);
        CountDownLatch mayListen = new CountDownLatch(1);
        CountDownLatch listening = new CountDownLatch(1);
        BusFaults heldOff = new BusFaults() {
            @Override
            public void beforeRelisten() {
                lost.countDown();
                try {
                    mayListen.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void relistened() {
                listening.countDown();
            }
        };
        try (ReferenceServer nodeA = node(BusFaults.NONE); ReferenceServer nodeB = node(heldOff)) {
            Http httpA = new Http(nodeA);
            Http httpB = new Http(nodeB);
            Rooms rooms = rooms(httpA);
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, httpB.mint(KEY, "carol"));
                 SocketClient bobOnB = joined(nodeB, httpB.mint(KEY, "bob"), rooms.room);
                 SocketClient aliceOnB = joined(nodeB, httpB.mint(KEY, "alice"), rooms.room)) {
                String callId = startCall(httpA, rooms);
                assertEquals(List.of("call-invite ringing"), callEvents(carolOnB, 1));

                terminateListeningConnections();
                assertTrue(lost.await(30, TimeUnit.SECONDS), "node B did not notice its lost connection");
                assertEquals(200, httpA.bearer("POST", "/v1/calls/" + callId + "/accept", rooms.bob, null).status());
                assertEquals(200, removeBob(httpA, rooms).status());
                mayListen.countDown();
                assertTrue(listening.await(30, TimeUnit.SECONDS), "node B did not listen again");

                assertStopsGettingTheRoom(bobOnB, aliceOnB, httpB, rooms);
                assertEquals(List.of("call-accepted active"), callEvents(carolOnB, 1), "the accept made in the gap");
                assertEquals(200, httpA.bearer("POST", "/v1/calls/" + callId + "/end", rooms.alice, null).status());
                assertEquals(List.of("call-ended ended"), callEvents(carolOnB, 1), "a call event delivered twice");
            }
        } finally {
            mayListen.countDown();
        }
    }

    @Test
    void aCallMoveAndARemovalThatDidNotFitInTheFullQueueReachTheOtherNodeThroughTheRoomsAnnouncement()
            throws Exception {
        StalledBus stalled = new StalledBus(false);
        try (ReferenceServer nodeA = node(stalled); ReferenceServer nodeB = node(BusFaults.NONE)) {
            Http httpA = new Http(nodeA);
            Http httpB = new Http(nodeB);
            Rooms rooms = rooms(httpA);
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, httpB.mint(KEY, "carol"));
                 SocketClient bobOnB = joined(nodeB, httpB.mint(KEY, "bob"), rooms.room);
                 SocketClient aliceOnB = joined(nodeB, httpB.mint(KEY, "alice"), rooms.room)) {
                String callId = startCall(httpA, rooms);
                assertEquals(List.of("call-invite ringing"), callEvents(carolOnB, 1));

                stalled.hold(true);
                assertEquals(201, httpA.sendText(rooms.alice, rooms.room, "held", "being sent").status());
                assertTrue(stalled.sending.await(30, TimeUnit.SECONDS), "node A did not begin to send");
                assertEquals(200, httpA.bearer("POST", "/v1/calls/" + callId + "/accept", rooms.bob, null).status());
                assertEquals(200, removeBob(httpA, rooms).status()); // does not fit
                assertEquals(200, httpA.bearer("POST", "/v1/calls/" + callId + "/end", rooms.alice, null).status());
                stalled.hold(false);
                stalled.maySend.countDown();

                // the room's announcement may overtake the queued accept: the call is then handed in its latest state
                List<String> moves = callEventsThrough(carolOnB, "call-ended");
                assertTrue(moves.equals(List.of("call-ended ended"))
                        || moves.equals(List.of("call-accepted active", "call-ended ended")), moves.toString());
                assertStopsGettingTheRoom(bobOnB, aliceOnB, httpB, rooms);
                startCall(httpA, rooms);
                assertEquals(List.of("call-invite ringing"), callEvents(carolOnB, 1), "a call event delivered twice");
            }
        } finally {
            stalled.maySend.countDown();
        }
    }

    @Test
    void aCallMoveAndARemovalQueuedOnANodeThatDiedReachTheOtherNode() throws Exception {
        CountDownLatch sending = new CountDownLatch(1);
        AtomicInteger held = new AtomicInteger();
        BusFaults dying = new BusFaults() {
            @Override
            public void beforeNotify() throws SQLException {
                if (held.get() == 0) {
                    return;
                }
                sending.countDown();
                try {
                    new CountDownLatch(1).await(60, TimeUnit.SECONDS); // until the node closes
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new SQLException("injected: the node died before it sent this");
            }
        };
        ReferenceServer nodeA = node(dying);
        try (ReferenceServer nodeB = node(BusFaults.NONE)) {
            Http httpA = new Http(nodeA);
            Http httpB = new Http(nodeB);
            Rooms rooms = rooms(httpA);
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, httpB.mint(KEY, "carol"));
                 SocketClient bobOnB = joined(nodeB, httpB.mint(KEY, "bob"), rooms.room);
                 SocketClient aliceOnB = joined(nodeB, httpB.mint(KEY, "alice"), rooms.room)) {
                String callId = startCall(httpA, rooms);
                assertEquals(List.of("call-invite ringing"), callEvents(carolOnB, 1));

                held.set(1);
                assertEquals(200, httpA.bearer("POST", "/v1/calls/" + callId + "/accept", rooms.bob, null).status());
                assertTrue(sending.await(30, TimeUnit.SECONDS), "node A did not begin to send");
                assertEquals(200, removeBob(httpA, rooms).status()); // queued behind the accept
                nodeA.close();

                assertEquals(List.of("call-accepted active"), callEvents(carolOnB, 1), "the accept of the dead node");
                assertStopsGettingTheRoom(bobOnB, aliceOnB, httpB, rooms);
                assertEquals(200, httpB.bearer("POST", "/v1/calls/" + callId + "/end", rooms.alice, null).status());
                assertEquals(List.of("call-ended ended"), callEvents(carolOnB, 1), "a call event delivered twice");
            }
        } finally {
            nodeA.close();
        }
    }

    /** The room of the call (alice, bob, carol), a room of alice and bob for markers, and their tokens. */
    private record Rooms(String room, String markers, String alice, String bob) {
    }

    private static Rooms rooms(Http http) {
        return new Rooms(http.createRoom(KEY, "alice", "bob", "carol"), http.createRoom(KEY, "alice", "bob"),
                http.mint(KEY, "alice"), http.mint(KEY, "bob"));
    }

    private static String startCall(Http http, Rooms rooms) {
        Http.Response started = http.bearer("POST", "/v1/chat/rooms/" + rooms.room + "/calls", rooms.alice,
                Map.of("kind", "audio"));
        assertEquals(201, started.status(), String.valueOf(started.json()));
        return started.json().get("id").asText();
    }

    private static Http.Response removeBob(Http http, Rooms rooms) {
        return http.apiKey("DELETE", "/v1/chat/rooms/" + rooms.room + "/members/bob", KEY, null);
    }

    private SocketClient joined(ReferenceServer node, String token, String room) throws IOException {
        SocketClient socket = SocketClient.connectToken(node, token);
        assertTrue(emit(socket, "join-room", "{\"roomId\":\"" + room + "\"}").get("ok").asBoolean());
        return socket;
    }

    /**
     * Asserts that removed bob's connection on node B stops getting the room within {@link #DEADLINE}: alice
     * types in it through node B and then sends a marker to bob in another room, until bob's frames up to the
     * marker hold no typing of the room. Then bob is refused the room there: no typing (he left it), no history
     * (403, membership read from the database), no new message.
     */
    private void assertStopsGettingTheRoom(SocketClient bobOnB, SocketClient aliceOnB, Http httpB, Rooms rooms)
            throws IOException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        List<String> seen = new ArrayList<>();
        for (int round = 0; ; round++) {
            assertTrue(emit(aliceOnB, "typing", "{\"roomId\":\"" + rooms.room + "\",\"isTyping\":" + (round % 2 == 0)
                    + "}").get("ok").asBoolean());
            seen = framesUpToMarker(bobOnB, httpB, rooms, "typing-" + round);
            if (seen.stream().noneMatch(f -> f.startsWith("typing"))) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("removed bob still gets the room's typing on node B after " + DEADLINE
                        + ": " + seen);
            }
        }
        JsonNode typing = emit(bobOnB, "typing", "{\"roomId\":\"" + rooms.room + "\",\"isTyping\":true}");
        assertFalse(typing.get("ok").asBoolean(), "bob still has the room joined on node B: " + typing);
        assertEquals(403, httpB.bearer("GET", "/v1/chat/rooms/" + rooms.room + "/messages", rooms.bob, null).status());
        assertEquals(201, httpB.sendText(rooms.alice, rooms.room, "after-removal", "not for bob").status());
        seen = framesUpToMarker(bobOnB, httpB, rooms, "after-removal");
        assertTrue(seen.stream().noneMatch(f -> f.contains(rooms.room)), "bob got the room after removal: " + seen);
    }

    /** Sends a marker to bob (room {@code markers}) and returns bob's event frames before it, "event payload". */
    private static List<String> framesUpToMarker(SocketClient bob, Http http, Rooms rooms, String id)
            throws IOException {
        assertEquals(201, http.sendText(rooms.alice, rooms.markers, "marker-" + id, id).status());
        List<String> before = new ArrayList<>();
        while (true) {
            JsonNode event = nextEvent(bob, "marker " + id + " after " + before);
            if ("new-message".equals(event.get(0).asText())
                    && ("marker-" + id).equals(event.get(1).path("clientMessageId").asText())) {
                return before;
            }
            before.add(event.get(0).asText() + " " + event.get(1));
        }
    }

    /** Returns the socket's next {@code count} call events as "event status" ({@link #DEADLINE} each). */
    private static List<String> callEvents(SocketClient socket, int count) throws IOException {
        List<String> events = new ArrayList<>();
        while (events.size() < count) {
            JsonNode event = nextEvent(socket, "call event after " + events);
            if (event.get(0).asText().startsWith("call-")) {
                events.add(event.get(0).asText() + " " + event.get(1).get("status").asText());
            }
        }
        return events;
    }

    /** Returns the socket's call events up to the first {@code last} one, as "event status". */
    private static List<String> callEventsThrough(SocketClient socket, String last) throws IOException {
        List<String> events = new ArrayList<>();
        while (events.isEmpty() || !events.get(events.size() - 1).startsWith(last + " ")) {
            events.addAll(callEvents(socket, 1));
        }
        return events;
    }

    private static JsonNode nextEvent(SocketClient socket, String what) throws IOException {
        while (true) {
            String frame = socket.poll(DEADLINE);
            if (frame == null) {
                throw new AssertionError("no " + what + " within " + DEADLINE);
            }
            if (frame.startsWith("42[")) {
                return Http.JSON.readTree(frame.substring(2));
            }
        }
    }

    /** Emits {@code event} and returns its ack, skipping the events that come before it. */
    private JsonNode emit(SocketClient socket, String event, String payloadJson) throws IOException {
        int ackId = ackIds.getAndIncrement();
        socket.send("42" + ackId + "[\"" + event + "\"," + payloadJson + "]");
        String prefix = "43" + ackId + "[";
        while (true) {
            String frame = socket.poll(DEADLINE);
            if (frame == null) {
                throw new AssertionError("no ack of " + event + " within " + DEADLINE);
            }
            if (frame.startsWith(prefix)) {
                return Http.JSON.readTree(frame.substring(prefix.length() - 1)).get(0);
            }
        }
    }

    /** Cuts every node's listening connection of this schema, as a database restart would. */
    private void terminateListeningConnections() throws SQLException {
        try (Connection admin = DriverManager.getConnection(pg.jdbcUrl(), pg.user(), null);
             Statement st = admin.createStatement();
             ResultSet rs = st.executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                     + " WHERE query LIKE 'LISTEN%' AND query LIKE '%" + schema + "%'")) {
            int terminated = 0;
            while (rs.next()) {
                terminated += rs.getBoolean(1) ? 1 : 0;
            }
            assertEquals(2, terminated, "both nodes' listening connections");
        }
    }

    private ReferenceServer node(BusFaults faults) {
        return ReferenceServer.builder().apiKey(KEY).sendRateLimit(100_000, 100_000)
                .databaseUrl(pg.jdbcUrl(), pg.user(), null).databaseSchema(schema).busFaults(faults).build().start();
    }
}
