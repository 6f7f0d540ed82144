package dev.svc.chat.bench.store;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.sqlite.SqliteChatStore;

/** Fills a store as the engine would: per room its row, its messages with the watermarks, the user's receipt. */
final class StoreFixture {
  static final String USER = "bench-user";
  static final long T0 = 1_795_000_000_000L;

  private StoreFixture() {
  }

  static String roomId(int r) {
    return String.format("room-%04d-5b0e7a5c-2f7e-4d1a-9c3b", r);
  }

  /** A message like the ingest feed's (about 300 bytes of JSON); every fifth is the user's own. */
  static Message message(String roomId, long seq, long at) {
    return Message.builder().id(roomId.substring(5, 9) + "-" + seq + "-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
        .roomId(roomId).seq(seq).rev(seq).senderId(seq % 5 == 0 ? USER : "user_" + (seq % 50))
        .addPart(MessagePart.text("Message " + seq + ": see you at the stand-up, bring notes"))
        .clientMessageId("c-" + roomId.substring(5, 9) + "-" + seq + "-7e0d2a4f6b18").createdAt(at).build();
  }

  /**
   * Writes {@code rooms} rooms of {@code perRoom} messages each into the user's store under {@code dir}, one write
   * per room (its messages and watermarks, as recovery's back-fill pages do, but larger); the user read each room
   * up to {@code perRoom - unread(r)}.
   */
  static void fill(File dir, int rooms, int perRoom) throws StoreException {
    ChatStore store = SqliteChatStore.builder(dir).maxRooms(Math.max(1000, rooms)).build().open(USER);
    try {
      for (int r = 0; r < rooms; r++) {
        String id = roomId(r);
        long last = T0 + r * 1000L + perRoom;
        StoreWrite w = new StoreWrite().room(Room.builder().id(id).name("Room " + r)
            .memberIds(java.util.Arrays.asList(USER, "user_1", "user_2")).createdAt(T0).lastMessageSeq(perRoom)
            .lastMessageAt(last).rev(perRoom).build());
        for (long s = 1; s <= perRoom; s++) w.message(message(id, s, T0 + r * 1000L + s));
        w.watermarks(id, perRoom, perRoom);
        long read = perRoom - unread(r);
        w.receipt(Receipt.of(id, USER, message(id, read, 0).id(), read, last));
        store.write(w.writtenAt(last));
      }
    } finally {
      store.close(); // the last connection's close checkpoints the WAL into the database file
    }
  }

  /** The unread messages left in room {@code r} (of the user's read position): 0 to 29. */
  static int unread(int r) {
    return (r * 7) % 30;
  }

  /** Bytes of the databases under {@code dir}, with their WAL if one is left. */
  static long bytes(File dir) {
    long bytes = 0;
    File[] files = dir.listFiles((d, name) -> name.startsWith("svc-chat-") && !name.endsWith("-shm"));
    for (File f : files == null ? new File[0] : files) bytes += f.length(); // the database and any WAL left
    return bytes;
  }

  /** Bytes of each table and index of the database under {@code dir} (SQLite's dbstat), largest first. */
  static java.util.Map<String, Long> pages(File dir) throws java.sql.SQLException {
    java.util.Map<String, Long> out = new java.util.LinkedHashMap<>();
    File[] dbs = dir.listFiles((d, name) -> name.startsWith("svc-chat-") && name.endsWith(".db"));
    if (dbs == null || dbs.length != 1) return out;
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dbs[0].getPath());
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC")) {
      while (rs.next()) out.put(rs.getString(1), rs.getLong(2));
    }
    return out;
  }

  /** {@code DIR}: fills a store of 200 rooms of 1,000 messages there, for trying things by hand. */
  public static void main(String[] args) throws Exception {
    File dir = new File(args[0]);
    delete(dir);
    fill(dir, 200, 1000);
  }

  static void delete(File dir) throws IOException {
    if (!dir.exists()) return;
    try (Stream<Path> paths = Files.walk(dir.toPath())) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
