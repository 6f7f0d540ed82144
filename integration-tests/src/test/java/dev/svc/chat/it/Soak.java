package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.it.faults.RandomFaults;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.testing.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak: one reference server (a child JVM on its SQLite data directory) and many SDK clients in this JVM, for a
 * long time, through a {@link FaultProxy} that cuts and stalls connections at random; meanwhile clients send,
 * disconnect and connect again, are closed and replaced by new instances, join and leave rooms, and their short
 * session tokens expire and are refreshed. Every {@code sampleSeconds} it samples heap after GC, threads and file
 * descriptors of both processes (a table row is printed, with this JVM's threads by group); the clients' threads
 * are counted without OkHttp's shared pools and the proxy's ({@link ThreadCensus#NOT_THE_CLIENTS} says why). At
 * the end it prints the table, writes it and an SVG plot to {@code out}, and returns the problems: growth after
 * the warm-up (for threads, by group), an operation of the churn still pending (named), a lost or duplicated
 * message (a gap or a repeat in any instance's seqs, an instance not caught up with the last message of each
 * room, a send that failed, a clientMessageId stored twice), an ERROR logged by a client or the server.
 */
final class Soak implements AutoCloseable {
  /** The run's size; {@link #fromSystemProperties()} reads {@code -Dsoak.*}. */
  record Config(int clients, Duration duration, Duration sample, Duration warmUp, double sendsPerSecond,
      Duration churnEvery, int tokenSeconds, Path out, long seed) {
    /** The CI size by default; the script passes the hour's. */
    static Config fromSystemProperties() {
      return new Config(Integer.getInteger("soak.clients", 24),
          Duration.ofSeconds(Long.getLong("soak.seconds", 45)),
          Duration.ofSeconds(Long.getLong("soak.sampleSeconds", 3)),
          Duration.ofSeconds(Long.getLong("soak.warmUpSeconds", 15)),
          Double.parseDouble(System.getProperty("soak.sendsPerSecond", "8")),
          Duration.ofMillis(Long.getLong("soak.churnMillis", 700)),
          Integer.getInteger("soak.tokenSeconds", 5),
          Path.of(System.getProperty("soak.out", "target/soak")),
          Long.getLong("soak.seed", System.currentTimeMillis()));
    }
  }

  private static final String KEY = "sk_test_soak_0123456789";

  private final Config config;
  private final Random rnd;
  private final SoakServer server;
  private final FaultProxy proxy;
  private final okhttp3.OkHttpClient http = new okhttp3.OkHttpClient();
  private final okhttp3.OkHttpClient tenantHttp = new okhttp3.OkHttpClient();
  private final ServerClient tenant;
  private final ScheduledExecutorService driver = Executors.newScheduledThreadPool(2, ChaosRun.daemon("soak-driver"));
  private final ExecutorService work = Executors.newFixedThreadPool(4, ChaosRun.daemon("soak-work"));
  private final List<String> rooms = new ArrayList<>();
  private final List<SoakClient> live = new CopyOnWriteArrayList<>();
  /** The churn's and the sends' futures not yet complete, each with what it is ("u003 joinRoom r"). */
  private final java.util.Map<CompletableFuture<?>, String> pending = new ConcurrentHashMap<>();
  private final SoakClient.Totals totals = new SoakClient.Totals();
  private final AtomicLong sends = new AtomicLong();
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong sendFailures = new AtomicLong();
  private final AtomicLong abandonedByClose = new AtomicLong();
  private final AtomicLong reconnects = new AtomicLong();
  private final AtomicLong replacements = new AtomicLong();
  private final AtomicLong joins = new AtomicLong();
  private final AtomicLong refreshes = new AtomicLong();
  private final long started = System.nanoTime();
  /** This JVM's threads by group at each sample, in the order of the chart's rows. */
  private final List<ThreadCensus> censuses = new CopyOnWriteArrayList<>();
  private final Path dataDir;

  Soak(Config config) throws Exception {
    this.config = config;
    this.rnd = new Random(config.seed());
    Files.createDirectories(config.out());
    dataDir = Files.createTempDirectory("soak-data");
    server = new SoakServer(dataDir, config.out().resolve("server.log"), KEY,
        "--ping-interval", "5s", "--ping-timeout", "5s", "--send-rate", "1000", "--send-burst", "1000");
    proxy = FaultProxy.start("127.0.0.1", server.port(), config.seed(), true);
    tenant = ServerClient.builder("http://127.0.0.1:" + server.port() + "/v1", KEY).okHttpClient(tenantHttp).build();
  }

  /** Runs the soak and returns its problems (empty: it passed). */
  List<String> run() throws Exception {
    System.out.println("Soak " + config);
    Admin admin = new Admin("http://127.0.0.1:" + server.port() + "/v1", KEY);
    int roomCount = Math.max(2, config.clients() / 5);
    List<List<String>> members = new ArrayList<>();
    for (int r = 0; r < roomCount; r++) members.add(new ArrayList<>());
    for (int i = 0; i < config.clients(); i++) {
      members.get(i % roomCount).add(user(i));
      members.get((i + roomCount / 2 + 1) % roomCount).add(user(i)); // a second room, never the first one again
    }
    for (int r = 0; r < roomCount; r++) rooms.add(admin.createRoom("soak-" + r, members.get(r).toArray(new String[0])));
    for (int i = 0; i < config.clients(); i++) {
      live.add(await(open(user(i), List.of(rooms.get(i % roomCount), rooms.get((i + roomCount / 2 + 1) % roomCount)))));
    }

    // the clients' threads without the pools that breathe with the load and the proxy's (ThreadCensus says why)
    ProcessProbe self = ProcessProbe.self("clients", () -> ThreadCensus.now().clients());
    try (ProcessProbe serverProbe = ProcessProbe.attach("server", server.pid())) {
      SoakChart chart = new SoakChart(List.of(serverProbe.name(), self.name()));
      System.out.println(chart.header());
      sample(chart, serverProbe, self);
      proxy.startRandom(RandomFaults.of(config.seed(), config.duration()).withGaps(Duration.ofMillis(500),
          Duration.ofSeconds(4)).withCutAllChance(0.02).withStalls(0.1, Duration.ofMillis(300), Duration.ofSeconds(4)));
      long sendEvery = Math.max(1, (long) (1_000_000 / config.sendsPerSecond()));
      driver.scheduleAtFixedRate(guard(this::sendOne), sendEvery, sendEvery, TimeUnit.MICROSECONDS);
      driver.scheduleAtFixedRate(guard(this::churnOne), config.churnEvery().toMillis(), config.churnEvery().toMillis(),
          TimeUnit.MILLISECONDS);
      driver.scheduleAtFixedRate(guard(() -> sample(chart, serverProbe, self)), config.sample().toMillis(),
          config.sample().toMillis(), TimeUnit.MILLISECONDS);
      // the soak's length itself: nothing ends the driver before
      driver.awaitTermination(config.duration().toMillis(), TimeUnit.MILLISECONDS);
      driver.shutdownNow();
      driver.awaitTermination(30, TimeUnit.SECONDS);
      proxy.stopRandom();
      proxy.heal();
      List<String> problems = settle();
      sample(chart, serverProbe, self);

      String table = chart.table();
      System.out.println("Soak table:\n" + table);
      String summary = summary();
      System.out.println(summary);
      Files.writeString(config.out().resolve("soak.md"), summary + "\n\n" + table, StandardCharsets.UTF_8);
      Files.writeString(config.out().resolve("soak.svg"), chart.svg(String.format(java.util.Locale.ROOT,
          "soak: %d clients, %d min, %.0f sends/s, churn every %d ms", config.clients(), config.duration().toMinutes(),
          config.sendsPerSecond(), config.churnEvery().toMillis())), StandardCharsets.UTF_8);
      int warmUpRows = (int) (config.warmUp().toMillis() / config.sample().toMillis()) + 1;
      for (String grew : chart.growth(warmUpRows)) {
        // which kinds of thread came: the census after the warm-up against the last one
        boolean threads = grew.startsWith("clients threads") && censuses.size() > warmUpRows;
        problems.add(threads ? grew + "; by group: " + censuses.get(censuses.size() - 1).changesSince(
            censuses.get(warmUpRows)) : grew);
      }
      if (totals.lost.get() > 0 || totals.duplicated.get() > 0 || totals.errorsLogged.get() > 0) {
        problems.add("lost=" + totals.lost + " duplicated=" + totals.duplicated + " errorsLogged=" + totals.errorsLogged
            + ": " + totals.firstProblems);
      }
      if (sendFailures.get() > 0) problems.add(sendFailures + " sends failed (not by a close)");
      if (server.errorLines() > 0) problems.add("the server logged " + server.errorLines() + " error lines: " + server.firstErrors());
      return problems;
    }
  }

  private String summary() {
    return String.format(java.util.Locale.ROOT, "Soak: %d clients, %s, seed %d | sends %d acknowledged %d failed %d "
        + "(abandoned by a close %d) | delivered %d lost %d duplicated %d | reconnects %d replacements %d joins/leaves %d "
        + "token refreshes %d | errors logged: clients %d server %d | data directory %.1f MB | proxy %s",
        config.clients(), config.duration(),
        config.seed(), sends.get(), acknowledged.get(), sendFailures.get(), abandonedByClose.get(), totals.delivered.get(),
        totals.lost.get(), totals.duplicated.get(), reconnects.get(), replacements.get(), joins.get(), refreshes.get(),
        totals.errorsLogged.get(), server.errorLines(), bytesIn(dataDir) / (1024.0 * 1024.0), proxy.stats());
  }

  /** The bytes of the files under {@code dir} (the SQLite database and its log: what the history costs on disk). */
  private static long bytesIn(Path dir) {
    try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    } catch (java.io.IOException e) {
      return -1;
    }
  }

  // ---------------------------------------------------------------------------------------------- traffic

  private static String user(int i) {
    return String.format(java.util.Locale.ROOT, "u%03d", i);
  }

  private String token(String user, int seconds) {
    return tenant.mintToken(MintRequest.builder(user).expiresIn(Duration.ofSeconds(seconds)).build()).token();
  }

  /** A new instance of {@code user}'s client, connected through the proxy (the future completes once connected). */
  private CompletableFuture<SoakClient> open(String user, List<String> userRooms) {
    return CompletableFuture.supplyAsync(() -> {
      SoakClient[] holder = new SoakClient[1];
      ChatClient client = Svc.init(SvcOptions.builder(proxy.apiUrl()).okHttpClient(http)
          .reconnectDelay(250, 4000)
          .logger((level, message, error) -> holder[0].log(level, message, error))
          .tokenRefresher(() -> {
            refreshes.incrementAndGet();
            CompletableFuture<String> fresh = CompletableFuture.supplyAsync(() -> token(user, config.tokenSeconds()), work);
            track(user + " token refresh", fresh);
            return fresh;
          })
          .build());
      SoakClient c = new SoakClient(user, userRooms, client, totals);
      holder[0] = c;
      client.on(EventType.NEW_MESSAGE, c::onNew);
      return c;
    }, work).thenCompose(c -> connect(c, 5).handle((v, e) -> {
      if (e == null) return c;
      c.client.close(); // never left running unreferenced
      throw new java.util.concurrent.CompletionException(e);
    }));
  }

  /**
   * Connects {@code c} with a fresh token; a connect that fails (the proxy may cut the handshake) is tried again,
   * {@code attempts} times in all.
   */
  private CompletableFuture<Void> connect(SoakClient c, int attempts) {
    return CompletableFuture.supplyAsync(() -> token(c.userId, config.tokenSeconds()), work)
        .thenCompose(t -> {
          CompletableFuture<Void> connected = c.client.connect(c.userId, t);
          track(c.userId + " connect", connected);
          return connected;
        })
        .handle((v, e) -> {
          if (e == null) return CompletableFuture.<Void>completedFuture(null);
          if (attempts <= 1) return CompletableFuture.<Void>failedFuture(e);
          return connect(c, attempts - 1);
        })
        .thenCompose(f -> f);
  }

  private void sendOne() {
    SoakClient c = live.get(rnd.nextInt(live.size()));
    String room = c.rooms.get(rnd.nextInt(c.rooms.size()));
    String clientMessageId = c.userId + "-" + sends.incrementAndGet();
    CompletableFuture<Message> f;
    try {
      f = c.client.sendMessage(room, List.of(MessagePart.text(clientMessageId)), clientMessageId);
    } catch (ChatStateException closedMeanwhile) {
      abandonedByClose.incrementAndGet();
      return;
    }
    track(c.userId + " sendMessage " + clientMessageId, f);
    track(c.userId + " send's accounting " + clientMessageId, f.whenComplete((m, e) -> {
      if (e == null) {
        acknowledged.incrementAndGet();
      } else if (c.closing) {
        abandonedByClose.incrementAndGet(); // the churn closed the instance before the send was stored
      } else {
        sendFailures.incrementAndGet();
        totals.problem(c.userId + ": send " + clientMessageId + " failed: " + e);
      }
    }));
  }

  /** One churn: a reconnect, a replacement by a new instance, or a join or leave. */
  private void churnOne() {
    int index = rnd.nextInt(live.size());
    SoakClient c = live.get(index);
    double roll = rnd.nextDouble();
    if (roll < 0.4) {
      reconnects.incrementAndGet();
      CompletableFuture<Void> disconnected = c.client.disconnect();
      track(c.userId + " disconnect", disconnected);
      track(c.userId + " disconnect then connect", disconnected.thenCompose(v -> connect(c, 5)));
    } else if (roll < 0.7) {
      replacements.incrementAndGet();
      CompletableFuture<SoakClient> next = open(c.userId, c.rooms);
      track(c.userId + " replacement's open and connect", next);
      track(c.userId + " replacement", next.thenAcceptAsync(n -> {
        int at = live.indexOf(c);
        if (at < 0) { // replaced meanwhile by another churn
          n.client.close();
          return;
        }
        live.set(at, n);
        c.closing = true;
        c.client.close();
      }, work));
    } else {
      joins.incrementAndGet();
      String room = c.rooms.get(rnd.nextInt(c.rooms.size()));
      boolean join = rnd.nextBoolean();
      track(c.userId + (join ? " joinRoom " : " leaveRoom ") + room,
          join ? c.client.joinRoom(room) : c.client.leaveRoom(room));
    }
  }

  /** Keeps {@code f} until it completes; {@code what} names it if it does not ({@link #settle()}). */
  private void track(String what, CompletableFuture<?> f) {
    pending.put(f, what);
    f.whenComplete((v, e) -> pending.remove(f));
  }

  // ---------------------------------------------------------------------------------------------- the end

  /**
   * Waits for what is under way, sends a last message to every room, waits until every instance delivered it after
   * all before it, and checks the stored histories: no clientMessageId twice. Returns the problems found.
   */
  private List<String> settle() throws Exception {
    List<String> problems = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    for (CompletableFuture<?> f : List.copyOf(pending.keySet())) {
      try {
        f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        // a failed churn step: the instance stays as it is; the checks below see whether it caught up
      } catch (java.util.concurrent.TimeoutException e) {
        break; // the ones still pending are named below
      }
    }
    List<String> stuck = new ArrayList<>(pending.values());
    if (!stuck.isEmpty()) {
      java.util.Collections.sort(stuck);
      problems.add(stuck.size() + " operations still pending 120 s after the end: " + stuck);
    }
    // an instance whose churn left it disconnected (a connect cut mid-handshake fails its future) connects again
    List<CompletableFuture<?>> reconnecting = new ArrayList<>();
    for (SoakClient c : live) {
      if (c.client.state() != dev.svc.chat.ConnectionState.CONNECTED) {
        reconnecting.add(connect(c, 5));
      }
    }
    for (CompletableFuture<?> f : reconnecting) f.get(60, TimeUnit.SECONDS);
    for (String room : rooms) {
      SoakClient sender = live.stream().filter(c -> c.rooms.contains(room)).findFirst().orElseThrow();
      await(sender.client.sendMessage(room, List.of(MessagePart.text("last")), "last-" + room));
    }
    // the instances may still be recovering: their last seqs are read again until none is behind or the deadline
    List<String> behind = Await.lastRead(this::behind, List::isEmpty, Duration.ofSeconds(120), Duration.ofMillis(250));
    if (!behind.isEmpty()) {
      problems.add(behind.size() + " instances not caught up 120 s after the end: "
          + behind.subList(0, Math.min(5, behind.size())));
    }
    Set<String> seen = new HashSet<>();
    long stored = 0;
    for (SoakClient c : live) {
      for (String room : c.rooms) {
        if (!seen.add(room)) continue;
        List<Message> history = ChaosTruth.messages(c.client, room);
        stored += history.size();
        Set<String> ids = new HashSet<>();
        for (Message m : history) {
          if (m.clientMessageId() != null && !ids.add(m.clientMessageId())) {
            problems.add("room " + room + " stored " + m.clientMessageId() + " twice");
          }
        }
      }
    }
    if (stored < acknowledged.get() + rooms.size()) {
      problems.add("stored " + stored + " messages, fewer than the " + acknowledged + " sends acknowledged and "
          + rooms.size() + " last ones");
    }
    System.out.println("Soak: " + stored + " messages stored in " + rooms.size() + " rooms");
    return problems;
  }

  /** The instances whose last delivered seq of one of their rooms is not the room's "last" message. */
  private List<String> behind() throws Exception {
    List<String> behind = new ArrayList<>();
    java.util.Map<String, Long> lastSeq = new java.util.HashMap<>();
    for (SoakClient c : live) {
      for (String room : c.rooms) {
        long target = lastSeq.computeIfAbsent(room, r -> lastOf(c, r));
        if (c.last(room) != target) behind.add(c.userId + " in " + room + " at " + c.last(room) + " of " + target);
      }
    }
    return behind;
  }

  private long lastOf(SoakClient member, String room) {
    try {
      dev.svc.chat.MessagePage page = await(member.client.getMessages(room, dev.svc.chat.MessageQuery.latest(1)));
      return page.messages().isEmpty() ? 0 : page.messages().get(page.messages().size() - 1).seq();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private void sample(SoakChart chart, ProcessProbe serverProbe, ProcessProbe self) {
    double minute = (System.nanoTime() - started) / 60e9;
    SoakChart.Row row = new SoakChart.Row(minute, List.of(serverProbe.sample(), self.sample()));
    chart.add(row);
    ThreadCensus census = ThreadCensus.now();
    censuses.add(census);
    System.out.println(chart.format(row) + " all " + census.total() + " " + census);
  }

  private static Runnable guard(Runnable r) {
    return () -> {
      try {
        r.run();
      } catch (RuntimeException e) {
        // a scheduled task that throws is never run again: report it and go on
        System.out.println("Soak: " + e);
      }
    };
  }

  @Override
  public void close() {
    driver.shutdownNow();
    for (SoakClient c : live) c.client.close();
    work.shutdownNow();
    proxy.close();
    server.close();
    for (okhttp3.OkHttpClient h : List.of(http, tenantHttp)) {
      h.dispatcher().executorService().shutdown();
      h.connectionPool().evictAll();
    }
    try (java.util.stream.Stream<Path> files = Files.walk(dataDir)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
    } catch (java.io.IOException e) {
      System.out.println("Soak: could not delete " + dataDir + ": " + e);
    }
  }
}
