package dev.svc.chat.bench.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.Store;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fills a server's store: users and rooms through the {@link Store}, then each room's messages in one transaction
 * of plain SQL inserts as {@code Store.appendMessage} stores them (a message a transaction would take hours on H2,
 * which writes a chunk of its file at every commit), with no search index: the server's catch-up at its start
 * builds the index from the store, through the same index code as every send. Rooms of four members (three of a
 * pool of users, and {@link #SEARCHER} in {@link #SEARCHER_ROOMS} of them, plus {@link #FORMER_ROOMS} rooms they
 * were removed from, which a search must leave out); a second apart in time across the whole store, round-robin
 * over the rooms; a few threads, each its own rooms.
 */
final class SearchLoad {
  static final String SEARCHER = "searcher";
  static final int SEARCHER_ROOMS = 30;
  static final int FORMER_ROOMS = 5;
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final int USERS = 400;
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What was loaded.
   *
   * @param roomIds every room, in order
   * @param searcherRooms the rooms the searcher is a member of now
   * @param seconds how long the load took
   */
  record Layout(List<String> roomIds, List<String> searcherRooms, double seconds) {
  }

  private SearchLoad() {
  }

  static Layout load(Store store, Database db, String tenantId, SearchCorpus corpus, int rooms, int messages,
                     int threads) throws Exception {
    long t0 = System.nanoTime();
    List<Room> made = new ArrayList<>();
    List<String> searcherRooms = new ArrayList<>();
    int step = rooms / (SEARCHER_ROOMS + FORMER_ROOMS);
    store.ensureUser(tenantId, SEARCHER, T0);
    for (int u = 0; u < USERS; u++) store.ensureUser(tenantId, user(u), T0);
    for (int r = 0; r < rooms; r++) {
      List<String> members = new ArrayList<>(List.of(user(r * 7 % USERS), user((r * 7 + 1) % USERS),
          user((r * 7 + 2) % USERS)));
      boolean searcher = step > 0 && r % step == 0 && r / step < SEARCHER_ROOMS + FORMER_ROOMS;
      if (searcher) members.add(SEARCHER);
      Room room = store.createRoom(tenantId, "Room " + r, members, T0);
      made.add(room);
      if (searcher && r / step < SEARCHER_ROOMS) {
        searcherRooms.add(room.id());
      }
    }
    int perRoom = messages / rooms;
    AtomicLong done = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> all = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        all.add(pool.submit(() -> {
          Random random = new Random(1000 + thread);
          for (int r = thread; r < rooms; r += threads) {
            Room room = made.get(r);
            boolean searcher = searcherRooms.contains(room.id());
            int index = r;
            db.tx(c -> {
              insertRoom(c, tenantId, room, index, rooms, perRoom, searcher, corpus, random);
              return null;
            });
            long n = done.addAndGet(perRoom);
            if (n / 100_000 != (n - perRoom) / 100_000) {
              System.err.printf("  %,d messages, %.0f s%n", n, (System.nanoTime() - t0) / 1e9);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : all) f.get();
    } finally {
      pool.shutdown();
    }
    // removed from the last rooms: a search must no longer see them
    for (int r = 0; r < rooms; r++) {
      if (step > 0 && r % step == 0 && r / step >= SEARCHER_ROOMS && r / step < SEARCHER_ROOMS + FORMER_ROOMS) {
        store.removeMember(tenantId, made.get(r).id(), SEARCHER);
      }
    }
    List<String> ids = new ArrayList<>();
    made.forEach(room -> ids.add(room.id()));
    return new Layout(ids, searcherRooms, (System.nanoTime() - t0) / 1e9);
  }

  /**
   * Appends the room's messages in one transaction, as {@code Store.appendMessage} stores each (the next seq and
   * rev, the room's row advanced), without the index: the server's catch-up at start writes it from the store.
   */
  private static void insertRoom(Connection c, String tenantId, Room room, int index, int rooms, int perRoom,
                                 boolean searcher, SearchCorpus corpus, Random random) throws SQLException {
    long rev = room.rev();
    long last = 0;
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO messages (tenant_id, room_id, seq, id, rev,"
        + " sender_id, client_message_id, parts, reactions, created_at, mentions)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, '{}', ?, '[]')")) {
      for (int m = 1; m <= perRoom; m++) {
        String sender = searcher && random.nextInt(10) == 0 ? SEARCHER
            : user((index * 7 + random.nextInt(3)) % USERS);
        last = T0.toEpochMilli() + ((m - 1) * (long) rooms + index) * 1000;
        ps.setString(1, tenantId);
        ps.setString(2, room.id());
        ps.setLong(3, m);
        ps.setString(4, UUID.randomUUID().toString());
        ps.setLong(5, ++rev);
        ps.setString(6, sender);
        ps.setString(7, "c-" + m);
        ps.setString(8, JSON.writeValueAsString(parts(corpus.text(random))));
        ps.setLong(9, last);
        ps.addBatch();
        if (m % 500 == 0) ps.executeBatch();
      }
      ps.executeBatch();
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    try (PreparedStatement ps = c.prepareStatement("UPDATE rooms SET last_seq = ?, rev = ?, last_message_at = ?"
        + " WHERE tenant_id = ? AND id = ?")) {
      ps.setLong(1, perRoom);
      ps.setLong(2, rev);
      ps.setLong(3, last);
      ps.setString(4, tenantId);
      ps.setString(5, room.id());
      ps.executeUpdate();
    }
  }

  static String user(int u) {
    return "user-" + u;
  }

  private static List<JsonNode> parts(String text) {
    return List.of(JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text));
  }
}
