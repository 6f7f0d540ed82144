package dev.svc.chat.reference.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.EmbeddedPg;
import dev.svc.chat.reference.auth.RandomIds;
import dev.svc.chat.reference.model.Json;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.RoomPosition;
import dev.svc.chat.reference.model.TenantSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Store#positionsOf}, which the gateway reads once per token handshake: every room of the user (1,000
 * here) with its newest seq and rev, none it left and none of another tenant, on each backend.
 */
class PositionsOfTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final int ROOMS = 1_000;

    @ParameterizedTest
    @ValueSource(strings = {"memory", "sqlite", "postgres"})
    void everyRoomOfTheUserWithItsNewestSeqAndRev(String backend) throws Exception {
        try (Store store = store(backend)) {
            for (String tenant : List.of("t1", "t2")) {
                store.createTenant(new TenantRecord(tenant, "sk_test_" + tenant + "_positions", RandomIds.bytes(32)),
                        TenantSettings.defaults(true));
                store.ensureUser(tenant, "alice", NOW);
                store.ensureUser(tenant, "bob", NOW);
            }
            Map<String, String> expected = new HashMap<>();
            String left = null;
            for (int i = 0; i < ROOMS; i++) {
                Room room = store.createRoom("t1", "r" + i, List.of("alice", "bob"), NOW);
                long seq = i % 100 == 0 ? 2 : 0;
                long rev = seq;
                for (int s = 1; s <= seq; s++) {
                    store.appendMessage("t1", room.id(), "bob", "c" + s, text("m" + s), NOW);
                }
                if (i == 7) {
                    Message first = store.appendMessage("t1", room.id(), "bob", "c1", text("m1"), NOW).message();
                    store.appendMessage("t1", room.id(), "bob", "c2", text("m2"), NOW);
                    store.replaceMessage("t1", first); // an edit: the room's next rev
                    seq = 2;
                    rev = 3;
                }
                expected.put(room.id(), seq + "/" + rev);
                if (i == 9) {
                    left = room.id();
                }
            }
            store.removeMember("t1", left, "alice");
            expected.remove(left);
            store.createRoom("t2", "elsewhere", List.of("alice"), NOW);
            store.createRoom("t1", "bob's", List.of("bob"), NOW);

            List<RoomPosition> positions = store.positionsOf("t1", "alice");
            Map<String, String> read = new HashMap<>();
            for (RoomPosition p : positions) {
                assertEquals(null, read.put(p.id(), p.seq() + "/" + p.rev()), "a room listed twice: " + p);
            }
            assertEquals(expected, read);
            assertEquals(List.of(), store.positionsOf("t1", "carol"));
            long fastest = Long.MAX_VALUE;
            for (int i = 0; i < 20; i++) {
                long started = System.nanoTime();
                store.positionsOf("t1", "alice");
                fastest = Math.min(fastest, System.nanoTime() - started);
            }
            // a figure for docs/internals/server.md, not an assertion (the machine's load varies)
            System.out.printf("positionsOf on %s: %d rooms, fastest of 20 reads %d us%n", backend, positions.size(),
                    fastest / 1_000);
        }
    }

    private static List<JsonNode> text(String text) {
        return List.of(Json.newMapper().createObjectNode().put("type", "text").put("text", text));
    }

    private static Store store(String backend) throws IOException {
        return switch (backend) {
            case "memory" -> new InMemoryStore();
            case "sqlite" -> {
                Files.createDirectories(Path.of("target"));
                yield new JdbcStore(Database.sqlite(Files.createTempDirectory(Path.of("target"), "positions-of-")));
            }
            case "postgres" -> {
                EmbeddedPg pg = EmbeddedPg.shared();
                yield new JdbcStore(Database.postgres(pg.jdbcUrl(), pg.user(), null,
                        "positions_of_" + ProcessHandle.current().pid() + "_" + System.nanoTime()));
            }
            default -> throw new IllegalArgumentException(backend);
        };
    }
}
