package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.fail;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.EventType;
import dev.svc.chat.LogLevel;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.SendOptions;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.it.faults.RandomFaults;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.store.ChatStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos test with offline stores (issues 19 and 20, item 5): four users in four overlapping rooms behind a
 * {@link FaultProxy} that cuts and stalls at random, with two outages (every connection cut, new ones refused)
 * during which the devices read offline. Each user has a primary client on its own SQLite store, closed and made
 * again on the same store several times during the cuts (an in-JVM process restart), and a second device
 * without a store; both subscribe to the room list and both {@code markRead}. The workload sends from both
 * devices (some sends thread replies or mentions of other members, {@link ChaosThreads}), deletes some of its own
 * messages and thread replies, edits the mentions of some, and reads.
 *
 * <p>At the end, against the server's state read directly: every message of every room of a user was handed
 * to the app once across the primary's incarnations, in seq order within each; both devices' unread counts are
 * the server's (others' messages above the user's receipt, not deleted), and so are their unread mentions (those
 * of them that mention the user); every root either device holds carries the server's thread summary; and each
 * store, opened once its last
 * client closed, holds every message of its kept range at its latest rev, the receipts, and watermarks equal to
 * the rooms' {@code lastMessageSeq} and {@code rev}. {@code -Dchaos.seed=S} replays the random choices.
 */
@Tag("chaos")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StoreChaosTest {
  private static final long SEED = Long.getLong("chaos.seed", System.currentTimeMillis());
  private static final Duration CHAOS = Duration.ofSeconds(16);
  private static final int TICKS_PER_USER = 60;
  private static final int RESTARTS = 8;
  private static final Duration OUTAGE = Duration.ofMillis(1500);
  private static final Duration SETTLE = Duration.ofSeconds(40);

  @TempDir Path dir;
  private ChatFixture chat;
  private FaultProxy proxy;
  private ScheduledExecutorService driver;
  private ExecutorService restarter;

  private final Map<String, List<String>> members = new LinkedHashMap<>();
  private final Map<String, StoreChaosUser> users = new LinkedHashMap<>();
  private final Queue<CompletableFuture<?>> pending = new ConcurrentLinkedQueue<>();
  private final Map<String, AtomicLong> opCounts = new ConcurrentHashMap<>();
  private ChaosThreads threads;
  /** Notified on every event the verdict depends on, so the settling wait re-checks at once. */
  private final Object changed = new Object();

  @BeforeEach
  void start() throws Exception {
    chat = new ChatFixture(ReferenceServer.builder().port(0)
        .pingInterval(Duration.ofSeconds(2)).pingTimeout(Duration.ofSeconds(2)));
    proxy = FaultProxy.start("127.0.0.1", chat.server().port(), SEED, true);
    driver = Executors.newSingleThreadScheduledExecutor(daemon("store-chaos-driver"));
    restarter = Executors.newSingleThreadExecutor(daemon("store-chaos-restarter"));
  }

  @AfterEach
  void stop() {
    driver.shutdownNow();
    restarter.shutdownNow();
    try {
      for (StoreChaosUser u : users.values()) {
        if (u.primary != null) u.primary.close();
        if (u.second != null) u.second.close();
      }
      chat.close();
    } finally {
      proxy.close();
    }
  }

  @Test
  void storesDeliveriesAndUnreadCountsEqualTheServerThroughCutsOutagesAndRestarts() throws Exception {
    System.out.println("StoreChaosTest seed=" + SEED + " (replay with -Dchaos.seed=" + SEED + ")");
    Admin admin = chat.admin();
    room(admin, "alpha", "ana", "ben", "cleo");
    room(admin, "beta", "ben", "cleo", "dev");
    room(admin, "gamma", "ana", "dev");
    room(admin, "delta", "ana", "ben", "cleo", "dev");
    threads = new ChaosThreads(members);
    for (String user : List.of("ana", "ben", "cleo", "dev")) {
      Set<String> rooms = new LinkedHashSet<>();
      members.forEach((room, who) -> {
        if (who.contains(user)) rooms.add(room);
      });
      StoreChaosUser u = new StoreChaosUser(user, rooms, dir.resolve(user).toFile());
      users.put(user, u);
      startPrimary(u);
      startSecond(u);
    }

    proxy.startRandom(RandomFaults.of(SEED, CHAOS).withStalls(0.15, Duration.ofMillis(300), Duration.ofSeconds(4)));
    CountDownLatch done = new CountDownLatch(users.size());
    long interval = CHAOS.toMillis() / TICKS_PER_USER;
    int index = 0;
    for (StoreChaosUser u : users.values()) {
      Workload w = new Workload(u, new Random(SEED * 31 + index), done);
      driver.scheduleAtFixedRate(w, index * interval / users.size(), interval, TimeUnit.MILLISECONDS);
      index++;
    }
    for (int i = 1; i <= 2; i++) driver.schedule(this::outage, CHAOS.toMillis() * i / 3, TimeUnit.MILLISECONDS);
    Random restarts = new Random(SEED * 17);
    List<String> ids = new ArrayList<>(users.keySet());
    List<CompletableFuture<Void>> restarted = new ArrayList<>();
    for (int i = 1; i <= RESTARTS; i++) {
      StoreChaosUser u = users.get(ids.get(restarts.nextInt(ids.size())));
      restarted.add(CompletableFuture.runAsync(() -> restartPrimary(u),
          CompletableFuture.delayedExecutor(CHAOS.toMillis() * i / (RESTARTS + 1), TimeUnit.MILLISECONDS, restarter)));
    }

    if (!done.await(CHAOS.toMillis() * 3 + 30_000, TimeUnit.MILLISECONDS)) fail("the workload did not finish");
    CompletableFuture.allOf(restarted.toArray(new CompletableFuture<?>[0])).get(2, TimeUnit.MINUTES);
    if (!proxy.awaitRandomDone(CHAOS.plusSeconds(30))) fail("the proxy's random run did not end");
    proxy.heal();
    FaultProxy.Stats faults = proxy.stats();
    long stillPending = awaitAll(Duration.ofSeconds(30));

    // settle: the server's state read directly; every device must come to agree with it
    Map<String, ChatClient> readers = new TreeMap<>();
    for (String user : users.keySet()) readers.put(user, chat.connected(user));
    long deadline = System.nanoTime() + SETTLE.toNanos();
    StoreChaosCheck.Truth truth = readTruth(readers);
    List<String> problems = liveProblems(truth);
    while (!problems.isEmpty() && System.nanoTime() < deadline) {
      synchronized (changed) {
        changed.wait(500); // woken by any delivery or snapshot; the truth is read again (outbox sends may land)
      }
      truth = readTruth(readers);
      problems = liveProblems(truth);
    }

    // the stores, once their clients closed (close lets events held for a write through first)
    for (StoreChaosUser u : users.values()) {
      u.primary.close();
      u.second.close();
    }
    truth = readTruth(readers);
    problems = new ArrayList<>(liveProblems(truth));
    for (StoreChaosUser u : users.values()) {
      ChatStore store = u.provider.open(u.userId);
      try {
        problems.addAll(StoreChaosCheck.store(u, store, truth));
      } finally {
        store.close();
      }
      for (String e : u.errors()) problems.add(u.userId + ": CLIENT_ERROR " + e);
    }
    if (stillPending > 0) problems.add(0, stillPending + " futures still pending 30 s after the faults ended");

    long messages = truth.messages().values().stream().mapToLong(List::size).sum();
    long deleted = truth.messages().values().stream().flatMap(List::stream).filter(Message::isDeleted).count();
    StringBuilder counts = new StringBuilder("STORE CHAOS seed=" + SEED + ": messages=" + messages + " deleted="
        + deleted + " | ops " + new TreeMap<>(opCounts) + " | threads " + threads.figures() + " | proxy " + faults);
    for (StoreChaosUser u : users.values()) {
      counts.append("\n  ").append(u.userId).append(": incarnations=").append(u.incarnations()).append(" delivered=")
          .append(u.deliveryCount()).append(" unread=");
      for (String r : u.rooms) counts.append(StoreChaosCheck.unread(u.userId, r, truth)).append(' ');
      counts.append("unreadMentions=");
      for (String r : u.rooms) {
        counts.append(ChaosTruth.unreadMentions(u.userId, truth.messages().get(r), truth.receipts().get(r))).append(' ');
      }
      counts.append("clientErrors=").append(u.errorKinds());
    }
    System.out.println(counts);
    if (opCounts.getOrDefault("readOffline", new AtomicLong()).get() == 0) problems.add("no markRead was made offline");
    if (!problems.isEmpty()) {
      StringBuilder msg = new StringBuilder(counts).append('\n');
      for (String p : problems) msg.append(" - ").append(p).append('\n');
      for (StoreChaosUser u : users.values()) {
        msg.append("   last log of ").append(u.userId).append(": ").append(u.view.recentLog(8)).append('\n');
      }
      fail(msg.toString());
    }
  }

  // ---------------------------------------------------------------------------------------------- clients

  private void room(Admin admin, String name, String... memberIds) throws Exception {
    members.put(admin.createRoom(name, memberIds), List.of(memberIds));
  }

  /** Makes the next incarnation of the user's primary client on its store, and connects it. */
  private void startPrimary(StoreChaosUser u) throws Exception {
    int n = u.nextIncarnation();
    SvcOptions options = SvcOptions.builder(proxy.apiUrl()).store(u.provider)
        // An app may shorten the backoff; the default cap (30 s) would make the settling wait longer than CI allows.
        .reconnectDelay(250, 3000)
        .logger((level, message, error) -> u.view.log(level, "#" + n + " " + message, error))
        .build();
    ChatClient client = chat.newClient(options);
    client.on(EventType.NEW_MESSAGE, m -> {
      u.delivered(n, m);
      poke();
    });
    client.on(EventType.MESSAGE_UPDATED, u.view::onUpdated);
    client.on(EventType.ROOM_READ, u.view::onRead);
    client.on(EventType.CLIENT_ERROR, e -> u.error(n, e));
    client.on(EventType.CONNECTION_STATE, c -> {
      u.primaryState = c.current();
      u.view.onState(c);
    });
    client.roomList(list -> {
      u.primaryList = list;
      poke();
    });
    u.primary = client;
    // during a cut or an outage the first connect may fail; the client keeps trying on its own
    CompletableFuture<Void> connected = client.connect(u.userId, chat.admin().mint(u.userId)).handle((v, e) -> null);
    try {
      connected.get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      u.view.log(LogLevel.WARN, "#" + n + " not connected 30 s after connect; going on", null);
    }
  }

  private void startSecond(StoreChaosUser u) throws Exception {
    SvcOptions options = SvcOptions.builder(proxy.apiUrl()).reconnectDelay(250, 3000)
        .logger(u.secondView::log).build();
    ChatClient client = chat.newClient(options);
    client.on(EventType.NEW_MESSAGE, u.secondView::onNew);
    client.on(EventType.MESSAGE_UPDATED, u.secondView::onUpdated);
    client.on(EventType.ROOM_READ, u.secondView::onRead);
    client.on(EventType.CLIENT_ERROR, e -> u.error(0, e));
    client.on(EventType.CONNECTION_STATE, c -> u.secondState = c.current());
    client.roomList(list -> {
      u.secondList = list;
      poke();
    });
    u.second = client;
    await(client.connect(u.userId, chat.admin().mint(u.userId)));
  }

  /** A process restart in the JVM: the primary is closed and made again on the same store. */
  private void restartPrimary(StoreChaosUser u) {
    try {
      u.primary.close();
      opCounts.computeIfAbsent("restart", k -> new AtomicLong()).incrementAndGet();
      startPrimary(u);
    } catch (Exception e) {
      throw new AssertionError("restarting " + u.userId + " failed", e);
    }
  }

  /** Every connection cut and new ones refused for a while: the devices are offline, their reads wait. */
  private void outage() {
    proxy.refuseNew(true);
    proxy.cutAll();
    driver.schedule(() -> proxy.refuseNew(false), OUTAGE.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void poke() {
    synchronized (changed) {
      changed.notifyAll();
    }
  }

  // ---------------------------------------------------------------------------------------------- workload

  /** One user's activity, a tick at a time on the driver thread: a send, and sometimes a delete or a read. */
  private final class Workload implements Runnable {
    private final StoreChaosUser u;
    private final Random rnd;
    private final CountDownLatch done;
    private final List<String> rooms;
    private int ticks;

    Workload(StoreChaosUser u, Random rnd, CountDownLatch done) {
      this.u = u;
      this.rnd = rnd;
      this.done = done;
      this.rooms = List.copyOf(u.rooms);
    }

    @Override
    public void run() {
      if (ticks >= TICKS_PER_USER) return;
      ticks++;
      String room = rooms.get(rnd.nextInt(rooms.size()));
      boolean fromSecond = rnd.nextDouble() < 0.2;
      ChatClient sender = fromSecond ? u.second : u.primary;
      String clientMessageId = u.userId + "-" + ticks;
      SendOptions options = threads.nextSend(u.userId, room, fromSecond ? u.secondView : u.view, rnd, clientMessageId);
      track("send", () -> sender.sendMessage(room, List.of(MessagePart.text(clientMessageId)), options));

      double roll = rnd.nextDouble();
      String other = rooms.get(rnd.nextInt(rooms.size()));
      if (roll < 0.08) {
        // as often a thread reply as a message of the main timeline
        Message mine = threads.toDelete(u.userId, other, u.view, rnd, roll >= 0.04);
        if (mine != null) track("delete", () -> u.primary.deleteMessage(other, mine.id()));
      } else if (roll < 0.11) {
        // an edit that replaces the mentions (with none half the time): the unread mentions follow it
        Message mine = u.view.pick(other, rnd, m -> m.senderId().equals(u.userId));
        List<String> mentions = rnd.nextBoolean() ? List.of() : threads.mentions(u.userId, other, rnd);
        if (mine != null) {
          track("edit", () -> u.primary.updateMessage(other, mine.id(), List.of(MessagePart.text(mine.text() + "!")),
              mentions));
        }
      } else if (roll < 0.25) {
        read(u.primary, u.primaryState, u.view.newest(other), other);
      } else if (roll < 0.40) {
        read(u.second, u.secondState, u.secondView.newest(other), other);
      }
      if (ticks == TICKS_PER_USER) done.countDown();
    }

    private void read(ChatClient client, ConnectionState state, Message newest, String room) {
      if (newest == null) return;
      if (state != ConnectionState.CONNECTED && state != ConnectionState.CLOSED) {
        opCounts.computeIfAbsent("readOffline", k -> new AtomicLong()).incrementAndGet(); // kept, sent on reconnect
      }
      track("read", () -> client.markRead(room, newest.id()));
    }

    /** Calls the SDK; a call that throws (a client being closed) is counted, and the workload goes on. */
    private void track(String kind, Supplier<CompletableFuture<?>> call) {
      opCounts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
      try {
        CompletableFuture<?> f = call.get();
        pending.add(f);
        f.whenComplete((v, e) -> {
          if (e != null) opCounts.computeIfAbsent(kind + "Failed", k -> new AtomicLong()).incrementAndGet();
        });
      } catch (RuntimeException e) {
        opCounts.computeIfAbsent(kind + "Threw", k -> new AtomicLong()).incrementAndGet();
        u.view.log(LogLevel.ERROR, kind + " threw", e);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------- verdicts

  /** What the live clients do not yet agree on with {@code truth}: deliveries and both devices' unread counts. */
  private List<String> liveProblems(StoreChaosCheck.Truth truth) {
    List<String> problems = new ArrayList<>();
    for (StoreChaosUser u : users.values()) {
      problems.addAll(StoreChaosCheck.deliveries(u, truth));
      problems.addAll(StoreChaosCheck.unreadCounts(u.userId, u.userId, u.rooms, u.primaryList, truth));
      problems.addAll(StoreChaosCheck.unreadCounts(u.userId + "#2", u.userId, u.rooms, u.secondList, truth));
      problems.addAll(StoreChaosCheck.threadSummaries(u.userId, u.view, truth));
      problems.addAll(StoreChaosCheck.threadSummaries(u.userId + "#2", u.secondView, truth));
    }
    return problems;
  }

  private StoreChaosCheck.Truth readTruth(Map<String, ChatClient> readers) throws Exception {
    Map<String, List<Message>> messages = new LinkedHashMap<>();
    Map<String, List<Receipt>> receipts = new LinkedHashMap<>();
    Map<String, Room> rooms = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : members.entrySet()) {
      ChatClient reader = readers.get(e.getValue().get(0));
      // the room first: its lastMessageSeq and rev are never ahead of the history read after it
      rooms.put(e.getKey(), await(reader.listRooms()).stream().filter(r -> r.id().equals(e.getKey())).findFirst()
          .orElseThrow(() -> new AssertionError(e.getValue().get(0) + " does not list " + e.getKey())));
      messages.put(e.getKey(), ChaosTruth.messages(reader, e.getKey()));
      receipts.put(e.getKey(), ChaosTruth.receipts(reader, e.getKey()));
    }
    return new StoreChaosCheck.Truth(messages, receipts, rooms);
  }

  private long awaitAll(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (CompletableFuture<?> f : pending) {
      try {
        f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException
          | java.util.concurrent.TimeoutException e) {
        // failed ones are counted by the workload, pending ones below
      }
    }
    return pending.stream().filter(f -> !f.isDone()).count();
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
