package dev.svc.chat.reference.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.TenantSettings;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.h2.mvstore.MVStore;

/**
 * The child JVM of {@link H2KillLoopTest}: opens the H2 directory as the server does ({@link Database#h2}),
 * then commits numbered messages, edits and receipts from several threads until it is killed, printing
 * {@code A n} once the send of message {@code n} returned, {@code E n} once its edit returned, and {@code R n t}
 * once thread {@code t}'s receipt at message {@code n} (by user {@code u<t>}) returned.
 *
 * <p>Arguments: data directory, mode, first number, threads. Modes: {@code none} opens the database as the
 * server does (no compaction); {@code reopen} also runs {@link H2Compaction} (close, pack, open again)
 * {@link #COMPACT_EVERY_MILLIS} after the last one ended, whatever the file's size, printing {@code C} before
 * each and {@code D} after it; {@code serial} runs transactions one at a time, no compaction; {@code raw} is
 * {@code none} with a thread that calls H2's {@link MVStore#compact(int, int)} as fast as it can, beside the
 * commits (the online compaction that was reverted).
 */
public final class H2KillChild {

    static final String TENANT = "t";
    static final int ROOMS = 10;
    static final int USERS = 20;
    /** How long {@code reopen} waits between compactions: short, so that kills meet many of them. */
    static final long COMPACT_EVERY_MILLIS = 200;
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private H2KillChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String mode = args[1];
        AtomicLong next = new AtomicLong(Long.parseLong(args[2]));
        int threads = Integer.parseInt(args[3]);
        Database db = switch (mode) {
            case "reopen", "none", "raw" -> Database.h2(dir, false, H2Compaction.Policy.NEVER); // reopen's below
            case "serial" -> Database.h2(dir, true, H2Compaction.Policy.NEVER); // one at a time, no compaction
            default -> throw new IllegalArgumentException(mode);
        };
        JdbcStore store = new JdbcStore(db);
        List<String> rooms = setUp(store);
        if (mode.equals("raw")) {
            MVStore mv = db.mvStore();
            Thread compactor = new Thread(() -> {
                while (true) {
                    mv.compact(95, 1024 * 1024);
                    Thread.onSpinWait();
                }
            }, "raw-compact");
            compactor.setDaemon(true);
            compactor.start();
        }
        System.out.println("ready");
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread writer = new Thread(() -> write(store, rooms, next, thread), "writer-" + t);
            writer.start();
        }
        if (mode.equals("reopen")) {
            // The scheduled compaction's run, at a fixed rate instead of when the file outgrew its data; the
            // process runs until it is killed, so the scheduler is never shut down.
            ScheduledExecutorService compactions = Executors.newSingleThreadScheduledExecutor();
            compactions.scheduleWithFixedDelay(() -> {
                System.out.println("C");
                H2Compaction.Result r = db.compactH2();
                System.out.println("D " + (r == null ? "put off" : r.bytesBefore() + " " + r.bytesAfter() + " "
                        + r.pauseMillis()));
            }, COMPACT_EVERY_MILLIS, COMPACT_EVERY_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private static void write(JdbcStore store, List<String> rooms, AtomicLong next, int thread) {
        while (true) {
            long n = next.getAndIncrement();
            String room = rooms.get((int) (n % ROOMS));
            String sender = "u" + (n % USERS);
            Message m = store.appendMessage(TENANT, room, sender, "k" + n, text("message " + n),
                    MessageLinks.NONE, NOW).message();
            System.out.println("A " + n);
            store.replaceMessage(TENANT, new Message(m.id(), m.roomId(), m.seq(), m.rev(), m.senderId(),
                    text("edited " + n), m.clientMessageId(), m.createdAt(), NOW, null, m.reactions()));
            System.out.println("E " + n);
            // each thread has a reader of its own, so a receipt of (room, reader) only moves forward
            store.putReceipt(TENANT, new Receipt(room, "u" + thread, m.id(), m.seq(), NOW));
            System.out.println("R " + n + " " + thread);
        }
    }

    /** Creates the tenant, its users and rooms the first time; returns the rooms' ids, oldest first. */
    static List<String> setUp(JdbcStore store) {
        if (store.tenant(TENANT).isEmpty()) {
            store.createTenant(new TenantRecord(TENANT, "sk_test_kill", new byte[32]), TenantSettings.defaults(true));
            List<String> users = new ArrayList<>();
            for (int i = 0; i < USERS; i++) {
                users.add("u" + i);
                store.ensureUser(TENANT, "u" + i, NOW);
            }
            for (int r = 0; r < ROOMS; r++) {
                store.createRoom(TENANT, "r" + r, users, NOW);
            }
        }
        List<String> ids = new ArrayList<>();
        store.rooms(TENANT).stream().sorted((a, b) -> a.name().compareTo(b.name())).forEach(r -> ids.add(r.id()));
        return ids;
    }

    static List<JsonNode> text(String text) {
        return List.of(JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text));
    }
}
