package dev.svc.chat.reference.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.TenantSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The H2 file under many small commits ({@code WRITE_DELAY=0}: a chunk each) stays within a small multiple of
 * its live data (the size of a packed copy) when compaction runs, driven here by the test (a run every
 * {@link #COMMITS_PER_RUN} commits, some ten seconds of the soak's sends) instead of the clock.
 */
class H2CompactionTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final int MESSAGES = 4_000;
    private static final int ROOMS = 20;
    private static final int COMMITS_PER_RUN = 100;

    @TempDir
    Path dir;

    @Test
    void fileStaysWithinASmallMultipleOfItsLiveDataUnderSendsAndEdits() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        long size;
        List<String> roomIds = new ArrayList<>();
        List<Message> edited = new ArrayList<>();
        try (Database db = Database.h2(data, true, 0)) {
            // H2 reuses a chunk's space 45 s after its last page died (the disk's write buffers); the test writes
            // in seconds, so without this it would measure that window, not what compaction leaves
            db.tx(c -> {
                try (Statement st = c.createStatement()) {
                    st.execute("SET RETENTION_TIME 0");
                }
                return null;
            });
            JdbcStore store = new JdbcStore(db);
            store.createTenant(new TenantRecord("t", "sk_test_compaction", new byte[32]), TenantSettings.defaults(true));
            List<String> users = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                users.add("u" + i);
                store.ensureUser("t", "u" + i, NOW);
            }
            for (int r = 0; r < ROOMS; r++) {
                roomIds.add(store.createRoom("t", "r" + r, users.subList(r, r + 10), NOW).id());
            }
            Random random = new Random(7);
            int commits = 0;
            for (int i = 0; i < MESSAGES; i++) {
                String roomId = roomIds.get(random.nextInt(ROOMS));
                Message m = store.appendMessage("t", roomId, users.get(random.nextInt(40)),
                        UUID.randomUUID().toString(), text("message " + i), MessageLinks.NONE, NOW).message();
                commits++;
                if (i % 3 == 0) { // an edit of a recent message, the soak's and the chat tests' other change
                    edited.add(store.replaceMessage("t", edit(m, "edited " + i)));
                    commits++;
                }
                if (commits >= COMMITS_PER_RUN) {
                    db.compactH2();
                    commits = 0;
                }
            }
            size = fileSize(data);
        }
        long live = compactedCopySize(data);
        // a packed copy fills every page and holds no chunk of the last commits; the reverted compaction's test
        // found the file 40 to 50 times the copy without compaction. 6.4 times measured (2026-11-29).
        assertTrue(size <= 10 * live, "the H2 file is " + size + " bytes for " + live + " bytes of live data (a full"
                + " compaction of a copy), " + String.format("%.1f", (double) size / live) + " times");

        // compaction moved pages, not data: every message is there, in its latest state
        try (Database db = Database.h2(data, true, 0)) {
            JdbcStore store = new JdbcStore(db);
            int stored = 0;
            for (String roomId : roomIds) {
                stored += (int) store.room("t", roomId).orElseThrow().lastMessageSeq();
            }
            assertEquals(MESSAGES, stored);
            for (Message m : edited.subList(edited.size() - 50, edited.size())) {
                assertEquals(m.parts(), store.message("t", m.roomId(), m.id()).orElseThrow().parts());
            }
        }
    }

    private static Message edit(Message m, String text) {
        return new Message(m.id(), m.roomId(), m.seq(), m.rev(), m.senderId(), text(text), m.clientMessageId(),
                m.createdAt(), NOW, null, m.reactions());
    }

    private static List<JsonNode> text(String text) {
        return List.of(JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text));
    }

    private static long fileSize(Path data) throws IOException {
        return Files.size(data.resolve(Database.H2_FILE + ".mv.db"));
    }

    /** The size of the database once every live page is written anew, tightly (H2's SHUTDOWN COMPACT). */
    private long compactedCopySize(Path data) throws Exception {
        Path copy = Files.createDirectories(dir.resolve("copy"));
        try (Stream<Path> files = Files.list(data)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        String password = Files.readString(copy.resolve(H2Password.FILE)).trim();
        String url = "jdbc:h2:file:" + copy.toAbsolutePath().resolve(Database.H2_FILE) + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE";
        try (Connection c = DriverManager.getConnection(url, "sa", password); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM messages")) {
                assertTrue(rs.next() && rs.getLong(1) == MESSAGES);
            }
            st.execute("SHUTDOWN COMPACT");
        }
        return fileSize(copy);
    }
}
