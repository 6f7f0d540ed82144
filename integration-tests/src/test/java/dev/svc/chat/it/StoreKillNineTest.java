package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.reference.ReferenceServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite store survives {@code kill -9}: "alice" ({@link KillNineAliceMain}, in a child JVM) ingests bob's
 * messages, edits, deletes and receipts, marks some read and replies, and is killed with SIGKILL at a random
 * progress point, many times, while bob goes on. After each kill her store, opened here, is consistent
 * ({@link KillNineStoreCheck#afterKill}); after a last start that syncs and closes, it equals the service, and
 * every send alice made reached the service at most once, every one the outbox had stored exactly once.
 *
 * <p>The randomness is seeded and printed; {@code -Dsvc.it.seed=<seed>} replays a run's choices (the timing of
 * two JVMs is not replayed). {@code -Dsvc.it.kills=<n>} sets the number of kills (default 10).
 */
class StoreKillNineTest {
  private static final Duration START = Duration.ofSeconds(90);

  @TempDir Path tmp;

  @Test
  void aStoreKilledAtRandomPointsStaysConsistentAndSyncsToTheServiceWithEverySendOnce() throws Exception {
    long seed = Long.getLong("svc.it.seed", System.nanoTime());
    int kills = Integer.getInteger("svc.it.kills", 10);
    System.out.println("StoreKillNineTest: seed " + seed + ", " + kills + " kills (replay: -Dsvc.it.seed=" + seed + ")");
    Random random = new Random(seed);
    long began = System.nanoTime();
    File storeDir = tmp.resolve("store").toFile();
    File sendLog = tmp.resolve("sends.log").toFile();
    try (ChatFixture chat = new ChatFixture(ReferenceServer.builder().port(0))) {
      Admin admin = chat.admin();
      List<String> rooms = new ArrayList<>();
      for (int i = 0; i < 3; i++) rooms.add(admin.createRoom("kill-" + i, "alice", "bob"));
      Bob bob = new Bob(chat.connected("bob"), rooms, new Random(random.nextLong()));
      KillNineServer server = new KillNineServer(admin, admin.mint("bob"));
      KillNineStoreCheck check = new KillNineStoreCheck(storeDir, rooms);
      String aliceToken = admin.mint("alice");
      List<Integer> runStarts = new ArrayList<>();
      List<String> killPoints = new ArrayList<>();

      for (int kill = 0; kill < kills; kill++) {
        if (kill > 0) bob.act(random.nextInt(8)); // while alice is dead: recovery has work at the next start
        runStarts.add(lines(sendLog));
        int target = random.nextInt(40);
        KillNineChild alice = KillNineChild.start(args(chat, aliceToken, storeDir, sendLog, random.nextLong(), "run",
            rooms));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> bobFailed = new AtomicReference<>();
        Thread bobThread = new Thread(() -> bob.alongside(alice, stop, bobFailed), "bob");
        try {
          // the first start connects before bob sends, so every room's history is alice's from its first seq
          alice.awaitLine(kill == 0 ? "connected" : "started", START);
          bobThread.start();
          if (target > 0 && !alice.awaitProgressAbove(target - 1, START)) {
            fail("alice made no progress to " + target + "; output:\n" + alice.output());
          }
          alice.assertAlive();
        } finally {
          alice.kill();
          stop.set(true);
          bobThread.join(30_000);
        }
        if (bobFailed.get() != null) throw new AssertionError("bob failed", bobFailed.get());
        killPoints.add(target + "/" + alice.progress());
        check.afterKill(kill, server);
      }

      // the last start: no kill; it syncs, then closes
      runStarts.add(lines(sendLog));
      KillNineChild alice = KillNineChild.start(args(chat, aliceToken, storeDir, sendLog, 0, "sync", rooms));
      Map<String, KillNineServer.Room> truth;
      try {
        alice.awaitLine("synced", START);
        long deadline = System.nanoTime() + START.toNanos();
        // alice's receipts kept while she was away may still be on their way: the service is read again each time
        while (!check.caughtUp(truth = read(server, rooms))) {
          if (System.nanoTime() > deadline) fail("the store never caught up; output:\n" + alice.output());
          alice.awaitProgressAbove(alice.progress(), Duration.ofMillis(200)); // polls the store, woken by events
        }
        alice.tell("close");
        alice.awaitLine("closed", START);
        assertEquals(0, alice.awaitExit(START), alice.output());
      } finally {
        alice.kill();
      }
      assertEquals(truth, read(server, rooms), "the service changed after alice caught up");
      check.equalsService(truth);
      int aliceSends = assertEverySendOnce(truth, rooms, lines(sendLog), runStarts, check.durableSends);
      int total = truth.values().stream().mapToInt(r -> r.bySeq().size()).sum();
      System.out.printf("StoreKillNineTest: seed %d, %d kills at progress (target/seen) %s, %d messages (%d by alice"
          + " of %d she made; %d sends in the outbox at a kill, at most %d at once), %d stored above a watermark at a"
          + " kill, %.1f s%n", seed, kills, killPoints, total, aliceSends, lines(sendLog), check.durableSends.size(),
          check.maxPendingSeen, check.messagesAboveWatermark, (System.nanoTime() - began) / 1e9);
    }
  }

  /**
   * Asserts that each of alice's sends is on the service at most once, with what she said, in the room she
   * chose, in the order she made them; that every send the outbox held at some kill is there; and that the
   * sends missing are only the last ones of a run (made, logged, and killed before the outbox stored them).
   *
   * @return the number of alice's messages on the service
   */
  private static int assertEverySendOnce(Map<String, KillNineServer.Room> truth, List<String> rooms, int logged,
      List<Integer> runStarts, Set<String> durable) {
    Set<Integer> onService = new HashSet<>();
    for (String roomId : rooms) {
      int last = 0;
      for (KillNineServer.Msg m : truth.get(roomId).bySeq().values()) {
        if (!m.senderId().equals("alice")) continue;
        int n = Integer.parseInt(m.clientMessageId().substring("alice-".length()));
        assertTrue(onService.add(n), "alice-" + n + " twice on the service");
        assertTrue(n >= 1 && n <= logged, "alice-" + n + " was never made");
        assertEquals(rooms.get(n % rooms.size()), roomId, "alice-" + n);
        assertEquals("alice " + n, m.text());
        assertTrue(n > last, "alice-" + n + " after alice-" + last + " in room " + roomId);
        last = n;
      }
    }
    for (String id : durable) {
      assertTrue(onService.contains(Integer.parseInt(id.substring("alice-".length()))), id + " was in the outbox, then lost");
    }
    for (int r = 0; r + 1 < runStarts.size(); r++) {
      boolean lost = false;
      for (int n = runStarts.get(r) + 1; n <= runStarts.get(r + 1); n++) {
        if (!onService.contains(n)) lost = true;
        else assertTrue(!lost, "alice-" + n + " reached the service though an earlier send of its run was lost");
      }
    }
    return onService.size();
  }

  private static Map<String, KillNineServer.Room> read(KillNineServer server, List<String> rooms) throws Exception {
    Map<String, KillNineServer.Room> truth = new LinkedHashMap<>();
    for (String roomId : rooms) truth.put(roomId, server.room(roomId));
    return truth;
  }

  private static String[] args(ChatFixture chat, String token, File storeDir, File sendLog, long seed, String mode,
      List<String> rooms) {
    List<String> a = new ArrayList<>(List.of(chat.server().apiUrl(), token, storeDir.getPath(), sendLog.getPath(),
        Long.toString(seed), mode));
    a.addAll(rooms);
    return a.toArray(new String[0]);
  }

  private static int lines(File f) throws Exception {
    return f.exists() ? Files.readAllLines(f.toPath()).size() : 0;
  }

  /** Bob: sends, edits and deletes his messages, marks rooms read; paced by alice's progress while she runs. */
  private static final class Bob {
    private final ChatClient client;
    private final List<String> rooms;
    private final Random random;
    private final List<Message> own = new ArrayList<>();
    private final Map<String, String> latest = new ConcurrentHashMap<>();
    private final Map<String, Integer> edits = new HashMap<>();
    private int sent;

    Bob(ChatClient client, List<String> rooms, Random random) {
      this.client = client;
      this.rooms = rooms;
      this.random = random;
      client.on(EventType.NEW_MESSAGE, m -> latest.put(m.roomId(), m.id()));
    }

    /** Acts once per progress alice makes (or every 2 s without any) until {@code stop}. */
    void alongside(KillNineChild alice, AtomicBoolean stop, AtomicReference<Throwable> failed) {
      try {
        while (!stop.get()) {
          int seen = alice.progress();
          act(1);
          alice.awaitProgressAbove(seen, Duration.ofSeconds(2)); // pacing only: bob goes on either way
        }
      } catch (Throwable e) {
        if (!stop.get()) failed.set(e);
      }
    }

    synchronized void act(int times) throws Exception {
      for (int i = 0; i < times; i++) {
        int r = random.nextInt(100);
        String room = rooms.get(random.nextInt(rooms.size()));
        if (r < 60 || own.isEmpty()) {
          Message m = await(client.sendText(room, "bob " + (++sent)));
          own.add(m);
          latest.put(room, m.id());
        } else if (r < 78) {
          Message m = own.get(random.nextInt(own.size()));
          int e = edits.merge(m.id(), 1, Integer::sum);
          await(client.updateMessage(m.roomId(), m.id(), List.of(MessagePart.text(m.text() + " edit " + e))));
        } else if (r < 88) {
          Message m = own.remove(random.nextInt(own.size()));
          await(client.deleteMessage(m.roomId(), m.id()));
        } else if (latest.containsKey(room)) {
          await(client.markRead(room, latest.get(room)));
        }
      }
    }
  }
}
