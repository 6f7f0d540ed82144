package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two servers on one PostgreSQL schema whose event bus has a gap (the PostgreSQL run of the suites only): a
 * notification that could not be sent, one that did not fit in the full queue, or one sent while the other
 * node's listening connection was lost. A
 * socket on the other node still gets every message, once each, in {@code seq} order: the node catches up
 * from the database by {@code rev} (see {@code cluster/RoomCatchUp}).
 */
class ClusterCatchUpTest {

    private static final String KEY = "sk_test_catchup_0123456789";

    private String schema;
    private EmbeddedPg pg;

    @BeforeEach
    void sharedSchema() {
        assumeTrue("postgres".equals(Backends.current()), "needs the PostgreSQL backend");
        schema = "catchup_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
        pg = EmbeddedPg.shared();
    }

    @Test
    void aMessageWhoseNotificationFailedStillReachesTheOtherNode() throws Exception {
        AtomicInteger failures = new AtomicInteger();
        BusFaults failing = new BusFaults() {
            @Override
            public void beforeNotify() throws SQLException {
                if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    throw new SQLException("injected: the notification could not be sent");
                }
            }
        };
        try (ReferenceServer nodeA = node(failing); ReferenceServer nodeB = node(BusFaults.NONE)) {
            Http httpA = new Http(nodeA);
            String room = httpA.createRoom(KEY, "alice", "carol");
            String alice = httpA.mint(KEY, "alice");
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, new Http(nodeB).mint(KEY, "carol"))) {
                failures.set(3); // more than the two tries a notification used to get
                assertEquals(201, httpA.sendText(alice, room, "lost", "its notification fails").status());
                assertEquals(201, httpA.sendText(alice, room, "next", "sent later").status());
                assertEquals(List.of(1L, 2L), newMessageSeqs(carolOnB, 2));
                assertNoMoreMessages(carolOnB, httpA, alice, room, 3);
            }
        }
    }

    @Test
    void aMessageThatDidNotFitInTheFullQueueReachesTheOtherNodeThroughItsRoomsAnnouncement() throws Exception {
        StalledBus stalled = new StalledBus(true);
        try (ReferenceServer nodeA = node(stalled); ReferenceServer nodeB = node(BusFaults.NONE)) {
            Http httpA = new Http(nodeA);
            String room = httpA.createRoom(KEY, "alice", "carol");
            String alice = httpA.mint(KEY, "alice");
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, new Http(nodeB).mint(KEY, "carol"))) {
                assertEquals(201, httpA.sendText(alice, room, "first", "being sent").status());
                assertTrue(stalled.sending.await(30, TimeUnit.SECONDS), "node A did not begin to send");
                assertEquals(201, httpA.sendText(alice, room, "second", "waits in the queue").status());
                assertEquals(201, httpA.sendText(alice, room, "third", "does not fit").status());
                stalled.maySend.countDown();
                assertEquals(List.of(1L, 2L, 3L), newMessageSeqs(carolOnB, 3));
                assertNoMoreMessages(carolOnB, httpA, alice, room, 4);
            }
        } finally {
            stalled.maySend.countDown();
        }
    }

    @Test
    void theLastMessageSentWhileTheListeningConnectionWasLostReachesTheNodeWhenItListensAgain() throws Exception {
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
            String room = httpA.createRoom(KEY, "alice", "carol");
            String alice = httpA.mint(KEY, "alice");
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, new Http(nodeB).mint(KEY, "carol"))) {
                assertEquals(201, httpA.sendText(alice, room, "before", "x").status());
                assertEquals(List.of(1L), newMessageSeqs(carolOnB, 1));

                terminateListeningConnections();
                assertTrue(lost.await(30, TimeUnit.SECONDS), "node B did not notice its lost connection");
                // the last message of the conversation: nothing is sent after it until node B listens again
                assertEquals(201, httpA.sendText(alice, room, "during", "while B does not listen").status());
                mayListen.countDown();
                assertTrue(listening.await(30, TimeUnit.SECONDS), "node B did not listen again");
                assertEquals(List.of(2L), newMessageSeqs(carolOnB, 1), "the message sent during the gap");

                assertEquals(201, httpA.sendText(alice, room, "after", "x").status());
                assertEquals(List.of(3L), newMessageSeqs(carolOnB, 1));
                assertNoMoreMessages(carolOnB, httpA, alice, room, 4);
            }
        } finally {
            mayListen.countDown();
        }
    }

    @Test
    void aReceiptMadeWhileTheListeningConnectionWasLostReachesTheNodeWhenItListensAgain() throws Exception {
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
            String room = httpA.createRoom(KEY, "alice", "carol");
            String alice = httpA.mint(KEY, "alice");
            String first = httpA.sendText(alice, room, "first", "x").json().get("id").asText();
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, new Http(nodeB).mint(KEY, "carol"))) {
                terminateListeningConnections();
                assertTrue(lost.await(30, TimeUnit.SECONDS), "node B did not notice its lost connection");
                assertEquals(200, markRead(httpA, alice, room, first).status());
                mayListen.countDown();
                assertTrue(listening.await(30, TimeUnit.SECONDS), "node B did not listen again");
                assertEquals(List.of("alice@1"), receipts(carolOnB, 1), "the receipt made during the gap");
                assertNoMoreReceipts(carolOnB, httpA, alice, room);
            }
        } finally {
            mayListen.countDown();
        }
    }

    @Test
    void aReceiptThatDidNotFitInTheFullQueueReachesTheOtherNodeThroughItsRoomsAnnouncement() throws Exception {
        StalledBus stalled = new StalledBus(false);
        try (ReferenceServer nodeA = node(stalled); ReferenceServer nodeB = node(BusFaults.NONE)) {
            Http httpA = new Http(nodeA);
            String room = httpA.createRoom(KEY, "alice", "bob", "carol");
            String alice = httpA.mint(KEY, "alice");
            String bob = httpA.mint(KEY, "bob");
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, new Http(nodeB).mint(KEY, "carol"))) {
                String first = httpA.sendText(alice, room, "first", "x").json().get("id").asText();
                assertEquals(List.of(1L), newMessageSeqs(carolOnB, 1));
                stalled.hold(true);
                assertEquals(201, httpA.sendText(bob, room, "second", "being sent").status());
                assertTrue(stalled.sending.await(30, TimeUnit.SECONDS), "node A did not begin to send");
                assertEquals(200, markRead(httpA, alice, room, first).status()); // waits in the queue
                assertEquals(200, markRead(httpA, bob, room, first).status()); // does not fit
                stalled.hold(false);
                stalled.maySend.countDown();
                assertEquals(List.of("alice@1", "bob@1"), receipts(carolOnB, 2));
                assertNoMoreReceipts(carolOnB, httpA, alice, room);
            }
        } finally {
            stalled.maySend.countDown();
        }
    }

    private static Http.Response markRead(Http http, String token, String room, String messageId) {
        return http.bearer("POST", "/v1/chat/rooms/" + room + "/read", token, "{\"messageId\":\"" + messageId + "\"}");
    }

    /** Returns the socket's next {@code count} receipts as "user@seq" (20 s each), skipping other events. */
    private static List<String> receipts(SocketClient socket, int count) throws IOException {
        List<String> receipts = new ArrayList<>();
        while (receipts.size() < count) {
            String frame = socket.poll(Duration.ofSeconds(20));
            if (frame == null) {
                throw new AssertionError("no room-read within 20 s after " + receipts);
            }
            if (frame.startsWith("42[")) {
                JsonNode event = Http.JSON.readTree(frame.substring(2));
                if ("room-read".equals(event.get(0).asText())) {
                    receipts.add(event.get(1).get("userId").asText() + "@" + event.get(1).get("seq").asLong());
                }
            }
        }
        return receipts;
    }

    /** Fails if a receipt was delivered twice: a receipt made now is the socket's next one. */
    private static void assertNoMoreReceipts(SocketClient socket, Http http, String token, String room)
            throws IOException {
        JsonNode marker = http.sendText(token, room, "receipt-marker", "after the others").json();
        assertEquals(200, markRead(http, token, room, marker.get("id").asText()).status());
        assertEquals(List.of(marker.get("senderId").asText() + "@" + marker.get("seq").asLong()),
                receipts(socket, 1), "a receipt delivered twice");
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

    /** Returns the seqs of the socket's next {@code count} new messages (20 s each), skipping other events. */
    private static List<Long> newMessageSeqs(SocketClient socket, int count) throws IOException {
        List<Long> seqs = new ArrayList<>();
        while (seqs.size() < count) {
            String frame = socket.poll(Duration.ofSeconds(20));
            if (frame == null) {
                throw new AssertionError("no new-message within 20 s after seqs " + seqs);
            }
            if (frame.startsWith("42[")) {
                JsonNode event = Http.JSON.readTree(frame.substring(2));
                if ("new-message".equals(event.get(0).asText())) {
                    seqs.add(event.get(1).get("seq").asLong());
                }
            }
        }
        return seqs;
    }

    /**
     * Fails if a message was delivered twice: a message sent now (seq {@code markerSeq}) follows every earlier
     * delivery on the bus, so it is the socket's next new message.
     */
    private static void assertNoMoreMessages(SocketClient socket, Http http, String token, String room, long markerSeq)
            throws IOException {
        assertEquals(201, http.sendText(token, room, "marker", "after the others").status());
        assertEquals(List.of(markerSeq), newMessageSeqs(socket, 1), "a message delivered twice");
    }

    private ReferenceServer node(BusFaults faults) {
        return ReferenceServer.builder().apiKey(KEY).sendRateLimit(100_000, 100_000)
                .databaseUrl(pg.jdbcUrl(), pg.user(), null).databaseSchema(schema).busFaults(faults).build().start();
    }
}
