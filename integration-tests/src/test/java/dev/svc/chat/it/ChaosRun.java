package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.fail;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Receipt;
import dev.svc.chat.SendOptions;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.transport.Transport;
import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.it.faults.RandomFaults;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.testing.Await;
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

/**
 * One run of the chaos test's workload: six users in four overlapping rooms, every client behind a
 * {@link FaultProxy} that cuts and stalls connections at random, with session tokens of a few seconds that expire
 * and are refreshed all along. The app code is what a new user would write: {@code sendMessage} without any retry,
 * and plain {@code on(NEW_MESSAGE / MESSAGE_UPDATED / ROOM_READ)} handlers and a {@code roomList}; some sends are
 * thread replies or mention other members ({@link ChaosThreads}), and edits (some changing the mentions), reaction
 * toggles, deletes of messages and of thread replies, and {@code markRead} go on meanwhile. A {@link Disaster} may
 * strike the servers meanwhile, on a thread of its own. At the end every client's view of every room of its user
 * must equal the server's, read without faults: each message once, in seq order, in its latest state, every root
 * with the server's thread summary, the receipts, and the room list's {@code unreadMentions} (contract section 10);
 * every send must have been stored once, and every send the server acknowledged must be stored with the id and seq
 * it was acknowledged with.
 *
 * <p>{@code -Dchaos.scale=N} multiplies the messages and the duration (default 1: 600 messages over 20 s);
 * {@code -Dchaos.seed=S} replays the workload's and the proxies' random choices.
 */
final class ChaosRun implements AutoCloseable {
  static final int SCALE = Integer.getInteger("chaos.scale", 1);
  static final long SEED = Long.getLong("chaos.seed", System.currentTimeMillis());
  private static final int MESSAGES_PER_USER = 100 * SCALE;
  private static final Duration CHAOS = Duration.ofSeconds(20L * SCALE);
  private static final int TOKEN_SECONDS = 5;
  private static final Duration SETTLE = Duration.ofSeconds(20L + 2L * SCALE);
  private static final String[] EMOJI = {"👍", "🎉", "❤️"};
  private static final List<String> USERS = List.of("ana", "ben", "cleo", "dev", "eli", "fay");

  /**
   * Where the run's clients connect: client {@code i} through {@code proxies.get(i % proxies.size())}, whose random
   * faults the run drives; {@code directApiUrl} is a way in without faults, for tokens, rooms and the server's state
   * at the end; {@code apiKey} is the tenant's.
   */
  record Servers(List<FaultProxy> proxies, String directApiUrl, String apiKey) {
    String clientApiUrl(int index) {
      return proxies.get(index % proxies.size()).apiUrl();
    }
  }

  /** What happens to the servers while the workload runs, on a thread of its own; the run waits for its end. */
  interface Disaster {
    /** Strikes; {@code run} tells how far the workload got. */
    void strike(ChaosRun run) throws Exception;
  }

  private final String name;
  private final Servers servers;
  /** The clients' realtime transport; null for the default. */
  private final Transport transport;
  private final okhttp3.OkHttpClient tenantHttp = new okhttp3.OkHttpClient();
  private final ServerClient tenant;
  private final ExecutorService minting = Executors.newSingleThreadExecutor(daemon("chaos-mint"));
  private final ScheduledExecutorService driver = Executors.newSingleThreadScheduledExecutor(daemon("chaos-driver"));
  private final ExecutorService striking = Executors.newSingleThreadExecutor(daemon("chaos-disaster"));
  private final List<ChatClient> allClients = new ArrayList<>();

  private final Map<String, String> roomNames = new LinkedHashMap<>();
  private final Map<String, List<String>> members = new LinkedHashMap<>();
  private final Map<String, ChatClient> clients = new LinkedHashMap<>();
  private final Map<String, ChaosView> views = new LinkedHashMap<>();
  private final Queue<ChaosReport.Send> sends = new ConcurrentLinkedQueue<>();
  private final Queue<Message> acknowledged = new ConcurrentLinkedQueue<>();
  /** Each successful send's time from the call to its future's completion, in ms. */
  private final Queue<Long> sendMillis = new ConcurrentLinkedQueue<>();
  /** Whether this run kills servers: then a send may end with its client, and completion is only printed. */
  private boolean disasters;
  private final Queue<CompletableFuture<?>> pending = new ConcurrentLinkedQueue<>();
  private final Map<String, AtomicLong> opCounts = new ConcurrentHashMap<>();
  /** Per failed operation kind and reason ("edit not_found 404"), how many: why edits or deletes failed. */
  private final Map<String, AtomicLong> failures = new ConcurrentHashMap<>();
  private final AtomicInteger refreshes = new AtomicInteger();
  private final AtomicInteger mintRetries = new AtomicInteger();
  private final Object progress = new Object();
  private ChaosThreads threads;

  ChaosRun(String name, Servers servers) {
    this(name, servers, null);
  }

  /** A run whose clients' realtime sockets go over {@code transport} (null: the default, OkHttp). */
  ChaosRun(String name, Servers servers, Transport transport) {
    this.name = name;
    this.servers = servers;
    this.transport = transport;
    this.tenant = ServerClient.builder(servers.directApiUrl(), servers.apiKey()).okHttpClient(tenantHttp).build();
  }

  /** Returns how many sends the whole workload makes. */
  static int totalSends() {
    return MESSAGES_PER_USER * USERS.size();
  }

  /** Waits until the workload made at least {@code count} sends; false if {@code timeout} passed first. */
  boolean awaitSends(int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (progress) {
      while (sends.size() < count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return false;
        TimeUnit.NANOSECONDS.timedWait(progress, left);
      }
      return true;
    }
  }

  /** Runs the workload (with {@code disaster} striking meanwhile, if not null), compares, and fails on a problem. */
  void run(Disaster disaster) throws Exception {
    disasters = disaster != null;
    System.out.println("ChaosRun " + name + " scale=" + SCALE + " seed=" + SEED + " (replay with -Dchaos.seed=" + SEED + ")");
    Admin admin = new Admin(servers.directApiUrl(), servers.apiKey());
    String alpha = room(admin, "alpha", "ana", "ben", "cleo");
    String beta = room(admin, "beta", "ben", "cleo", "dev", "eli");
    room(admin, "gamma", "ana", "dev", "eli", "fay");
    String delta = room(admin, "delta", "ana", "ben", "cleo", "dev", "eli", "fay");
    Map<String, String> joined = Map.of("ana", alpha, "ben", beta, "dev", delta); // cleo, eli, fay join none
    threads = new ChaosThreads(members);

    int index = 0;
    for (String user : USERS) {
      Set<String> rooms = new LinkedHashSet<>();
      for (String r : roomNames.keySet()) {
        if (members.get(r).contains(user)) rooms.add(r);
      }
      connect(user, servers.clientApiUrl(index++), rooms, joined.get(user));
    }

    List<FaultProxy> proxies = servers.proxies();
    for (int i = 0; i < proxies.size(); i++) {
      proxies.get(i).startRandom(RandomFaults.of(SEED + i, CHAOS.plusSeconds(2))
          .withStalls(0.15, Duration.ofMillis(300), Duration.ofSeconds(6)));
    }
    CompletableFuture<Void> struck = disaster == null ? CompletableFuture.completedFuture(null)
        : CompletableFuture.runAsync(() -> {
          try {
            disaster.strike(this);
          } catch (Exception e) {
            throw new java.util.concurrent.CompletionException(e);
          }
        }, striking);
    CountDownLatch done = new CountDownLatch(clients.size());
    long intervalMillis = CHAOS.toMillis() / MESSAGES_PER_USER;
    index = 0;
    for (String user : clients.keySet()) {
      Workload w = new Workload(user, new Random(SEED * 31 + index), done);
      driver.scheduleAtFixedRate(w, index * intervalMillis / clients.size(), intervalMillis, TimeUnit.MILLISECONDS);
      index++;
    }
    if (!done.await(CHAOS.toMillis() * 3 + 30_000, TimeUnit.MILLISECONDS)) fail("the workload did not finish");
    struck.get(3, TimeUnit.MINUTES); // a disaster that failed fails the run here
    for (FaultProxy proxy : proxies) {
      if (!proxy.awaitRandomDone(CHAOS.plusSeconds(30))) fail("the proxy's random run did not end");
      proxy.heal();
    }
    List<FaultProxy.Stats> faults = proxies.stream().map(FaultProxy::stats).toList();

    int stillPending = awaitAll(pending, Duration.ofSeconds(60));

    Map<String, ChatClient> truthReaders = new TreeMap<>();
    for (String room : roomNames.keySet()) {
      String member = members.get(room).get(0);
      if (!truthReaders.containsKey(member)) truthReaders.put(member, direct(member));
    }
    // the clients' views may still be recovering: compared again until clean or the deadline; a server state that
    // changed meanwhile (a late retry stored) is waited for the same way
    ChaosReport report = null;
    ChaosReport.Truth truth = readTruth(truthReaders);
    for (int round = 0; round < 3; round++) {
      ChaosReport.Truth now = truth;
      report = Await.lastRead(() -> compare(now), ChaosReport::clean, SETTLE, Duration.ofMillis(200));
      ChaosReport.Truth again = readTruth(truthReaders);
      if (again.equals(truth)) break;
      System.out.println("ChaosRun " + name + ": the server's state changed while settling; settling on the newer one");
      truth = again;
    }

    String counts = "CHAOS " + name + " counts scale=" + SCALE + " seed=" + SEED + ": " + report.counts()
        + " | ops " + new TreeMap<>(opCounts) + " | threads " + threads.figures() + " | token refreshes=" + refreshes.get()
        + " (mints retried " + mintRetries.get() + ") | failed ops " + new TreeMap<>(failures) + " | proxies " + faults;
    System.out.println(counts);
    for (ChaosView v : views.values()) System.out.println("  " + v.userId + " " + v.counters());

    List<String> problems = new ArrayList<>(report.problems());
    // every send completes, through the cuts and stalls; its time from the call to the future's completion
    long[] took = sendMillis.stream().mapToLong(Long::longValue).sorted().toArray();
    System.out.println("CHAOS " + name + " send completion of " + took.length + " of " + sends.size() + " sends (ms): p50 "
        + (took.length == 0 ? -1 : took[(took.length - 1) / 2]) + ", p99 "
        + (took.length == 0 ? -1 : took[(int) Math.ceil(took.length * 0.99) - 1]) + ", max "
        + (took.length == 0 ? -1 : took[took.length - 1]));
    if (!disasters && took.length != sends.size()) {
      problems.add((sends.size() - took.length) + " of " + sends.size() + " sends did not complete");
    }
    if (stillPending > 0) problems.add(0, stillPending + " futures still pending 60 s after the faults ended");
    if (!problems.isEmpty()) {
      StringBuilder msg = new StringBuilder(counts).append('\n');
      for (String p : problems) msg.append(" - ").append(p).append('\n');
      for (ChaosView v : views.values()) {
        if (problems.stream().anyMatch(p -> p.startsWith(v.userId + " ") || p.startsWith(v.userId + ":"))) {
          msg.append("   last log of ").append(v.userId).append(": ").append(v.recentLog(8)).append('\n');
          msg.append("   rooms of ").append(v.userId).append(":\n").append(recoveryState(clients.get(v.userId)));
        }
      }
      fail(msg.toString());
    }
  }

  private ChaosReport compare(ChaosReport.Truth truth) {
    return ChaosReport.compare(List.copyOf(views.values()), roomNames, truth, List.copyOf(sends),
        List.copyOf(acknowledged));
  }

  /** Closes every client and executor the run made (not the servers, which it was given). */
  @Override
  public void close() {
    driver.shutdownNow();
    striking.shutdownNow();
    try {
      allClients.forEach(ChatClient::close);
    } finally {
      minting.shutdownNow();
      tenantHttp.dispatcher().executorService().shutdown();
      tenantHttp.connectionPool().evictAll();
    }
  }

  // ---------------------------------------------------------------------------------------------- set-up

  private String room(Admin admin, String name, String... memberIds) throws Exception {
    String id = admin.createRoom(name, memberIds);
    roomNames.put(id, name);
    members.put(id, List.of(memberIds));
    return id;
  }

  private static MintRequest shortLived(String user) {
    return MintRequest.builder(user).expiresIn(Duration.ofSeconds(TOKEN_SECONDS)).build();
  }

  /**
   * A tenant backend's refresh: mints a token, and mints again while the service does not answer (it may be
   * restarting), since a refresher's failure ends the client's connection for good.
   */
  private CompletableFuture<String> mint(String user, long deadlineNanos) {
    return CompletableFuture.supplyAsync(() -> tenant.mintToken(shortLived(user)).token(), minting)
        .handle((token, error) -> {
          if (error == null) return CompletableFuture.completedFuture(token);
          if (System.nanoTime() > deadlineNanos) return CompletableFuture.<String>failedFuture(error);
          mintRetries.incrementAndGet();
          return CompletableFuture.supplyAsync(() -> (Void) null,
              CompletableFuture.delayedExecutor(250, TimeUnit.MILLISECONDS, minting))
              .thenCompose(v -> mint(user, deadlineNanos));
        })
        .thenCompose(f -> f);
  }

  private void connect(String user, String apiUrl, Set<String> rooms, String joinedRoom) throws Exception {
    ChaosView view = new ChaosView(user, rooms);
    SvcOptions.Builder options = SvcOptions.builder(apiUrl)
        .tokenRefresher(() -> {
          refreshes.incrementAndGet();
          return mint(user, System.nanoTime() + TimeUnit.SECONDS.toNanos(60));
        })
        // An app may shorten the backoff; the default cap (30 s) would make the settling wait longer than CI allows.
        .reconnectDelay(250, 4000)
        .logger(view::log);
    if (transport != null) options.transport(transport);
    ChatClient client = Svc.init(options.build());
    allClients.add(client);
    client.on(EventType.NEW_MESSAGE, view::onNew);
    client.on(EventType.MESSAGE_UPDATED, view::onUpdated);
    client.on(EventType.ROOM_READ, view::onRead);
    client.on(EventType.CONNECTION_STATE, view::onState);
    client.on(EventType.RECOVERY, view::onRecovery);
    client.on(EventType.CLIENT_ERROR, view::onClientError);
    client.roomList(view::onRoomList);
    await(client.connect(user, tenant.mintToken(shortLived(user)).token()));
    if (joinedRoom != null) await(client.joinRoom(joinedRoom));
    clients.put(user, client);
    views.put(user, view);
  }

  /** The client's recovery state per room (its ledger, what it holds, its back-fill), indented, for a report. */
  private static String recoveryState(ChatClient client) {
    if (!(client instanceof dev.svc.chat.internal.RealChatClient)) return "     (not known)\n";
    try {
      String rooms = ((dev.svc.chat.internal.RealChatClient) client).describeRecovery().get(10, TimeUnit.SECONDS);
      return rooms.isEmpty() ? "     (none)\n" : "     " + rooms.trim().replace("\n", "\n     ") + "\n";
    } catch (Exception e) {
      return "     (could not be read: " + e + ")\n";
    }
  }

  /** A client of {@code user} connected without faults, for reading the server's state. */
  private ChatClient direct(String user) throws Exception {
    ChatClient c = Svc.init(servers.directApiUrl());
    allClients.add(c);
    await(c.connect(user, tenant.mintToken(MintRequest.builder(user).build()).token()));
    return c;
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
      synchronized (progress) {
        sends.add(new ChaosReport.Send(user, room, clientMessageId));
        progress.notifyAll();
      }
      long called = System.nanoTime();
      SendOptions options = threads.nextSend(user, room, view, rnd, clientMessageId);
      CompletableFuture<?> send = track("send",
          () -> client.sendMessage(room, List.of(MessagePart.text(clientMessageId)), options));
      if (send != null) {
        send.thenAccept(stored -> {
          sendMillis.add((System.nanoTime() - called) / 1_000_000);
          acknowledged.add((Message) stored);
        });
      }
      sent++;

      double roll = rnd.nextDouble();
      String other = rooms.get(rnd.nextInt(rooms.size()));
      if (roll < 0.06) {
        Message mine = view.pick(other, rnd, m -> m.senderId().equals(user));
        List<MessagePart> edited = mine == null ? null : List.of(MessagePart.text(mine.text() + " (edited)"));
        if (mine != null && rnd.nextBoolean()) {
          // the edit replaces the mentions: with none, or with one or two members chosen anew
          List<String> mentions = rnd.nextBoolean() ? List.of() : threads.mentions(user, other, rnd);
          track("edit", () -> client.updateMessage(other, mine.id(), edited, mentions));
        } else if (mine != null) {
          track("edit", () -> client.updateMessage(other, mine.id(), edited));
        }
      } else if (roll < 0.12) {
        Message any = view.pick(other, rnd, m -> true);
        if (any != null) track("react", () -> client.toggleReaction(other, any.id(), EMOJI[rnd.nextInt(EMOJI.length)]));
      } else if (roll < 0.16) {
        // as often a thread reply as a message of the main timeline
        Message mine = threads.toDelete(user, other, view, rnd, roll >= 0.14);
        if (mine != null) track("delete", () -> client.deleteMessage(other, mine.id()));
      } else if (roll < 0.26) {
        Message newest = view.newest(other);
        if (newest != null) track("read", () -> client.markRead(other, newest.id()));
      }
      if (sent == MESSAGES_PER_USER) done.countDown();
    }

    /**
     * Calls the SDK and returns its future; a call that throws instead of failing its future is counted, and the
     * workload goes on (null).
     */
    private CompletableFuture<?> track(String kind, java.util.function.Supplier<CompletableFuture<?>> call) {
      opCounts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
      CompletableFuture<?> f;
      try {
        f = call.get();
      } catch (RuntimeException e) {
        opCounts.computeIfAbsent(kind + "Threw", k -> new AtomicLong()).incrementAndGet();
        views.get(user).log(dev.svc.chat.LogLevel.ERROR, kind + " threw", e);
        return null;
      }
      pending.add(f);
      f.whenComplete((v, e) -> {
        if (e == null) return;
        opCounts.computeIfAbsent(kind + "Failed", k -> new AtomicLong()).incrementAndGet();
        failures.computeIfAbsent(kind + " " + reason(e), k -> new AtomicLong()).incrementAndGet();
      });
      return f;
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

  /** Why a call failed, short: the service's code and status, or the exception's class. */
  private static String reason(Throwable e) {
    Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
    if (cause instanceof dev.svc.chat.ApiException) {
      dev.svc.chat.ApiException api = (dev.svc.chat.ApiException) cause;
      return api.code() + " " + api.status();
    }
    return cause.getClass().getSimpleName();
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

  static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
