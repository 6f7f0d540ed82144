package dev.svc.chat.reference.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.TenantSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data directory stays within {@value #MAX_RATIO} times its live data while the server writes: after
 * {@code -Ddatadirsize.messages} sends (default 3,000), an edit of every third, a receipt after each, and the
 * push outbox trimmed as the server trims it, the directory (the SQLite file, its log and the log's index) is
 * measured against a {@code VACUUM INTO} copy of the database, with the database open as a running server
 * holds it. Prints the sizes at each tenth of the run.
 */
class DataDirSizeTest {

    static final double MAX_RATIO = 3.0;
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void theDirectoryStaysWithinThreeTimesItsLiveData() throws Exception {
        int messages = Integer.getInteger("datadirsize.messages", 3_000);
        Path data = Files.createDirectories(dir.resolve("data"));
        try (Database db = Database.sqlite(data)) {
            JdbcStore store = new JdbcStore(db);
            List<String> rooms = DataDirKillChild.setUp(store);
            double worst = 0;
            for (int n = 1; n <= messages; n++) {
                String room = rooms.get(n % rooms.size());
                Message m = store.appendMessage(DataDirKillChild.TENANT, room, "u" + (n % DataDirKillChild.USERS),
                        "k" + n, DataDirKillChild.text("message " + n + " " + "x".repeat(n % 200)), MessageLinks.NONE,
                        NOW.plusMillis(n)).message();
                if (n % 3 == 0) {
                    store.replaceMessage(DataDirKillChild.TENANT, m.edited(DataDirKillChild.text("edited " + n),
                            List.of(), NOW.plusMillis(n)));
                }
                store.putReceipt(DataDirKillChild.TENANT, new Receipt(room, "u" + (n % 7), m.id(), m.seq(),
                        NOW.plusMillis(n)));
                if (n % (messages / 10) == 0) {
                    long live = vacuumedSize(db, dir.resolve("copy-" + n + ".sqlite"));
                    long size = size(data);
                    double ratio = (double) size / live;
                    worst = Math.max(worst, ratio);
                    System.out.printf("after %d sends: directory %d KB (%s), live data %d KB, ratio %.2f%n", n,
                            size / 1024, files(data), live / 1024, ratio);
                }
            }
            assertTrue(worst <= MAX_RATIO, "the directory reached " + worst + " times its live data");
        }
    }

    /** Returns the size of a {@code VACUUM INTO} copy of the database: its live data, packed. */
    static long vacuumedSize(Database db, Path copy) throws IOException {
        db.tx(c -> { // VACUUM cannot run in a transaction: commit the one tx() began, begin another after it
            try (Statement st = c.createStatement()) {
                st.execute("COMMIT");
                st.execute("VACUUM INTO '" + copy.toAbsolutePath() + "'");
                st.execute("BEGIN IMMEDIATE");
            }
            return null;
        });
        long size = Files.size(copy);
        Files.delete(copy);
        return size;
    }

    static long size(Path data) throws IOException {
        try (Stream<Path> files = Files.list(data)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    private static String files(Path data) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(data)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                if (Files.isRegularFile(f) && f.toFile().length() > 0) {
                    out.add(f.getFileName() + " " + f.toFile().length() / 1024 + " KB");
                }
            }
        }
        return String.join(", ", out);
    }
}
