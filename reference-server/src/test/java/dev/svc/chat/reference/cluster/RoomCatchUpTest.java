package dev.svc.chat.reference.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.JdbcStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a catch-up hands the sockets, on a real (SQLite) database: the revisions this node has not handed them,
 * each message once in its latest state, in ascending rev, as {@code new-message} when its new message was
 * missed too, else as {@code message-updated}; nothing from before the baseline; and a notification that
 * arrives after its revision was caught up is recognised as handed already.
 */
class RoomCatchUpTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;
    private Database db;
    private JdbcStore store;
    private final List<String> delivered = new ArrayList<>();
    private final EventPublisher recorder = (tenantId, room, event, payload) -> {
        Message m = (Message) payload;
        delivered.add(event + " seq " + m.seq() + " rev " + m.rev() + " " + m.parts().get(0).path("text").asText());
    };
    /** The holes' clock, moved by hand. */
    private final AtomicLong nanos = new AtomicLong(1);
    private final RoomRevisions revisions = new RoomRevisions(nanos::get);
    private RoomCatchUp catchUp;
    private String roomId;

    @BeforeEach
    void database() throws Exception {
        db = Database.sqlite(Files.createDirectories(dir.resolve("db")));
        store = new JdbcStore(db);
        store.createTenant(new TenantRecord("t", "sk_test_catchup_unit", new byte[32]), TenantSettings.defaults(true));
        store.ensureUser("t", "alice", NOW);
        Room room = store.createRoom("t", "r", List.of("alice"), NOW);
        roomId = room.id();
        catchUp = new RoomCatchUp(revisions, recorder, java.util.Map::of, store, db);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void catchesUpWhatTheSocketsWereNotHandedOnceEachInRevOrder() {
        append("before-1");
        append("before-2");
        catchUp.baseline(); // the node starts listening: revisions 1 and 2 were before its sockets
        Message third = append("third"); // rev 3, its notification lost
        append("fourth"); // rev 4, handed to the sockets
        revisions.room("t", roomId).note(4, 4);
        Message edited = store.replaceMessage("t", withText(third, "third, edited")); // rev 5, lost too

        catchUp.requestAll();
        catchUp.runDue();

        // the third message was never handed: it goes as new, in its latest state (rev 5); rev 4 is not repeated
        assertEquals(List.of("new-message seq 3 rev 5 third, edited"), delivered);
        RoomRevisions.Room room = revisions.room("t", roomId);
        assertEquals(5, room.floor());
        assertTrue(room.has(3), "the notification of rev 3, arriving late, is dropped");

        // an edit of a message the sockets were handed goes as message-updated
        store.replaceMessage("t", withText(edited, "third, edited twice")); // rev 6
        catchUp.requestAll();
        catchUp.runDue();
        assertEquals("message-updated seq 3 rev 6 third, edited twice", delivered.get(1));
        catchUp.requestAll();
        catchUp.runDue();
        assertEquals(2, delivered.size(), "nothing handed twice");
    }

    @Test
    void aMessageHandedOnlyAsAnUpdateCountsAsKnown() {
        catchUp.baseline();
        Message first = append("one"); // rev 1: its notification lost
        store.replaceMessage("t", withText(first, "one, edited")); // rev 2: handed as message-updated
        RoomRevisions.Room room = revisions.room("t", roomId);
        room.note(2, 0);

        catchUp.requestAll();
        catchUp.runDue();

        assertEquals(List.of(), delivered, "its latest state was handed already");
        assertEquals(2, room.floor());
        assertTrue(room.hasSeq(1), "its seq counts as handed (no seq waits above the floor for ever)");
    }

    @Test
    void aHoleIsReadFromTheDatabaseOnlyAfterItsGrace() throws Exception {
        catchUp.baseline();
        append("one"); // rev 1: its notification is still on its way
        append("two");
        revisions.room("t", roomId).note(2, 2);
        catchUp.runDue();
        assertEquals(List.of(), delivered, "a fresh hole waits for its notification");

        nanos.addAndGet(RoomRevisions.HOLE_GRACE_NANOS - 1);
        catchUp.runDue();
        assertEquals(List.of(), delivered, "a hole just younger than its grace still waits");
        nanos.incrementAndGet();
        catchUp.runDue();
        assertEquals(List.of("new-message seq 1 rev 1 one"), delivered);
        assertEquals(2, revisions.room("t", roomId).floor());
    }

    private Message append(String text) {
        JsonNode part = JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text);
        return store.appendMessage("t", roomId, "alice", "c-" + text, List.of(part), NOW).message();
    }

    private static Message withText(Message m, String text) {
        JsonNode part = JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text);
        return new Message(m.id(), m.roomId(), m.seq(), m.rev(), m.senderId(), List.of(part), m.clientMessageId(),
                m.createdAt(), NOW, null, m.reactions());
    }
}
