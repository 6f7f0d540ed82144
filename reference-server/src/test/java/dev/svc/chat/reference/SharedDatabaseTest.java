package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two servers on one PostgreSQL schema (the PostgreSQL run of the suites only): concurrent senders on both
 * get seq and rev without a gap or a duplicate, because both are taken under the room row's lock in the
 * database; the same idempotency key sent to both at once stores one message; sockets on either server get
 * the messages sent through both ({@code LISTEN/NOTIFY}), each once.
 */
class SharedDatabaseTest {

    private static final String KEY = "sk_test_shared_0123456789";

    private String schema;
    private EmbeddedPg pg;

    @BeforeEach
    void sharedSchema() {
        assumeTrue("postgres".equals(Backends.current()), "needs the PostgreSQL backend");
        schema = "shared_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
        pg = EmbeddedPg.shared();
    }

    @Test
    void concurrentSendersOnTwoServersGetSeqAndRevWithoutGapOrDuplicate() throws Exception {
        try (ReferenceServer nodeA = node(pg, schema); ReferenceServer nodeB = node(pg, schema)) {
            Http httpA = new Http(nodeA);
            Http httpB = new Http(nodeB);
            String room = httpA.createRoom(KEY, "alice", "bob");
            String alice = httpA.mint(KEY, "alice");
            String bob = httpB.mint(KEY, "bob");
            int perSender = 50;
            Map<Long, String> seqs = new ConcurrentHashMap<>();
            Set<Long> revs = ConcurrentHashMap.newKeySet();
            List<Callable<Void>> senders = new ArrayList<>();
            Object[][] plan = {{httpA, alice, "a-"}, {httpB, bob, "b-"}, {httpA, bob, "c-"}, {httpB, alice, "d-"}};
            for (Object[] p : plan) {
                senders.add(() -> {
                    for (int i = 0; i < perSender; i++) {
                        Http.Response r = ((Http) p[0]).sendText((String) p[1], room, p[2] + "" + i, "x");
                        assertEquals(201, r.status(), r.json().toString());
                        String previous = seqs.put(r.json().get("seq").asLong(), r.json().get("id").asText());
                        assertEquals(null, previous, "a seq given twice");
                        revs.add(r.json().get("rev").asLong());
                    }
                    return null;
                });
            }
            together(senders);
            int total = perSender * plan.length;
            assertEquals(total, seqs.size());
            Set<Long> expected = new HashSet<>();
            for (long i = 1; i <= total; i++) {
                expected.add(i);
            }
            assertEquals(expected, seqs.keySet(), "seq 1.." + total + " without a gap");
            assertEquals(expected, revs, "rev 1.." + total + " without a gap");

            // The same idempotency key on both servers at once: one message.
            List<JsonNode> answers = together(List.of(() -> retry(httpA, alice, room), () -> retry(httpB, alice, room)));
            assertEquals(answers.get(0).get("id").asText(), answers.get(1).get("id").asText());
            assertEquals(total + 1, answers.get(0).get("seq").asLong());
        }
    }

    @Test
    void repliesThroughBothServersCountExactlyOnTheRootAndReachEitherServer() throws Exception {
        try (ReferenceServer nodeA = node(pg, schema); ReferenceServer nodeB = node(pg, schema)) {
            Http httpA = new Http(nodeA);
            Http httpB = new Http(nodeB);
            String room = httpA.createRoom(KEY, "alice", "bob", "carol");
            String alice = httpA.mint(KEY, "alice");
            String bob = httpB.mint(KEY, "bob");
            String root = httpA.sendText(alice, room, "root", "root").json().get("id").asText();
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, httpB.mint(KEY, "carol"))) {
                int perSender = 15;
                List<Callable<Void>> senders = new ArrayList<>();
                Object[][] plan = {{httpA, alice, "a-"}, {httpB, bob, "b-"}};
                for (Object[] p : plan) {
                    senders.add(() -> {
                        for (int i = 0; i < perSender; i++) {
                            Http.Response r = ((Http) p[0]).bearer("POST", "/v1/chat/rooms/" + room + "/messages",
                                    (String) p[1], Map.of("parts", List.of(Map.of("type", "text", "text", "r")),
                                            "clientMessageId", p[2] + "" + i, "threadId", root));
                            assertEquals(201, r.status(), r.json().toString());
                        }
                        return null;
                    });
                }
                together(senders);
                int total = perSender * plan.length;
                JsonNode stored = httpB.bearer("GET", "/v1/chat/rooms/" + room + "/messages/" + root, bob, null)
                        .json();
                assertEquals(total, stored.at("/thread/replyCount").asInt());
                assertEquals(1 + 2L * total, stored.get("rev").asLong(), "a reply and its root's change each a rev");
                assertEquals(List.of("alice", "bob"), sorted(stored.at("/thread/participantIds")));
                Set<Integer> counts = new HashSet<>();
                while (counts.size() < total) {
                    JsonNode update = nextEvent(carolOnB, "message-updated");
                    assertEquals(root, update.get("id").asText());
                    assertTrue(counts.add(update.at("/thread/replyCount").asInt()), "a count seen twice: " + update);
                }
                Set<Integer> expected = new HashSet<>();
                for (int i = 1; i <= total; i++) {
                    expected.add(i);
                }
                assertEquals(expected, counts, "each reply's root change reached a socket on B once");
            }
        }
    }

    private static List<String> sorted(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        out.sort(null);
        return out;
    }

    @Test
    void socketsOnEitherServerGetMessagesSentThroughBoth() throws Exception {
        try (ReferenceServer nodeA = node(pg, schema); ReferenceServer nodeB = node(pg, schema)) {
            Http httpA = new Http(nodeA);
            Http httpB = new Http(nodeB);
            String room = httpA.createRoom(KEY, "alice", "bob", "carol");
            String alice = httpA.mint(KEY, "alice");
            String bob = httpB.mint(KEY, "bob");
            try (SocketClient carolOnA = SocketClient.connectToken(nodeA, httpA.mint(KEY, "carol"));
                 SocketClient carolOnB = SocketClient.connectToken(nodeB, httpB.mint(KEY, "carol"))) {
                // One message through A reaches a socket on B.
                Http.Response first = httpA.sendText(alice, room, "first", "through A");
                assertEquals(201, first.status());
                JsonNode onB = nextNewMessage(carolOnB);
                assertEquals(first.json().get("id").asText(), onB.get("id").asText());
                assertEquals(1, onB.get("seq").asLong());
                assertEquals(1, nextNewMessage(carolOnA).get("seq").asLong());

                // Concurrent senders on both: each socket gets every seq once.
                int perSender = 40;
                List<Callable<Void>> senders = new ArrayList<>();
                Object[][] plan = {{httpA, alice, "a-"}, {httpB, bob, "b-"}};
                for (Object[] p : plan) {
                    senders.add(() -> {
                        for (int i = 0; i < perSender; i++) {
                            assertEquals(201, ((Http) p[0]).sendText((String) p[1], room, p[2] + "" + i, "x").status());
                        }
                        return null;
                    });
                }
                together(senders);
                long total = 1 + perSender * plan.length;
                for (SocketClient socket : List.of(carolOnA, carolOnB)) {
                    Set<Long> seen = new HashSet<>();
                    seen.add(1L);
                    while (seen.size() < total) {
                        long seq = nextNewMessage(socket).get("seq").asLong();
                        assertTrue(seen.add(seq), "seq " + seq + " delivered twice");
                    }
                    assertEquals(total, seen.size());
                }
                // and nothing twice later: the next message is the next new-message on both
                assertEquals(201, httpA.sendText(alice, room, "marker", "x").status());
                for (SocketClient socket : List.of(carolOnA, carolOnB)) {
                    assertEquals(total + 1, nextNewMessage(socket).get("seq").asLong(), "a seq delivered twice");
                }
            }
        }
    }

    @Test
    void aMessageNearTheBodyLimitCrossesServersThoughANotificationHoldsOnly8000Bytes() throws Exception {
        try (ReferenceServer nodeA = node(pg, schema); ReferenceServer nodeB = node(pg, schema)) {
            Http httpA = new Http(nodeA);
            Http httpB = new Http(nodeB);
            String room = httpA.createRoom(KEY, "alice", "carol");
            String alice = httpA.mint(KEY, "alice");
            // ten text parts of 1,500 four-byte characters: ~60 KiB of UTF-8, under the 64 KiB body limit
            String text = "\uD83D\uDE00".repeat(1_500);
            List<Map<String, String>> parts = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                parts.add(Map.of("type", "text", "text", text));
            }
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, httpB.mint(KEY, "carol"))) {
                Http.Response big = httpA.bearer("POST", "/v1/chat/rooms/" + room + "/messages", alice,
                        Map.of("clientMessageId", "big", "parts", parts));
                assertEquals(201, big.status(), big.json().toString());
                Http.Response small = httpA.sendText(alice, room, "small", "after it");
                assertEquals(201, small.status());
                JsonNode first = nextNewMessage(carolOnB);
                assertEquals(big.json().get("id").asText(), first.get("id").asText());
                assertEquals(10, first.get("parts").size());
                assertEquals(text, first.get("parts").get(9).get("text").asText());
                assertEquals(2, nextNewMessage(carolOnB).get("seq").asLong(), "in order behind the large one");
            }
        }
    }

    @Test
    void eventsCrossServersAgainAfterTheListeningConnectionsWereTerminated() throws Exception {
        try (ReferenceServer nodeA = node(pg, schema); ReferenceServer nodeB = node(pg, schema)) {
            Http httpA = new Http(nodeA);
            String room = httpA.createRoom(KEY, "alice", "carol");
            String alice = httpA.mint(KEY, "alice");
            try (SocketClient carolOnB = SocketClient.connectToken(nodeB, new Http(nodeB).mint(KEY, "carol"));
                 java.sql.Connection admin = java.sql.DriverManager.getConnection(pg.jdbcUrl(), pg.user(), null);
                 java.sql.Statement st = admin.createStatement()) {
                assertEquals(201, httpA.sendText(alice, room, "before", "x").status());
                assertEquals(1, nextNewMessage(carolOnB).get("seq").asLong());

                // as a database restart would: every node's LISTEN connection of this schema is cut
                try (java.sql.ResultSet rs = st.executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        + " WHERE query LIKE 'LISTEN%' AND query LIKE '%" + schema + "%'")) {
                    int terminated = 0;
                    while (rs.next()) {
                        terminated += rs.getBoolean(1) ? 1 : 0;
                    }
                    assertEquals(2, terminated, "both nodes' listening connections");
                }
                // sends cross again once the nodes listen again (what was sent meanwhile is caught up from the
                // database: ClusterCatchUpTest)
                long deadline = System.nanoTime() + 20_000_000_000L;
                JsonNode crossed = null;
                for (int i = 0; crossed == null && System.nanoTime() < deadline; i++) {
                    assertEquals(201, httpA.sendText(alice, room, "after-" + i, "x").status());
                    String frame;
                    while (crossed == null && (frame = carolOnB.poll(java.time.Duration.ofMillis(300))) != null) {
                        JsonNode event = Http.JSON.readTree(frame.substring(2));
                        if ("new-message".equals(event.get(0).asText())) {
                            crossed = event.get(1);
                        }
                    }
                }
                assertTrue(crossed != null, "no message crossed to node B after its listening connection was cut");
                assertTrue(crossed.get("seq").asLong() > 1);
            }
        }
    }

    @Test
    void aCallMovesOnceWhenTwoServersRaceOnIt() throws Exception {
        try (ReferenceServer nodeA = node(pg, schema); ReferenceServer nodeB = node(pg, schema)) {
            Http httpA = new Http(nodeA);
            Http httpB = new Http(nodeB);
            String room = httpA.createRoom(KEY, "alice", "bob", "carol");
            String alice = httpA.mint(KEY, "alice");
            String bob = httpA.mint(KEY, "bob");
            for (int round = 0; round < 10; round++) {
                Http.Response started = httpA.bearer("POST", "/v1/chat/rooms/" + room + "/calls", alice,
                        Map.of("kind", "audio"));
                assertEquals(201, started.status(), started.json().toString());
                String callId = started.json().get("id").asText();
                // A second call through the other server is refused: one live call per room.
                assertEquals(409, httpB.bearer("POST", "/v1/chat/rooms/" + room + "/calls", alice,
                        Map.of("kind", "video")).status());
                // Bob accepts through both servers at once: one accept wins, the other is 409.
                List<Integer> statuses = new ArrayList<>(together(List.of(() -> accept(httpA, bob, callId),
                        () -> accept(httpB, bob, callId))));
                java.util.Collections.sort(statuses);
                assertEquals("[200, 409]", statuses.toString(), "round " + round);
                JsonNode active = httpB.bearer("GET", "/v1/chat/rooms/" + room + "/calls/active", alice, null).json();
                assertEquals("[\"alice\",\"bob\"]", active.get("participantIds").toString());
                assertEquals(200, httpB.bearer("POST", "/v1/calls/" + callId + "/end", alice, null).status());
                assertEquals(404, httpA.bearer("GET", "/v1/chat/rooms/" + room + "/calls/active", alice, null)
                        .status());
            }
        }
    }

    @Test
    void presenceCountsEveryServerAndADeadServerStopsCounting() throws Exception {
        try (ReferenceServer nodeA = node(pg, schema);
             ServerProcess nodeC = ServerProcess.start(Map.of("SVC_API_KEY", KEY, "SVC_DB_USER", pg.user()),
                     "--database-url", pg.jdbcUrl(), "--database-schema", schema)) {
            Http httpA = new Http(nodeA);
            Http httpC = new Http(nodeC.port());
            String alice = httpA.mint(KEY, "alice");
            String bobOnC = httpC.mint(KEY, "bob");
            try (SocketClient aliceOnA = SocketClient.connectToken(nodeA, alice);
                 SocketClient bob = SocketClient.connectToken(
                    "ws://127.0.0.1:" + nodeC.port() + "/socket.io/?EIO=4&transport=websocket", bobOnC)) {
                awaitPresence(httpA, alice, true);
                // the tenant-presence events cross servers too: online when bob's connection on C opens ...
                JsonNode online = nextEvent(aliceOnA, "tenant-presence");
                assertEquals("bob", online.get("userId").asText());
                assertTrue(online.get("online").asBoolean());
                long killedAt = System.nanoTime();
                nodeC.kill();
                awaitPresence(httpA, alice, false);
                long seconds = (System.nanoTime() - killedAt) / 1_000_000_000L;
                assertTrue(seconds <= 10, "bob stopped counting " + seconds + " s after his server died");
                // ... and offline when his server dies
                JsonNode offline = nextEvent(aliceOnA, "tenant-presence");
                assertEquals("bob", offline.get("userId").asText());
                assertTrue(!offline.get("online").asBoolean(), offline.toString());
            }
        }
    }

    @Test
    void aServerStartedLaterLearnsWhoIsAlreadyOnlineOnTheOthers() throws Exception {
        try (ReferenceServer nodeA = node(pg, schema)) {
            Http httpA = new Http(nodeA);
            try (SocketClient bobOnA = SocketClient.connectToken(nodeA, httpA.mint(KEY, "bob"))) {
                awaitPresence(httpA, httpA.mint(KEY, "alice"), true);
                // bob came online before B existed: no bus event tells B, only A's listed users at B's first beat
                try (ReferenceServer nodeB = node(pg, schema)) {
                    Http httpB = new Http(nodeB);
                    awaitPresence(httpB, httpB.mint(KEY, "alice"), true);
                }
            }
        }
    }

    /** Waits up to 20 s for {@code GET /v1/presence} to list bob ({@code online}) or not. */
    private static void awaitPresence(Http http, String token, boolean online) throws Exception {
        String last = Conditions.lastRead(() -> http.bearer("GET", "/v1/presence", token, null).json().toString(),
                presence -> presence.contains("\"bob\"") == online, Duration.ofSeconds(20), Duration.ofMillis(100));
        if (last.contains("\"bob\"") != online) {
            throw new AssertionError("bob " + (online ? "never came online" : "stayed online") + ": " + last);
        }
    }

    /**
     * Runs {@code tasks} at the same moment on threads of their own and returns their results in order; an
     * assertion that fails in one fails the test (within 60 s).
     */
    private static <T> List<T> together(List<Callable<T>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> task : tasks) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return task.call();
                }));
            }
            go.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                try {
                    results.add(f.get(60, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw e;
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private static int accept(Http http, String token, String callId) {
        return http.bearer("POST", "/v1/calls/" + callId + "/accept", token, null).status();
    }

    private static ReferenceServer node(EmbeddedPg pg, String schema) {
        return ReferenceServer.builder().apiKey(KEY).sendRateLimit(100_000, 100_000)
                .databaseUrl(pg.jdbcUrl(), pg.user(), null).databaseSchema(schema).build().start();
    }

    /** Returns the payload of the socket's next {@code new-message}, skipping presence events. */
    private static JsonNode nextNewMessage(SocketClient socket) {
        return nextEvent(socket, "new-message");
    }

    /** Returns the payload of the socket's next {@code name} event, skipping others. */
    private static JsonNode nextEvent(SocketClient socket, String name) {
        while (true) {
            JsonNode event = socket.nextEvent();
            if (name.equals(event.get(0).asText())) {
                return event.get(1);
            }
        }
    }

    private static JsonNode retry(Http http, String token, String room) {
        Http.Response r = http.sendText(token, room, "same-key", "once");
        if (r.status() == 500) {
            throw new AssertionError(r.json().toString());
        }
        return r.json();
    }
}
