package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar's {@code --data-dir} mode: a server in a child JVM is killed with {@code kill -9} while four clients
 * send, and restarted on the same directory. Everything it acknowledged with a 2xx is there: users, rooms,
 * members, messages with their seq, rev, edits and reactions, receipts, device tokens, the tenant's token
 * secret (old tokens still work); seq and rev go on where they stopped, and a retried send answers the first
 * message.
 */
class KillRestartTest {

    private static final String KEY = "sk_test_durable_0123456789";

    @TempDir
    Path dir;

    private record Acked(String roomId, String clientMessageId, String id, long seq) {
    }

    @Test
    void killNineLosesNothingAcknowledged() throws Exception {
        String alice;
        String bob;
        String room1;
        String room2;
        String edited;
        long roomRevBeforeKill;
        Queue<Acked> acked = new ConcurrentLinkedQueue<>();
        CountDownLatch enough = new CountDownLatch(200); // counted down by each acknowledged send
        try (ServerProcess first = ServerProcess.start(KEY, "--data-dir", dir.toString(),
                "--send-rate", "100000", "--send-burst", "100000")) {
            Http http = new Http(first.port());
            assertEquals(200, http.apiKey("POST", "/v1/users", KEY, Map.of("userId", "alice", "username", "Alice"))
                    .status());
            room1 = http.createRoom(KEY, "alice", "bob");
            room2 = http.createRoom(KEY, "alice", "bob", "carol");
            alice = http.mint(KEY, "alice");
            bob = http.mint(KEY, "bob");
            Http.Response m1 = http.sendText(alice, room1, "first", "hello");
            assertEquals(201, m1.status());
            acked.add(new Acked(room1, "first", m1.json().get("id").asText(), 1));
            edited = m1.json().get("id").asText();
            assertEquals(200, http.bearer("PATCH", "/v1/chat/rooms/" + room1 + "/messages/" + edited, alice,
                    Map.of("parts", List.of(Map.of("type", "text", "text", "hello, edited")))).status());
            assertEquals(200, http.bearer("POST", "/v1/chat/rooms/" + room1 + "/messages/" + edited + "/reactions",
                    bob, Map.of("emoji", "👍")).status());
            assertEquals(200, http.bearer("POST", "/v1/chat/rooms/" + room1 + "/read", bob,
                    Map.of("messageId", edited)).status());
            assertEquals(201, http.bearer("POST", "/v1/push/devices", bob,
                    Map.of("token", "bob-device-1", "platform", "fcm")).status());
            roomRevBeforeKill = http.bearer("GET", "/v1/chat/rooms/" + room1 + "/changes?since=0", alice, null)
                    .json().get("rev").asLong();
            assertEquals(3, roomRevBeforeKill, "send, edit, reaction");

            // Four senders on two rooms, killed mid-flight.
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> senders = new ArrayList<>();
            String[][] plan = {{alice, room1, "a1-"}, {bob, room1, "b1-"}, {alice, room2, "a2-"}, {bob, room2, "b2-"}};
            for (String[] p : plan) {
                Thread t = new Thread(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        String cmid = p[2] + i;
                        try {
                            Http.Response r = http.sendText(p[0], p[1], cmid, "message " + cmid);
                            if (r.status() != 201) {
                                return;
                            }
                            acked.add(new Acked(p[1], cmid, r.json().get("id").asText(), r.json().get("seq").asLong()));
                            enough.countDown();
                        } catch (RuntimeException connectionGone) {
                            return;
                        }
                    }
                }, "sender-" + p[2]);
                t.start();
                senders.add(t);
            }
            assertTrue(enough.await(60, TimeUnit.SECONDS), "sends were acknowledged before the kill: " + acked.size());
            first.kill();
            stop.set(true);
            for (Thread t : senders) {
                t.join(30_000);
            }
        }
        int ackedCount = acked.size();

        try (ServerProcess second = ServerProcess.start(KEY, "--data-dir", dir.toString())) {
            Http http = new Http(second.port());
            // The tenant's token secret survived: tokens minted before the kill still work.
            for (String room : List.of(room1, room2)) {
                List<JsonNode> history = history(http, alice, room);
                for (int i = 0; i < history.size(); i++) {
                    assertEquals(i + 1, history.get(i).get("seq").asLong(), "seq without gap or duplicate");
                }
                for (Acked a : acked) {
                    if (a.roomId().equals(room)) {
                        assertTrue(a.seq() <= history.size(), "acknowledged seq " + a.seq() + " kept");
                        JsonNode stored = history.get((int) a.seq() - 1);
                        assertEquals(a.id(), stored.get("id").asText());
                        assertEquals(a.clientMessageId(), stored.get("clientMessageId").asText());
                    }
                }
                // seq and rev go on where they stopped.
                long rev = http.bearer("GET", "/v1/chat/rooms/" + room + "/changes?since=0", alice, null)
                        .json().get("rev").asLong();
                Http.Response next = http.sendText(alice, room, "after-restart", "next");
                assertEquals(201, next.status());
                assertEquals(history.size() + 1, next.json().get("seq").asLong());
                assertEquals(rev + 1, next.json().get("rev").asLong());
            }
            // An idempotent retry after the restart answers the first message.
            Http.Response retry = http.sendText(alice, room1, "first", "hello");
            assertEquals(200, retry.status());
            assertEquals(edited, retry.json().get("id").asText());
            assertEquals(1, retry.json().get("seq").asLong());
            assertEquals("hello, edited", retry.json().get("parts").get(0).get("text").asText());
            assertEquals("bob", retry.json().get("reactions").get("👍").get(0).asText());
            // Users, membership, receipts and device tokens.
            assertEquals("Alice", http.apiKey("GET", "/v1/users/alice", KEY, null).json().get("username").asText());
            JsonNode rooms = http.bearer("GET", "/v1/chat/rooms", bob, null).json();
            assertEquals(2, (rooms.isArray() ? rooms : rooms.get("rooms")).size());
            JsonNode receipts = http.bearer("GET", "/v1/chat/rooms/" + room1 + "/receipts", alice, null).json();
            assertTrue(receipts.toString().contains(edited), receipts.toString());
            assertEquals(204, http.bearer("DELETE", "/v1/push/devices/bob-device-1", bob, null).status());
        }
        System.out.println("KillRestartTest: " + ackedCount + " sends acknowledged before kill -9, all kept");
    }

    private static List<JsonNode> history(Http http, String token, String roomId) {
        List<JsonNode> all = new ArrayList<>();
        long after = 0;
        while (true) {
            JsonNode page = http.bearer("GET", "/v1/chat/rooms/" + roomId + "/messages?limit=100&after=" + after,
                    token, null).json();
            page.get("messages").forEach(all::add);
            if (!page.get("hasMore").asBoolean()) {
                return all;
            }
            after = all.get(all.size() - 1).get("seq").asLong();
        }
    }
}
