package dev.svc.chat.reference.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.reference.model.Call;
import dev.svc.chat.reference.model.DeviceToken;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.PushRecord;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.TenantSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory that a server kept in H2 ({@link H2Directory}: messages, an edit, a reaction, a delete,
 * receipts, a call, device tokens and pushes, a pending webhook, a file's rows and bytes, a tenant with its
 * settings) opens on SQLite with everything in it: the import copies each table once, then renames the H2 file
 * aside; a kill during an import leaves a directory that the next start imports again.
 */
class H2ImportTest {

    private static final String T = "acme";
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path dir;

    /** What the store reads back from a directory, method by method. */
    private static Map<String, Object> readAll(JdbcStore store, List<String> roomIds) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("tenant", store.tenant(T).map(t -> t.id() + " " + t.apiKey() + " " + List.of(t.jwtSecret().length)));
        all.put("secret", store.tenant(T).map(t -> java.util.Arrays.toString(t.jwtSecret())));
        all.put("settings", store.settings(T));
        all.put("users", store.users(T));
        all.put("rooms", store.rooms(T));
        for (String room : roomIds) {
            all.put("messages " + room, store.messages(T, room, new PageRequest(100, null, null)));
            all.put("changes " + room, store.changes(T, room, 0, 100));
            all.put("receipts " + room, store.receipts(T, room));
            all.put("live call " + room, store.liveCall(T, room));
        }
        all.put("positions", store.positionsOf(T, "alice"));
        all.put("devices", store.deviceTokens(T, List.of("alice", "bob")));
        all.put("pushes", store.pushes(T, null));
        all.put("webhooks", store.pendingWebhooks());
        return all;
    }

    private static Map<String, Long> counts(Database db) {
        return db.tx(c -> {
            Map<String, Long> counts = new LinkedHashMap<>();
            for (String table : List.of("tenants", "users", "rooms", "room_members", "messages", "receipts", "calls",
                    "device_tokens", "push_outbox", "webhook_deliveries", "files", "file_chunks", "file_refs",
                    "file_thumbnails")) {
                try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM " + table);
                     ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    counts.put(table, rs.getLong(1));
                }
            }
            return counts;
        });
    }

    private static byte[] chunk(Database db) {
        return db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT data FROM file_chunks WHERE file_id = 'f1'");
                 ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        });
    }

    /** Fills an H2 directory as a server did; returns the rooms' ids. */
    private static List<String> fill(Database h2) {
        JdbcStore store = new JdbcStore(h2);
        byte[] secret = new byte[32];
        for (int i = 0; i < secret.length; i++) {
            secret[i] = (byte) (i * 7 - 100);
        }
        store.createTenant(new TenantRecord(T, "sk_test_import", secret),
                new TenantSettings(false, true, "http://127.0.0.1:9/hook", "whsec_x", 4_096));
        store.upsertUser(T, "alice", "Alice", NOW);
        store.ensureUser(T, "bob", NOW);
        Room general = store.createRoom(T, "general", List.of("alice", "bob"), NOW);
        Room quiet = store.createRoom(T, "quiet", List.of("bob"), NOW.plusSeconds(1));
        store.addMembers(T, quiet.id(), List.of("alice"));
        List<Message> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sent.add(store.appendMessage(T, general.id(), i % 2 == 0 ? "alice" : "bob", "c" + i,
                    DataDirKillChild.text("hello " + i), MessageLinks.NONE, NOW.plusSeconds(i)).message());
        }
        store.appendMessage(T, general.id(), "bob", "reply", DataDirKillChild.text("a reply"),
                new MessageLinks(sent.get(0).id(), sent.get(0).id(), List.of("alice")), NOW.plusSeconds(9));
        Message first = sent.get(1);
        store.replaceMessage(T, first.edited(DataDirKillChild.text("edited"), List.of(), NOW.plusSeconds(20)));
        Message third = sent.get(2);
        store.replaceMessage(T, new Message(third.id(), third.roomId(), third.seq(), third.rev(), third.senderId(),
                third.parts(), third.clientMessageId(), third.createdAt(), null, null,
                Map.of("+1", List.of("bob"))));
        store.replaceMessage(T, sent.get(3).deleted(NOW.plusSeconds(30)));
        store.putReceipt(T, new Receipt(general.id(), "bob", sent.get(4).id(), sent.get(4).seq(), NOW.plusSeconds(40)));
        store.insertCall(T, new CallState(new Call("call-1", general.id(), "audio", "alice", "ringing",
                List.of("alice"), NOW, null, null), Set.of("bob"), 3));
        store.putDeviceToken(T, new DeviceToken("tok-1", "fcm", "alice"));
        store.appendPushes(T, List.of(new PushRecord("p1", "alice", "tok-1", "fcm", general.id(), sent.get(1).id(),
                "bob", "Bob", "hello 1", NOW)), 100);
        store.putWebhook(new PendingWebhook("wh-1", T, "message.new", "http://127.0.0.1:9/hook", "{}", 2,
                NOW.plusSeconds(60)));
        h2.tx(c -> { // the file tables (a cluster's; a data directory keeps its files in files/)
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO files (id, tenant_id, uploader_id, length,"
                    + " upload_offset, name, declared_type, content_type, created_at, touched_at, completed_at,"
                    + " sha256, width, height) VALUES ('f1', ?, 'alice', 3, 3, 'a.png', 'image/png', 'image/png', 1, 2,"
                    + " 3, 'abc', 10, 20)")) {
                ps.setString(1, T);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO file_chunks (file_id, start_offset, data) VALUES ('f1', 0, ?)")) {
                ps.setBytes(1, new byte[] {0, -1, 42});
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO file_refs (file_id, room_id, message_id) VALUES ('f1', ?, ?)")) {
                ps.setString(1, general.id());
                ps.setString(2, sent.get(0).id());
                ps.executeUpdate();
            }
            return null;
        });
        return List.of(general.id(), quiet.id());
    }

    @Test
    void anH2DirectoryOpensOnSqliteWithEverythingInIt() throws Exception {
        Map<String, Object> before;
        Map<String, Long> countsBefore;
        List<String> rooms;
        try (Database h2 = H2Directory.open(dir)) {
            rooms = fill(h2);
            before = readAll(new JdbcStore(h2), rooms);
            countsBefore = counts(h2);
        }
        assertTrue(Files.exists(dir.resolve(H2Import.H2_DB)));
        try (Database sqlite = Database.sqlite(dir)) {
            JdbcStore store = new JdbcStore(sqlite);
            Map<String, Object> after = readAll(store, rooms);
            for (String key : before.keySet()) {
                assertEquals(before.get(key), after.get(key), key);
            }
            assertEquals(countsBefore, counts(sqlite));
            assertArrayEquals(new byte[] {0, -1, 42}, chunk(sqlite));
            // the imported store goes on as the H2 one would have: the next seq, a pos after the last member's
            Message next = store.appendMessage(T, rooms.get(0), "alice", "c-next", DataDirKillChild.text("next"),
                    MessageLinks.NONE, NOW.plusSeconds(99)).message();
            assertEquals(7, next.seq());
        }
        assertFalse(Files.exists(dir.resolve(H2Import.H2_DB)));
        assertTrue(Files.exists(dir.resolve(H2Import.IMPORTED)));
        assertFalse(Files.exists(dir.resolve(H2Import.TEMP)));
        try (Database again = Database.sqlite(dir)) { // no second import: the message sent since is kept
            assertEquals(countsBefore.get("messages") + 1, counts(again).get("messages"));
        }
    }

    @Test
    void aKilledImportIsDoneAgainAndAKillAfterItsRenameIsFinished() throws Exception {
        List<String> rooms;
        Map<String, Object> before;
        try (Database h2 = H2Directory.open(dir)) {
            rooms = fill(h2);
            before = readAll(new JdbcStore(h2), rooms);
        }
        // killed while writing the new file: a part of it (and of its log) under the temporary name
        Files.write(dir.resolve(H2Import.TEMP), new byte[] {1, 2, 3});
        Files.write(dir.resolve(H2Import.TEMP + "-wal"), new byte[] {4, 5, 6});
        try (Database sqlite = Database.sqlite(dir)) {
            assertEquals(before, readAll(new JdbcStore(sqlite), rooms));
        }
        assertFalse(Files.exists(dir.resolve(H2Import.TEMP)));
        assertFalse(Files.exists(dir.resolve(H2Import.TEMP + "-wal")));
        // killed between the two renames: the SQLite file complete, the H2 file still in its place
        Files.move(dir.resolve(H2Import.IMPORTED), dir.resolve(H2Import.H2_DB));
        try (Database sqlite = Database.sqlite(dir)) {
            assertEquals(before, readAll(new JdbcStore(sqlite), rooms));
        }
        assertFalse(Files.exists(dir.resolve(H2Import.H2_DB)));
        assertTrue(Files.exists(dir.resolve(H2Import.IMPORTED)));
    }
}
