package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.EmbeddedPg;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.JdbcStore;
import dev.svc.chat.reference.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The positions of a CONNECT answer against the fan-out (contract section 8): a handshake is held with latches
 * in {@link FanOutSeam} at each of its steps (before its connection is indexed, between the indexing and the
 * read of the positions, between the read and the answer) while a new message and an edit are committed in
 * one of the user's rooms. Each change must then be at or below the answer's position for the room, or be
 * delivered on the connection after the answer; no event may precede the answer. On memory, SQLite and PostgreSQL.
 */
class ConnectPositionsOrderTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String backend : List.of("memory", "sqlite", "postgres")) {
            for (String step : List.of("registering", "readingPositions", "answering")) {
                cases.add(Arguments.of(backend, step));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, changes while {1}")
    @MethodSource("cases")
    void aChangeDuringTheHandshakeIsAtOrBelowThePositionOrDelivered(String backend, String step) throws Exception {
        try (GatewayHarness gateway = new GatewayHarness(Duration.ofSeconds(25), Duration.ofSeconds(5),
                store(backend))) {
            String room = gateway.room("alice", "bob");
            Message m1 = gateway.send("bob", room, "m1"); // seq 1, rev 1
            String aliceToken = gateway.token("alice");
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean armed = new AtomicBoolean(true);
            gateway.fanOut().seam(new FanOutSeam() {
                @Override
                public void registering(GatewayConnection connection) {
                    hold("registering", connection);
                }

                @Override
                public void readingPositions(GatewayConnection connection) {
                    hold("readingPositions", connection);
                }

                @Override
                public void answering(GatewayConnection connection) {
                    hold("answering", connection);
                }

                private void hold(String at, GatewayConnection connection) {
                    if (at.equals(step) && "alice".equals(connection.userId()) && armed.compareAndSet(true, false)) {
                        held.countDown();
                        await(release);
                    }
                }
            });
            try (RecordingSocket bob = RecordingSocket.connect(gateway.socketUrl(), gateway.token("bob"));
                 RecordingSocket alice = new RecordingSocket(gateway.socketUrl())) {
                alice.expect("0{", WAIT);
                Message m2;
                Message edited;
                try {
                    alice.send("40{\"token\":\"" + aliceToken + "\"}");
                    assertTrue(held.await(WAIT.toSeconds(), TimeUnit.SECONDS), "alice's handshake reached " + step);
                    m2 = gateway.send("bob", room, "m2");
                    edited = gateway.edit("bob", room, m1.id(), "m1 edited");
                    assertEquals(List.of(2L, 3L), List.of(m2.seq(), edited.rev()));
                    // Both fanned out (bob has them) before the handshake goes on.
                    bob.expect("42[\"new-message\"", WAIT);
                    bob.expect("42[\"message-updated\"", WAIT);
                } finally {
                    release.countDown();
                }
                List<String> beforeAnswer = new ArrayList<>();
                String frame = alice.await("40{", WAIT, beforeAnswer);
                if (frame == null) {
                    fail("alice's handshake was not answered within " + WAIT);
                }
                assertTrue(beforeAnswer.stream().noneMatch(f -> f.startsWith("42")), "an event before the answer: "
                        + beforeAnswer);
                JsonNode position = position(JSON.readTree(frame.substring(2)), room);
                long seq = position.get("seq").asLong();
                long rev = position.get("rev").asLong();
                // The read sees what was committed before it: exactly that, whatever the step.
                assertEquals(step.equals("answering") ? "1/1" : "2/3", seq + "/" + rev, "the position of " + frame);
                Set<String> due = new LinkedHashSet<>();
                if (m2.seq() > seq) {
                    due.add("new-message seq " + m2.seq());
                }
                if (edited.rev() > rev) {
                    due.add("message-updated rev " + edited.rev());
                }
                awaitEvents(alice, due);
                // And the connection goes on delivering what comes next.
                gateway.send("bob", room, "m3");
                awaitEvents(alice, new LinkedHashSet<>(List.of("new-message seq 3")));
            }
        }
    }

    /** Waits until every event of {@code due} ("name seq n" or "name rev n") arrived, in that order. */
    private static void awaitEvents(RecordingSocket socket, Set<String> due) throws IOException {
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        List<String> order = new ArrayList<>(due);
        while (!due.isEmpty()) {
            String frame = socket.await("42[", Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (frame == null) {
                fail("not delivered: " + due + "; delivered: " + seen);
            }
            JsonNode event = JSON.readTree(frame.substring(2));
            String name = event.get(0).asText();
            JsonNode message = event.get(1);
            for (String key : List.of(name + " seq " + message.path("seq").asLong(),
                    name + " rev " + message.path("rev").asLong())) {
                if (due.remove(key)) {
                    seen.add(key);
                }
            }
        }
        assertEquals(order, seen, "the delivery order");
    }

    private static JsonNode position(JsonNode answer, String roomId) {
        for (JsonNode room : answer.get("rooms")) {
            if (room.get("id").asText().equals(roomId)) {
                return room;
            }
        }
        throw new AssertionError("room " + roomId + " not in the answer " + answer);
    }

    private static Store store(String backend) throws IOException {
        return switch (backend) {
            case "memory" -> new InMemoryStore();
            case "sqlite" -> {
                Files.createDirectories(Path.of("target"));
                yield new JdbcStore(Database.sqlite(Files.createTempDirectory(Path.of("target"), "positions-sqlite-")));
            }
            case "postgres" -> {
                EmbeddedPg pg = EmbeddedPg.shared();
                yield new JdbcStore(Database.postgres(pg.jdbcUrl(), pg.user(), null,
                        "positions_" + ProcessHandle.current().pid() + "_" + System.nanoTime()));
            }
            default -> throw new IllegalArgumentException(backend);
        };
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("not released within " + WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
