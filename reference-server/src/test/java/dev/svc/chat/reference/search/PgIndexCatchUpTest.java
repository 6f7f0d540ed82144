package dev.svc.chat.reference.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.EmbeddedPg;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.JdbcStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL index built by the catch-up at start from a store it never saw (a new or dropped
 * {@code message_search}): written a page at a time, it finds every message in its current state, over more than
 * one page of a room's changes.
 */
class PgIndexCatchUpTest {

    private static List<JsonNode> text(String text) {
        return List.of(JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text));
    }

    private static List<String> found(SearchIndex index, String room, String q) {
        List<String> ids = new ArrayList<>();
        for (SearchIndex.Hit hit : index.search(new SearchIndex.Request("t", Set.of(room), null, null,
                QueryParser.parse(q), null, 50))) {
            ids.add(hit.messageId());
        }
        return ids;
    }

    @Test
    void findsEveryMessageInItsCurrentStateOverSeveralPages() {
        EmbeddedPg pg = EmbeddedPg.shared();
        String schema = "catch_up_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
        try (Database db = Database.postgres(pg.jdbcUrl(), pg.user(), null, schema);
             JdbcStore store = new JdbcStore(db)) {
            store.createTenant(new TenantRecord("t", "sk_test_catch_up_key", new byte[32]), TenantSettings.defaults(true));
            Room room = store.createRoom("t", "r", List.of("alice", "bob"), Instant.EPOCH);
            List<Message> sent = new ArrayList<>();
            for (int i = 0; i < 1203; i++) {
                sent.add(store.appendMessage("t", room.id(), "alice", "c" + i,
                        text(i % 100 == 0 ? "hundred word" + i : "plain word" + i), Instant.EPOCH.plusMillis(i))
                        .message());
            }
            Message edited = sent.get(500);
            store.changeMessage("t", new Message(edited.id(), edited.roomId(), edited.seq(), edited.rev(),
                    edited.senderId(), text("changed text"), edited.clientMessageId(), edited.createdAt(),
                    Instant.EPOCH, null, edited.reactions()));
            store.changeMessage("t", sent.get(700).deleted(Instant.EPOCH));

            PgSearchIndex index = new PgSearchIndex(db);
            assertEquals(1203, IndexCatchUp.run(db, store, index, index.indexedRevs()));

            // newest first: 1200, 1100, ... 0, without the edited 500 and the deleted 700
            List<String> hundreds = new ArrayList<>();
            for (int i = 1200; i >= 0; i -= 100) {
                if (i != 500 && i != 700) {
                    hundreds.add(sent.get(i).id());
                }
            }
            assertEquals(hundreds, found(index, room.id(), "hundred"));
            assertEquals(List.of(edited.id()), found(index, room.id(), "changed"));
            assertEquals(List.of(sent.get(1202).id()), found(index, room.id(), "word1202"));
            // a second catch-up finds nothing left to write
            assertEquals(0, IndexCatchUp.run(db, store, index, index.indexedRevs()));
        }
    }
}
