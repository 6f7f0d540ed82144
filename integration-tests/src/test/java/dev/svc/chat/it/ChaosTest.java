package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.fail;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Receipt;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.it.faults.RandomFaults;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.ServerClient;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 8's acceptance test: six users in four overlapping rooms, every client behind a {@link FaultProxy} that cuts
 * and stalls connections at random, with session tokens of a few seconds that expire and are refreshed all along.
 * The app code is what a new user would write: {@code sendMessage} without any retry, and plain
 * {@code on(NEW_MESSAGE / MESSAGE_UPDATED / ROOM_READ)} handlers; some edits, reaction toggles, deletes and
 * {@code markRead} go on meanwhile. At the end every client's view of every room of its user must equal the
 * server's, read directly (not through the proxy): each message once, in seq order, in its latest state, and the
 * receipts; and every send must have been stored.
 *
 * <p>{@code -Dchaos.scale=N} multiplies the messages and the duration (default 1: 600 messages over 20 s);
 * {@code -Dchaos.seed=S} replays the workload's and the proxy's random choices. Tagged {@code chaos} so that it can
 * be left out with {@code -DexcludedGroups=chaos}.
 */
@Tag("chaos")
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class ChaosTest {
  private static final int SCALE = Integer.getInteger("chaos.scale", 1);
  private static final long SEED = Long.getLong("chaos.seed", System.currentTimeMillis());
  private static final int MESSAGES_PER_USER = 100 * SCALE;
  private static final Duration CHAOS = Duration.ofSeconds(20L * SCALE);
  private static final int TOKEN_SECONDS = 5;
  private static final Duration SETTLE = Duration.ofSeconds(20L + 2L * SCALE);
  private static final String[] EMOJI = {"👍", "🎉", "❤️"};

  private ChatFixture chat;
  private FaultProxy proxy;
  private final okhttp3.OkHttpClient tenantHttp = new okhttp3.OkHttpClient();
  private ServerClient tenant;
  private ExecutorService minting;
  private ScheduledExecutorService driver;

  private final Map<String, String> roomNames = new LinkedHashMap<>();
  private final Map<String, ChatClient> clients = new LinkedHashMap<>();
  private final Map<String, ChaosView> views = new LinkedHashMap<>();
  private final Queue<ChaosReport.Send> sends = new ConcurrentLinkedQueue<>();
  private final Queue<CompletableFuture<?>> pending = new ConcurrentLinkedQueue<>();
  /** Each successful send's time from the call to its future's completion, in ms. */
  private final Queue<Long> sendMillis = new ConcurrentLinkedQueue<>();
  private final Map<String, AtomicLong> opCounts = new ConcurrentHashMap<>();
  private final AtomicInteger refreshes = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    // Heartbeats short enough that a stalled connection can be detected within the run (2 s + 2 s).
    chat = new ChatFixture(ReferenceServer.builder().port(0)
        .pingInterval(Duration.ofSeconds(2)).pingTimeout(Duration.ofSeconds(2)));
    proxy = FaultProxy.start("127.0.0.1", chat.server().port(), SEED, true);
    tenant = ServerClient.builder(chat.server().apiUrl(), chat.server().apiKey()).okHttpClient(tenantHttp).build();
    minting = Executors.newSingleThreadExecutor(daemon("chaos-mint"));
    driver = Executors.newSingleThreadScheduledExecutor(daemon("chaos-driver"));
  }

  @AfterEach
  void stop() {
    driver.shutdownNow();
    try {
      chat.close();
    } finally {
      proxy.close();
      minting.shutdownNow();
      tenantHttp.dispatcher().executorService().shutdown();
      tenantHttp.connectionPool().evictAll();
    }
  }

  @Test
  void everyClientEndsWithTheServersViewOfEveryRoomThroughCutsStallsAndTokenExpiries() throws Exception {
    System.out.println("ChaosTest scale=" + SCALE + " seed=" + SEED + " (replay with -Dchaos.seed=" + SEED + ")");
    Admin admin = chat.admin();
    String alpha = room(admin, "alpha", "ana", "ben", "cleo");
    String beta = room(admin, "beta", "ben", "cleo", "dev", "eli");
    String gamma = room(admin, "gamma", "ana", "dev", "eli", "fay");
    String delta = room(admin, "delta", "ana", "ben", "cleo", "dev", "eli", "fay");
    Map<String, String> joined = Map.of("ana", alpha, "ben", beta, "dev", delta); // cleo, eli, fay join none

    for (String user : List.of("ana", "ben", "cleo", "dev", "eli", "fay")) {
      Set<String> rooms = new LinkedHashSet<>();
      for (String r : roomNames.keySet()) {
        if (members.get(r).contains(user)) rooms.add(r);
      }
      connect(user, rooms, joined.get(user));
    }

    proxy.startRandom(RandomFaults.of(SEED, CHAOS.plusSeconds(2)).withStalls(0.15, Duration.ofMillis(300),
        Duration.ofSeconds(6)));
    CountDownLatch done = new CountDownLatch(clients.size());
    long intervalMillis = CHAOS.toMillis() / MESSAGES_PER_USER;
    int index = 0;
    for (String user : clients.keySet()) {
      Workload w = new Workload(user, new Random(SEED * 31 + index), done);
      driver.scheduleAtFixedRate(w, index * intervalMillis / clients.size(), intervalMillis, TimeUnit.MILLISECONDS);
      index++;
    }
    if (!done.await(CHAOS.toMillis() * 3 + 30_000, TimeUnit.MILLISECONDS)) fail("the workload did not finish");
    if (!proxy.awaitRandomDone(CHAOS.plusSeconds(30))) fail("the proxy's random run did not end");
    proxy.heal();
    FaultProxy.Stats faults = proxy.stats();

    int stillPending = awaitAll(pending, Duration.ofSeconds(60));

    Map<String, ChatClient> truthReaders = new TreeMap<>();
    for (String room : roomNames.keySet()) {
      String member = members.get(room).get(0);
      if (!truthReaders.containsKey(member)) truthReaders.put(member, chat.connected(member)); // direct, not proxied
    }
    ChaosReport.Truth truth = readTruth(truthReaders);

    long deadline = System.nanoTime() + SETTLE.toNanos();
    ChaosReport report = ChaosReport.compare(List.copyOf(views.values()), roomNames, truth, List.copyOf(sends));
    while (!report.clean() && System.nanoTime() < deadline) {
      Thread.sleep(200); // polling the clients' views for a deadline: they may still be recovering
      report = ChaosReport.compare(List.copyOf(views.values()), roomNames, truth, List.copyOf(sends));
    }
    ChaosReport.Truth again = readTruth(truthReaders);
    if (!again.equals(truth)) {
      System.out.println("ChaosTest: the server's state changed while settling; comparing with the newer one");
      report = ChaosReport.compare(List.copyOf(views.values()), roomNames, again, List.copyOf(sends));
    }

    String counts = "CHAOS counts scale=" + SCALE + " seed=" + SEED + ": " + report.counts()
        + " | ops " + new TreeMap<>(opCounts) + " | token refreshes=" + refreshes.get()
        + " | proxy " + faults;
    System.out.println(counts);
    for (ChaosView v : views.values()) System.out.println("  " + v.userId + " " + v.counters());

    List<String> problems = new ArrayList<>(report.problems());
    // Every send completes, through the cuts and stalls; its time from the call to the future's completion.
    long[] took = sendMillis.stream().mapToLong(Long::longValue).sorted().toArray();
    System.out.println("CHAOS send completion of " + took.length + " of " + sends.size() + " sends (ms): p50 "
        + (took.length == 0 ? -1 : took[(took.length - 1) / 2]) + ", p99 "
        + (took.length == 0 ? -1 : took[(int) Math.ceil(took.length * 0.99) - 1]) + ", max "
        + (took.length == 0 ? -1 : took[took.length - 1]));
    if (took.length != sends.size()) problems.add((sends.size() - took.length) + " of " + sends.size() + " sends did not complete");
    if (stillPending > 0) problems.add(0, stillPending + " futures still pending 60 s after the faults ended");
    if (!problems.isEmpty()) {
      StringBuilder msg = new StringBuilder(counts).append('\n');
      for (String p : problems) msg.append(" - ").append(p).append('\n');
      for (ChaosView v : views.values()) {
        if (problems.stream().anyMatch(p -> p.startsWith(v.userId + " ") || p.startsWith(v.userId + ":"))) {
          msg.append("   last log of ").append(v.userId).append(": ").append(v.recentLog(8)).append('\n');
        }
      }
      fail(msg.toString());
    }
  }

  // ---------------------------------------------------------------------------------------------- set-up

  private final Map<String, List<String>> members = new LinkedHashMap<>();

  private String room(Admin admin, String name, String... memberIds) throws Exception {
    String id = admin.createRoom(name, memberIds);
    roomNames.put(id, name);
    members.put(id, List.of(memberIds));
    return id;
  }

  private static MintRequest shortLived(String user) {
    return MintRequest.builder(user).expiresIn(Duration.ofSeconds(TOKEN_SECONDS)).build();
  }

  private void connect(String user, Set<String> rooms, String joinedRoom) throws Exception {
    ChaosView view = new ChaosView(user, rooms);
    SvcOptions options = SvcOptions.builder(proxy.apiUrl())
        .tokenRefresher(() -> {
          refreshes.incrementAndGet();
          return CompletableFuture.supplyAsync(() -> tenant.mintToken(shortLived(user)).token(), minting);
        })
        // An app may shorten the backoff; the default cap (30 s) would make the settling wait longer than CI allows.
        .reconnectDelay(250, 4000)
        .logger(view::log)
        .build();
    ChatClient client = chat.newClient(options);
    client.on(EventType.NEW_MESSAGE, view::onNew);
    client.on(EventType.MESSAGE_UPDATED, view::onUpdated);
    client.on(EventType.ROOM_READ, view::onRead);
    client.on(EventType.CONNECTION_STATE, view::onState);
    client.on(EventType.RECOVERY, view::onRecovery);
    await(client.connect(user, tenant.mintToken(shortLived(user)).token()));
    if (joinedRoom != null) await(client.joinRoom(joinedRoom));
    clients.put(user, client);
    views.put(user, view);
  }

  // ---------------------------------------------------------------------------------------------- workload

  /** One user's activity, one tick at a time on the driver thread: a send, and sometimes an edit, toggle, delete or read. */
  private final class Workload implements Runnable {
    private final String user;
    private final Random rnd;
    private final CountDownLatch done;
    private final List<String> rooms;
    private int sent;

    Workload(String user, Random rnd, CountDownLatch done) {
      this.user = user;
      this.rnd = rnd;
      this.done = done;
      this.rooms = List.copyOf(views.get(user).rooms);
    }

    @Override
    public void run() {
      if (sent >= MESSAGES_PER_USER) return;
      ChatClient client = clients.get(user);
      ChaosView view = views.get(user);
      String room = rooms.get(rnd.nextInt(rooms.size()));
      String clientMessageId = user + "-" + (sent + 1);
      sends.add(new ChaosReport.Send(user, room, clientMessageId));
      long called = System.nanoTime();
      track("send", () -> client.sendMessage(room, List.of(MessagePart.text(clientMessageId)), clientMessageId)
          .whenComplete((m, e) -> {
            if (e == null) sendMillis.add((System.nanoTime() - called) / 1_000_000);
          }));
      sent++;

      double roll = rnd.nextDouble();
      String other = rooms.get(rnd.nextInt(rooms.size()));
      if (roll < 0.06) {
        Message mine = view.pick(other, rnd, m -> m.senderId().equals(user));
        if (mine != null) {
          track("edit", () -> client.updateMessage(other, mine.id(), List.of(MessagePart.text(mine.text() + " (edited)"))));
        }
      } else if (roll < 0.14) {
        Message any = view.pick(other, rnd, m -> true);
        if (any != null) track("react", () -> client.toggleReaction(other, any.id(), EMOJI[rnd.nextInt(EMOJI.length)]));
      } else if (roll < 0.16) {
        Message mine = view.pick(other, rnd, m -> m.senderId().equals(user));
        if (mine != null) track("delete", () -> client.deleteMessage(other, mine.id()));
      } else if (roll < 0.26) {
        Message newest = view.newest(other);
        if (newest != null) track("read", () -> client.markRead(other, newest.id()));
      }
      if (sent == MESSAGES_PER_USER) done.countDown();
    }

    /** Calls the SDK; a call that throws instead of failing its future is counted, and the workload goes on. */
    private void track(String kind, java.util.function.Supplier<CompletableFuture<?>> call) {
      opCounts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
      CompletableFuture<?> f;
      try {
        f = call.get();
      } catch (RuntimeException e) {
        opCounts.computeIfAbsent(kind + "Threw", k -> new AtomicLong()).incrementAndGet();
        views.get(user).log(dev.svc.chat.LogLevel.ERROR, kind + " threw", e);
        return;
      }
      pending.add(f);
      f.whenComplete((v, e) -> {
        if (e != null) opCounts.computeIfAbsent(kind + "Failed", k -> new AtomicLong()).incrementAndGet();
      });
    }
  }

  // ---------------------------------------------------------------------------------------------- the truth

  private ChaosReport.Truth readTruth(Map<String, ChatClient> readers) throws Exception {
    Map<String, List<Message>> messages = new LinkedHashMap<>();
    Map<String, List<Receipt>> receipts = new LinkedHashMap<>();
    for (String room : roomNames.keySet()) {
      ChatClient reader = readers.get(members.get(room).get(0));
      List<Message> history = ChaosTruth.messages(reader, room);
      messages.put(room, history);
      receipts.put(room, ChaosTruth.receipts(reader, room));
      List<Message> changes = ChaosTruth.changesSinceZero(reader, room);
      if (changes != null) {
        // the changes feed and the history must agree on every message's latest state
        Map<String, Message> byId = new LinkedHashMap<>();
        for (Message m : history) byId.put(m.id(), m);
        for (Message m : changes) {
          if (!m.equals(byId.get(m.id()))) fail("server: getChanges and getMessages disagree on " + m + " vs " + byId.get(m.id()));
        }
        if (changes.size() != history.size()) {
          fail("server: getChanges(0) has " + changes.size() + " messages, the history " + history.size());
        }
      }
    }
    return new ChaosReport.Truth(messages, receipts);
  }

  /** Waits for every future to complete (however it completes); returns how many are still pending at the deadline. */
  private static int awaitAll(Queue<CompletableFuture<?>> futures, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (CompletableFuture<?> f : futures) {
      long left = deadline - System.nanoTime();
      try {
        f.get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException e) {
        // failed: counted by the workload
      } catch (java.util.concurrent.TimeoutException e) {
        // counted below
      }
    }
    return (int) futures.stream().filter(f -> !f.isDone()).count();
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
