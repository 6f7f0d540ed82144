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
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link DataDirKillLoopTest}: opens the data directory as the server does
 * ({@link Database#sqlite}), then commits numbered messages, edits and receipts from several threads until it is
 * killed, printing {@code A n} once the send of message {@code n} returned, {@code E n} once its edit returned,
 * and {@code R n t} once thread {@code t}'s receipt at message {@code n} (by user {@code u<t>}) returned.
 *
 * <p>Arguments: data directory, first number, threads.
 */
public final class DataDirKillChild {

    static final String TENANT = "t";
    static final int ROOMS = 10;
    static final int USERS = 20;
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private DataDirKillChild() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        AtomicLong next = new AtomicLong(Long.parseLong(args[1]));
        int threads = Integer.parseInt(args[2]);
        JdbcStore store = new JdbcStore(Database.sqlite(dir)); // never closed: the process runs until killed
        List<String> rooms = setUp(store);
        System.out.println("ready");
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread writer = new Thread(() -> write(store, rooms, next, thread), "writer-" + t);
            writer.start();
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
