package dev.svc.chat.reference.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.TenantSettings;
import java.io.IOException;
import java.lang.management.ManagementFactory;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link H2Compaction}: closing H2 with {@code SHUTDOWN COMPACT} and opening it again shrinks the file to the
 * size of a packed copy and keeps every change; transactions asked for meanwhile wait and then succeed.
 * {@code -Dh2compact.messages=36000 -Dh2compact.asTheServer=true} measures the pause with an hour's soak of
 * messages (default 4,000), compacting on the way whenever the file is 2.5 times its last packed size, as
 * the server's policy does.
 */
class H2CompactionTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final int ROOMS = 20;

    @TempDir
    Path dir;

    @Test
    void compactionShrinksTheFileToAPackedCopyAndKeepsEveryChange() throws Exception {
        int messages = Integer.getInteger("h2compact.messages", 4_000);
        boolean asTheServer = Boolean.getBoolean("h2compact.asTheServer");
        Path data = Files.createDirectories(dir.resolve("data"));
        List<String> roomIds = new ArrayList<>();
        List<Message> edited = new ArrayList<>();
        H2Compaction.Result result;
        try (Database db = Database.h2(data, false, H2Compaction.Policy.NEVER)) {
            JdbcStore store = new JdbcStore(db);
            List<String> users = setUp(store, roomIds);
            Random random = new Random(7);
            long start = System.nanoTime();
            long packed = 0;
            for (int i = 0; i < messages; i++) {
                if (asTheServer && i % 100 == 0 && fileSize(data) > Math.max(1 << 20, 2.5 * packed)) {
                    H2Compaction.Result r = db.compactH2();
                    packed = r.bytesAfter();
                    System.out.printf("H2CompactionTest: at %d messages from %d KB to %d KB, requests waited %d ms"
                            + " (load %s)%n", i, r.bytesBefore() / 1024, packed / 1024, r.pauseMillis(), load());
                }
                Message m = store.appendMessage("t", roomIds.get(random.nextInt(ROOMS)), users.get(random.nextInt(40)),
                        UUID.randomUUID().toString(), text("message " + i), MessageLinks.NONE, NOW).message();
                if (i % 3 == 0) { // an edit of a recent message, the soak's and the chat tests' other change
                    edited.add(store.replaceMessage("t", edit(m, "edited " + i)));
                }
            }
            long writeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            result = db.compactH2();
            assertNotNull(result, "a compaction with no transaction in progress is not put off");
            System.out.printf("H2CompactionTest: %d messages written in %d ms; compaction from %d KB to %d KB,"
                    + " requests waited %d ms (load %s)%n", messages, writeMillis, result.bytesBefore() / 1024,
                    result.bytesAfter() / 1024, result.pauseMillis(), load());
            assertEquals(result.bytesAfter(), fileSize(data));
            // the reopened pool serves: every message is there, in its latest state, and a send goes on at seq+1
            assertEverythingStored(store, roomIds, edited, messages);
            assertEquals(roomLastSeq(store, roomIds.get(0)) + 1, store.appendMessage("t", roomIds.get(0), "u0", "after",
                    text("after"), MessageLinks.NONE, NOW).message().seq());
        }
        // without compaction H2 writes a chunk a commit (40 to 50 times a packed copy measured before)
        assertTrue(asTheServer || result.bytesBefore() >= 5 * result.bytesAfter(), () -> "compaction went from "
                + result.bytesBefore() + " to " + result.bytesAfter() + " bytes");
        long packed = packedCopySize(data, messages + 1);
        assertTrue(result.bytesAfter() <= 1.2 * packed, () -> "compacted to " + result.bytesAfter()
                + " bytes, a packed copy is " + packed);
        try (Database db = Database.h2(data, false, H2Compaction.Policy.NEVER)) { // a restart reads it too
            assertEverythingStored(new JdbcStore(db), roomIds, edited, messages + 1);
        }
    }

    @Test
    void transactionsAskedForDuringACompactionWaitAndSucceed() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        ExecutorService threads = Executors.newFixedThreadPool(6);
        try (Database db = Database.h2(data, false, H2Compaction.Policy.NEVER)) {
            JdbcStore store = new JdbcStore(db);
            List<String> roomIds = new ArrayList<>();
            List<String> users = setUp(store, roomIds);
            // a transaction in progress holds the compaction off; sends asked for after it wait behind it
            CountDownLatch inTransaction = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Future<Integer> held = threads.submit(() -> db.tx(c -> {
                inTransaction.countDown();
                await(release);
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM rooms")) {
                    rs.next();
                    return rs.getInt(1);
                }
            }));
            assertTrue(inTransaction.await(10, TimeUnit.SECONDS));
            Future<H2Compaction.Result> compaction = threads.submit(db::compactH2);
            awaitTrue(() -> db.gateQueueLength() == 1, "the compaction waits for the transaction");
            List<Future<Message>> sends = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                String key = "waiting-" + i;
                sends.add(threads.submit(() -> store.appendMessage("t", roomIds.get(0), users.get(0), key,
                        text(key), MessageLinks.NONE, NOW).message()));
            }
            awaitTrue(() -> db.gateQueueLength() == 4, "the sends wait behind the compaction");
            assertFalse(sends.stream().anyMatch(Future::isDone));
            release.countDown();
            assertEquals(ROOMS, held.get(10, TimeUnit.SECONDS));
            assertNotNull(compaction.get(30, TimeUnit.SECONDS));
            List<Long> seqs = new ArrayList<>();
            for (Future<Message> send : sends) {
                seqs.add(send.get(30, TimeUnit.SECONDS).seq());
            }
            assertEquals(List.of(1L, 2L, 3L), seqs.stream().sorted().toList());

            // under a steady load of sends, compactions one after the other: no send fails, none is lost
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger sent = new AtomicInteger();
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int writer = w;
                writers.add(threads.submit(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        try {
                            store.appendMessage("t", roomIds.get(1 + writer), users.get(writer), writer + "-" + i,
                                    text("load " + i), MessageLinks.NONE, NOW);
                            sent.incrementAndGet();
                        } catch (RuntimeException e) {
                            errors.add(e);
                        }
                    }
                }));
            }
            int compactions = 0;
            while (compactions < 10) {
                int before = sent.get();
                awaitTrue(() -> sent.get() > before + 20, "sends between compactions");
                if (db.compactH2() != null) {
                    compactions++;
                }
            }
            stop.set(true);
            for (Future<?> w : writers) {
                w.get(30, TimeUnit.SECONDS);
            }
            assertEquals(List.of(), List.copyOf(errors));
            long stored = 0;
            for (int w = 0; w < 4; w++) {
                stored += roomLastSeq(store, roomIds.get(1 + w));
            }
            assertEquals(sent.get(), stored);
        } finally {
            threads.shutdownNow();
            assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void aCompactionIsDueWhenTheFileOutgrewItsLastPackedSizeAndTheLastOneIsLongEnoughAgo() {
        H2Compaction.Policy p = H2Compaction.Policy.SERVER;
        long mb = 1L << 20;
        assertTrue(p.due(26 * mb, 10 * mb, 60_000, 500));
        assertFalse(p.due(24 * mb, 10 * mb, 60_000, 500), "under 2.5 times the last packed size");
        assertFalse(p.due(3 * mb, 0, 60_000, 500), "under 4 MB");
        assertTrue(p.due(5 * mb, 0, 60_000, 500), "the live size is unknown after opening");
        assertFalse(p.due(26 * mb, 10 * mb, 19_000, 500), "under 20 s after the last one");
        assertFalse(p.due(26 * mb, 10 * mb, 30_000, 2_000), "under 20 pauses after the last one");
    }

    private static List<String> setUp(JdbcStore store, List<String> roomIds) {
        store.createTenant(new TenantRecord("t", "sk_test_compaction", new byte[32]), TenantSettings.defaults(true));
        List<String> users = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            users.add("u" + i);
            store.ensureUser("t", "u" + i, NOW);
        }
        for (int r = 0; r < ROOMS; r++) {
            roomIds.add(store.createRoom("t", "r" + r, users.subList(r, r + 10), NOW).id());
        }
        return users;
    }

    private static void assertEverythingStored(JdbcStore store, List<String> roomIds, List<Message> edited,
            int messages) {
        long stored = 0;
        for (String roomId : roomIds) {
            stored += roomLastSeq(store, roomId);
        }
        assertEquals(messages, stored);
        for (Message m : edited) {
            assertEquals(m.parts(), store.message("t", m.roomId(), m.id()).orElseThrow().parts());
        }
    }

    private static long roomLastSeq(JdbcStore store, String roomId) {
        return store.room("t", roomId).orElseThrow().lastMessageSeq();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 30 s: " + what);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static Message edit(Message m, String text) {
        return new Message(m.id(), m.roomId(), m.seq(), m.rev(), m.senderId(), text(text), m.clientMessageId(),
                m.createdAt(), NOW, null, m.reactions());
    }

    private static List<JsonNode> text(String text) {
        return List.of(JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text));
    }

    private static String load() {
        return String.format("%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static long fileSize(Path data) throws IOException {
        return Files.size(data.resolve(Database.H2_FILE + ".mv.db"));
    }

    /** The size of the database once every live page is written anew, tightly (H2's SHUTDOWN COMPACT). */
    private long packedCopySize(Path data, int messages) throws Exception {
        Path copy = Files.createDirectories(dir.resolve("copy"));
        try (Stream<Path> files = Files.list(data)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        String password = Files.readString(copy.resolve(H2Password.FILE)).trim();
        String url = "jdbc:h2:file:" + copy.toAbsolutePath().resolve(Database.H2_FILE)
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE";
        try (Connection c = DriverManager.getConnection(url, "sa", password); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM messages")) {
                assertTrue(rs.next() && rs.getLong(1) == messages);
            }
            st.execute("SHUTDOWN COMPACT");
        }
        return fileSize(copy);
    }
}
