package dev.svc.chat.reference.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a JVM that commits to a data directory ({@link DataDirKillChild}, opened as the server opens it) with
 * {@code kill -9} at seeded random times, again and again on the same directory, and checks after each kill
 * that every change it acknowledged (a commit that returned: a send, an edit, a receipt) is in the database,
 * reopened from a copy of the directory as the killed process left it (the file with its write-ahead log), and
 * that each room's counters agree with its messages (a transaction applied in part shows there). The directory
 * itself is reopened only by the next child, so each one recovers from a kill as a restarted server does; a
 * child that fails (say on a duplicate {@code seq}) fails the test.
 *
 * <p>{@code -Ddatadirkill.kills=50} (default 3), {@code -Ddatadirkill.seed}, {@code -Ddatadirkill.threads}
 * (default 4). Each kill prints a line, and what it found missing at once.
 */
class DataDirKillLoopTest {

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedCommitSurvivesKillNine() throws Exception {
        int kills = Integer.getInteger("datadirkill.kills", 3);
        long seed = Long.getLong("datadirkill.seed", System.nanoTime());
        int threads = Integer.getInteger("datadirkill.threads", 4);
        Random random = new Random(seed);
        Path data = Files.createDirectories(dir.resolve("data"));
        Map<Long, Boolean> sent = new HashMap<>(); // message number -> edit acknowledged
        Map<String, Long> receipts = new HashMap<>(); // "room:thread" -> last acknowledged message number
        long acks = 0;
        List<String> lost = new ArrayList<>();
        for (int kill = 0; kill < kills; kill++) {
            long first = (long) kill * 10_000_000L;
            Process child = start(data, first, threads);
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            CountDownLatch eof = new CountDownLatch(1);
            Thread reader = new Thread(() -> read(child, lines, eof), "kill-loop-output");
            reader.setDaemon(true);
            reader.start();
            awaitLine(lines, child, "ready");
            awaitLine(lines, child, "A ");
            long delay = 100 + random.nextInt(1500);
            assertTrue(!child.waitFor(delay, TimeUnit.MILLISECONDS), () -> "the child ended: " + drain(lines));
            // SIGKILL on Linux; unlike Process.destroyForcibly, the handle's leaves the output to be read to its end
            child.toHandle().destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
            assertTrue(eof.await(30, TimeUnit.SECONDS), "the child's output did not end");
            for (String line : drain(lines)) {
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "A" -> sent.putIfAbsent(Long.parseLong(f[1]), false);
                    case "E" -> sent.put(Long.parseLong(f[1]), true);
                    case "R" -> receipts.merge((Long.parseLong(f[1]) % DataDirKillChild.ROOMS) + ":" + f[2],
                            Long.parseLong(f[1]), Math::max);
                    default -> {
                        if (line.contains("Exception") || line.contains("ERROR")) {
                            lost.add("kill " + kill + " child said: " + line);
                        }
                        continue;
                    }
                }
                acks++;
            }
            for (String m : check(copy(data, kill), sent, receipts, kill)) {
                String what = m.substring(m.indexOf(": ") + 2); // a loss is found again after each later kill
                if (lost.stream().noneMatch(l -> l.endsWith(": " + what))) {
                    System.out.println("missing: " + m);
                    lost.add(m);
                }
            }
            System.out.printf("kill %d/%d: %d acknowledged so far, %d missing, directory %d KB%n", kill + 1,
                    kills, acks, lost.size(), size(data) / 1024);
        }
        System.out.printf("data directory kill loop: seed %d, %d kills, %d acknowledged commits, %d missing%n",
                seed, kills, acks, lost.size());
        assertEquals(List.of(), lost, "seed " + seed);
    }

    private static Process start(Path data, long first, int threads) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), DataDirKillChild.class.getName(),
                data.toString(), Long.toString(first), Integer.toString(threads)));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static void read(Process child, BlockingQueue<String> lines, CountDownLatch eof) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(line);
            }
        } catch (IOException e) {
            lines.add("read failed: " + e);
        } finally {
            eof.countDown();
        }
    }

    /** Waits for a line starting with {@code prefix}, leaving it (and what followed) in {@code lines}. */
    private static void awaitLine(BlockingQueue<String> lines, Process child, String prefix) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (lines.stream().anyMatch(l -> l.startsWith(prefix))) {
                return;
            }
            if (!child.isAlive()) {
                throw new AssertionError("the child ended: " + drain(lines));
            }
            child.waitFor(20, TimeUnit.MILLISECONDS);
        }
        child.destroyForcibly();
        throw new AssertionError("no '" + prefix + "' from the child in 90 s: " + drain(lines));
    }

    private static List<String> drain(BlockingQueue<String> lines) {
        List<String> out = new ArrayList<>();
        lines.drainTo(out);
        return out;
    }

    /** Returns what is missing from the database in {@code copy} of what was acknowledged. */
    private static List<String> check(Path copy, Map<Long, Boolean> sent, Map<String, Long> receipts, int kill) {
        List<String> missing = new ArrayList<>();
        try (Database db = Database.sqlite(copy)) {
            Map<String, String> parts = new HashMap<>(); // client message id -> parts
            Map<String, Long> seqs = new HashMap<>();
            Map<String, String> roomOf = new HashMap<>();
            Map<String, Long> stored = new HashMap<>(); // "roomId:user" -> receipt seq
            List<String> rooms = DataDirKillChild.setUp(new JdbcStore(db));
            db.tx(c -> {
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT client_message_id, parts, seq, room_id FROM messages WHERE tenant_id = ?")) {
                    ps.setString(1, DataDirKillChild.TENANT);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            parts.put(rs.getString(1), rs.getString(2));
                            seqs.put(rs.getString(1), rs.getLong(3));
                            roomOf.put(rs.getString(1), rs.getString(4));
                        }
                    }
                }
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT room_id, user_id, seq FROM receipts WHERE tenant_id = ?")) {
                    ps.setString(1, DataDirKillChild.TENANT);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            stored.put(rs.getString(1) + ":" + rs.getString(2), rs.getLong(3));
                        }
                    }
                }
                // each room's counters agree with its messages: last_seq is the highest seq, no seq is
                // missing, rev is the highest message rev (sends and edits are the only changes here)
                try (PreparedStatement ps = c.prepareStatement("SELECT r.id, r.last_seq, MAX(m.seq), COUNT(m.seq),"
                        + " r.rev, MAX(m.rev)"
                        + " FROM rooms r LEFT JOIN messages m ON m.tenant_id = r.tenant_id AND m.room_id = r.id"
                        + " WHERE r.tenant_id = ? GROUP BY r.id, r.last_seq, r.rev")) {
                    ps.setString(1, DataDirKillChild.TENANT);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            if (rs.getLong(2) != rs.getLong(3) || rs.getLong(3) != rs.getLong(4)
                                    || rs.getLong(5) != rs.getLong(6)) {
                                missing.add("kill " + kill + ": room " + rs.getString(1) + " has last_seq "
                                        + rs.getLong(2) + " and rev " + rs.getLong(5) + " but messages up to seq "
                                        + rs.getLong(3) + " (" + rs.getLong(4) + " of them) and rev " + rs.getLong(6));
                            }
                        }
                    }
                }
                return null;
            });
            for (Map.Entry<Long, Boolean> e : sent.entrySet()) {
                String key = "k" + e.getKey();
                String p = parts.get(key);
                if (p == null) {
                    missing.add("kill " + kill + ": message " + e.getKey() + " acknowledged, not stored");
                } else if (e.getValue() && !p.contains("edited " + e.getKey())) {
                    missing.add("kill " + kill + ": edit of " + e.getKey() + " acknowledged, stored " + p);
                }
            }
            for (Map.Entry<String, Long> e : receipts.entrySet()) {
                String[] roomThread = e.getKey().split(":");
                String room = rooms.get(Integer.parseInt(roomThread[0]));
                Long seq = seqs.get("k" + e.getValue());
                Long at = stored.get(room + ":u" + roomThread[1]);
                if (seq == null || at == null || at < seq) {
                    missing.add("kill " + kill + ": receipt of u" + roomThread[1] + " at message " + e.getValue()
                            + " (seq " + seq + ") acknowledged, stored " + at);
                }
            }
        }
        try (Stream<Path> files = Files.walk(copy)) {
            files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return missing;
    }

    private Path copy(Path data, int kill) throws IOException {
        Path copy = Files.createDirectories(dir.resolve("copy-" + kill));
        try (Stream<Path> files = Files.list(data)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        return copy;
    }

    private static long size(Path data) throws IOException {
        try (Stream<Path> files = Files.list(data)) {
            return files.mapToLong(f -> f.toFile().length()).sum();
        }
    }
}
