package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.fail;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.FileSource;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.it.faults.RandomFaults;
import dev.svc.chat.testing.Await;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files under chaos: four users in three overlapping rooms send a seeded mix of text messages and files of
 * 1 KiB to 8 MiB ({@link FilesChaosPlan}) through a {@link FaultProxy} that cuts and stalls connections at random,
 * while the reference server (a child JVM on its SQLite {@code --data-dir}, as in {@link ChaosCrashTest}'s scenario E)
 * is killed with {@code kill -9} and restarted on the same directory three times, when seeded fractions of the
 * file bytes have been uploaded (the second kill waits further, for the next upload to complete: it strikes
 * between an upload's last {@code PATCH} and its message). The app code is plain: {@code sendMessage} with {@code MessagePart.file}, no retries; the
 * senders stay alive and their outbox (with a directory) resumes each upload from the server's offset.
 *
 * <p>At the end: every send completed and is stored once (by {@code clientMessageId}), every receiver saw each
 * message once, in order, as the server holds it ({@link ChaosReport}); each file message's part has the size and
 * sha256 of the sender's source, and every receiver downloads it with that sha256; every file part names a complete
 * upload that records the message, and no complete upload is left without a message ({@link FilesChaosUploads}).
 * {@code -Dchaos.seed=S} replays the plan and the faults, {@code -Dchaos.scale=N} multiplies the sends.
 */
@Tag("chaos")
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class FilesChaosTest {
  private static final String KEY = "sk_test_files_chaos_0123456789";
  private static final int KILLS = 3;
  private static final int SENDS_PER_USER = 10 * ChaosRun.SCALE;
  private static final long SEND_INTERVAL_MILLIS = 300;
  private static final Duration WAIT = Duration.ofMinutes(3);
  private static final Duration SETTLE = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final List<AutoCloseable> opened = new ArrayList<>();
  private final ExecutorService striking = Executors.newSingleThreadExecutor(ChaosRun.daemon("files-chaos-kills"));
  private final ScheduledExecutorService driver =
      Executors.newSingleThreadScheduledExecutor(ChaosRun.daemon("files-chaos-driver"));
  private volatile ServerChild server;

  private final Map<String, ChatClient> clients = new LinkedHashMap<>();
  private final Map<String, ChaosView> views = new LinkedHashMap<>();
  private final Map<String, CompletableFuture<Message>> sent = new ConcurrentHashMap<>();
  /** Per send, the most file bytes the service acknowledged ({@code UPLOAD_PROGRESS}); waited on with {@code progress}. */
  private final Map<String, Long> uploaded = new ConcurrentHashMap<>();
  /** The sends whose files the service holds whole. */
  private final java.util.Set<String> completed = ConcurrentHashMap.newKeySet();
  private final Object progress = new Object();

  @AfterEach
  void stop() throws Exception {
    driver.shutdownNow();
    striking.shutdownNow();
    Closing.inReverse(opened, server);
  }

  @Test
  void everyFileArrivesOnceWithTheSendersSha256ThroughCutsAndKillNines() throws Exception {
    long started = System.nanoTime();
    long seed = ChaosRun.SEED;
    System.out.println("FilesChaosTest seed=" + seed + " scale=" + ChaosRun.SCALE + " (replay with -Dchaos.seed=" + seed + ")");
    Path dataDir = dir.resolve("server");
    String[] args = {"--data-dir", dataDir.toString(), "--ping-interval", "2s", "--ping-timeout", "2s"};
    server = ServerChild.start(KEY, args);
    FaultProxy faults = open(FaultProxy.start("127.0.0.1", server.port(), seed, true));
    // the tenant backend's and the final reading's way in: the same server, without faults
    FaultProxy front = open(FaultProxy.start("127.0.0.1", server.port(), seed + 1, true));
    Admin admin = new Admin(front.apiUrl(), KEY);

    Map<String, List<String>> members = new LinkedHashMap<>();
    Map<String, String> names = new LinkedHashMap<>();
    for (List<String> room : List.of(List.of("north", "ana", "ben", "cleo"), List.of("south", "ben", "cleo", "dev"),
        List.of("all", "ana", "ben", "cleo", "dev"))) {
      String id = admin.createRoom(room.get(0), room.subList(1, room.size()).toArray(new String[0]));
      names.put(id, room.get(0));
      members.put(id, room.subList(1, room.size()));
    }
    Map<String, List<String>> roomsOf = new LinkedHashMap<>();
    for (String user : List.of("ana", "ben", "cleo", "dev")) {
      roomsOf.put(user, members.keySet().stream().filter(r -> members.get(r).contains(user)).toList());
    }
    FilesChaosPlan plan = FilesChaosPlan.make(seed, roomsOf, SENDS_PER_USER, Files.createDirectories(dir.resolve("sources")));
    long totalBytes = plan.fileBytes();
    for (String user : roomsOf.keySet()) connect(user, roomsOf.get(user), faults.apiUrl(), admin);

    faults.startRandom(RandomFaults.of(seed, Duration.ofMinutes(10))
        .withStalls(0.15, Duration.ofMillis(300), Duration.ofSeconds(4)));
    List<Integer> ports = new ArrayList<>(List.of(server.port()));
    Random killAt = new Random(seed ^ 0x6b696c6cL);
    CompletableFuture<Void> kills = CompletableFuture.runAsync(() -> {
      try {
        for (int k = 1; k <= KILLS; k++) {
          long bytes = (long) (totalBytes * (k - 0.35 + 0.7 * killAt.nextDouble()) / (KILLS + 1));
          if (!awaitUploaded(bytes, WAIT)) throw new AssertionError("the uploads stalled below " + bytes + " bytes");
          if (k == 2) {
            // at the next upload that completes: between its last PATCH and its message (an upload is incomplete
            // below the mark, so one completes later)
            int done = completedUploads();
            if (!awaitProgress(() -> completedUploads() > done, WAIT)) throw new AssertionError("no upload completed");
          }
          server.kill();
          System.out.println("FilesChaosTest: kill -9 of the server on port " + server.port() + " at " + uploaded()
              + " of " + totalBytes + " file bytes (" + k + " of " + KILLS + ")");
          server = ServerChild.start(KEY, args);
          faults.retarget(server.port());
          front.retarget(server.port());
          ports.add(server.port());
        }
      } catch (Exception e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    }, striking);

    int index = 0;
    for (String user : roomsOf.keySet()) {
      List<FilesChaosPlan.Send> mine = plan.of(user);
      int[] next = {0};
      driver.scheduleAtFixedRate(() -> {
        if (next[0] < mine.size()) send(mine.get(next[0]++));
      }, index++ * SEND_INTERVAL_MILLIS / roomsOf.size(), SEND_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
    }

    List<String> problems = new ArrayList<>();
    kills.get(WAIT.toMillis() * KILLS, TimeUnit.MILLISECONDS); // a failed kill or restart fails the run here
    Await.until("every planned send made", WAIT, () -> sent.size() == plan.sends.size(), sent::size);
    problems.addAll(awaitSends(plan));
    faults.stopRandom();
    faults.heal();
    FaultProxy.Stats faultStats = faults.stats();

    // the server's state, read without faults, and every receiver's view of it
    Map<String, ChatClient> readers = new LinkedHashMap<>();
    for (String user : roomsOf.keySet()) readers.put(user, direct(user, front.apiUrl(), admin));
    ChaosReport.Truth truth = readTruth(members, readers);
    List<ChaosReport.Send> reported = plan.sends.stream().map(FilesChaosPlan.Send::asReported).toList();
    List<Message> acknowledged = sent.values().stream().filter(f -> f.isDone() && !f.isCompletedExceptionally())
        .map(CompletableFuture::join).toList();
    ChaosReport.Truth settledOn = truth;
    ChaosReport report = Await.lastRead(() -> ChaosReport.compare(List.copyOf(views.values()), names,
        settledOn, reported, acknowledged), ChaosReport::clean, SETTLE, Duration.ofMillis(200));
    problems.addAll(report.problems());

    Map<String, Message> storedByClientId = new LinkedHashMap<>();
    List<Message> stored = new ArrayList<>();
    truth.messages().values().forEach(stored::addAll);
    for (Message m : stored) storedByClientId.put(m.roomId() + "/" + m.clientMessageId(), m);
    long downloads = 0;
    long downloadedBytes = 0;
    for (FilesChaosPlan.Send s : plan.files()) {
      Message m = storedByClientId.get(s.roomId() + "/" + s.clientMessageId());
      if (m == null) continue; // reported as never stored
      FileAttachment file = m.files().isEmpty() ? null : m.files().get(0);
      if (file == null || file.size() != s.file().length() || !s.sha256().equals(file.sha256())) {
        problems.add(s.clientMessageId() + ": stored as " + file + ", the source has " + s.file().length()
            + " bytes, sha256 " + s.sha256());
        continue;
      }
      for (String receiver : members.get(s.roomId())) {
        if (receiver.equals(s.userId())) continue;
        String got = download(receiver, file, s.clientMessageId());
        if (s.sha256().equals(got)) {
          downloads++;
          downloadedBytes += file.size();
        } else {
          problems.add(receiver + " downloaded " + s.clientMessageId() + " with sha256 " + got + ", the sender's is " + s.sha256());
        }
      }
    }
    FilesChaosUploads uploads = FilesChaosUploads.read(dataDir);
    problems.addAll(uploads.problems(stored));
    for (Map.Entry<String, ChatClient> c : clients.entrySet()) {
      if (!c.getValue().pendingSends().isEmpty()) {
        problems.add(c.getKey() + " still has pending sends: " + c.getValue().pendingSends());
      }
    }

    String summary = "CHAOS files seed=" + seed + " scale=" + ChaosRun.SCALE + ": files sent=" + plan.files().size()
        + " bytes=" + totalBytes + " texts=" + (plan.sends.size() - plan.files().size())
        + " | kills=" + KILLS + " ports=" + ports + " | cuts=" + faultStats.cuts() + " stalls=" + faultStats.stalls()
        + " | stored=" + report.sendsStored + " of " + report.sendsAttempted + " lost=" + report.lost
        + " dup=" + report.duplicated + " outOfOrder=" + report.outOfOrder + " stale=" + report.stale
        + " | bytes up through the proxy=" + faultStats.bytesUp() + " | downloads with the sender's sha256=" + downloads
        + " (" + downloadedBytes + " bytes) | uploads complete=" + uploads.complete()
        + " unfinished=" + uploads.unfinished() + " | problems=" + problems.size()
        + " | " + (System.nanoTime() - started) / 1_000_000_000 + " s";
    System.out.println(summary);
    if (!problems.isEmpty()) {
      StringBuilder msg = new StringBuilder(summary).append('\n');
      for (String p : problems) msg.append(" - ").append(p).append('\n');
      for (ChaosView v : views.values()) msg.append("   last log of ").append(v.userId).append(": ").append(v.recentLog(8)).append('\n');
      fail(msg.toString());
    }
  }

  private void connect(String user, List<String> rooms, String apiUrl, Admin admin) throws Exception {
    ChaosView view = new ChaosView(user, new java.util.LinkedHashSet<>(rooms));
    ChatClient client = open(Svc.init(SvcOptions.builder(apiUrl)
        .outboxDirectory(dir.resolve("outbox").toFile())
        // as ChaosRun: a shorter backoff than the default, so that the run settles within CI's time
        .reconnectDelay(250, 4000)
        .logger(view::log)
        .build()));
    client.on(EventType.NEW_MESSAGE, view::onNew);
    client.on(EventType.MESSAGE_UPDATED, view::onUpdated);
    client.on(EventType.ROOM_READ, view::onRead);
    client.on(EventType.CONNECTION_STATE, view::onState);
    client.on(EventType.RECOVERY, view::onRecovery);
    client.on(EventType.CLIENT_ERROR, view::onClientError);
    client.roomList(view::onRoomList); // the report also checks each room's row (its unread mentions)
    client.on(EventType.UPLOAD_PROGRESS, p -> {
      uploaded.merge(p.clientMessageId(), p.bytesSent(), Math::max);
      if (p.bytesSent() == p.bytesTotal()) completed.add(p.clientMessageId());
      synchronized (progress) {
        progress.notifyAll();
      }
    });
    // a token of an hour: the server keeps its signing secret in its data directory, so it outlives the kills
    await(client.connect(user, admin.mint(user, 3600)));
    clients.put(user, client);
    views.put(user, view);
  }

  private void send(FilesChaosPlan.Send s) {
    List<MessagePart> parts = s.isFile()
        ? List.of(MessagePart.text(s.clientMessageId()), MessagePart.file(FileSource.of(s.file())))
        : List.of(MessagePart.text(s.clientMessageId()));
    CompletableFuture<Message> f;
    try {
      f = clients.get(s.userId()).sendMessage(s.roomId(), parts, s.clientMessageId());
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    sent.put(s.clientMessageId(), f);
  }

  /** Waits until every send completed; returns a problem for each one that failed or is still pending. */
  private List<String> awaitSends(FilesChaosPlan plan) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    List<String> problems = new ArrayList<>();
    for (FilesChaosPlan.Send s : plan.sends) {
      try {
        sent.get(s.clientMessageId()).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        problems.add(s.clientMessageId() + ": the send failed: " + e.getCause());
      } catch (TimeoutException e) {
        problems.add(s.clientMessageId() + ": the send is still pending " + WAIT.toSeconds() + " s after the last kill"
            + (s.isFile() ? " (" + uploaded.getOrDefault(s.clientMessageId(), 0L) + " of " + s.file().length()
            + " bytes acknowledged)" : ""));
      }
    }
    return problems;
  }

  private long uploaded() {
    return uploaded.values().stream().mapToLong(Long::longValue).sum();
  }

  private int completedUploads() {
    return completed.size();
  }

  private boolean awaitUploaded(long bytes, Duration timeout) throws InterruptedException {
    return awaitProgress(() -> uploaded() >= bytes, timeout);
  }

  /** Waits on the uploads' progress until {@code condition}; false if {@code timeout} passed first. */
  private boolean awaitProgress(java.util.function.BooleanSupplier condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (progress) {
      while (!condition.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return false;
        TimeUnit.NANOSECONDS.timedWait(progress, left);
      }
      return true;
    }
  }

  /** Downloads the file as {@code receiver}; returns the sha256 of what arrived (the part file is removed). */
  private String download(String receiver, FileAttachment file, String clientMessageId) throws Exception {
    File target = Files.createDirectories(dir.resolve("downloads").resolve(receiver)).resolve(clientMessageId).toFile();
    try {
      clients.get(receiver).downloadFile(file, target, null).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return FilesEndToEndTest.sha256(target);
    } catch (ExecutionException e) {
      return "(the download failed: " + e.getCause() + ")";
    } finally {
      Files.deleteIfExists(target.toPath());
    }
  }

  private ChatClient direct(String user, String apiUrl, Admin admin) throws Exception {
    ChatClient c = open(Svc.init(apiUrl));
    await(c.connect(user, admin.mint(user, 3600)));
    return c;
  }

  private static ChaosReport.Truth readTruth(Map<String, List<String>> members, Map<String, ChatClient> readers)
      throws Exception {
    Map<String, List<Message>> messages = new LinkedHashMap<>();
    Map<String, List<dev.svc.chat.Receipt>> receipts = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> room : members.entrySet()) {
      ChatClient reader = readers.get(room.getValue().get(0));
      messages.put(room.getKey(), ChaosTruth.messages(reader, room.getKey()));
      receipts.put(room.getKey(), ChaosTruth.receipts(reader, room.getKey()));
    }
    return new ChaosReport.Truth(messages, receipts);
  }

  private <T extends AutoCloseable> T open(T closeable) {
    opened.add(closeable);
    return closeable;
  }
}
