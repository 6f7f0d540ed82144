package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static dev.svc.chat.it.FilesEndToEndTest.randomFile;
import static dev.svc.chat.it.FilesEndToEndTest.sha256;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.FileSource;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.UploadProgress;
import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.reference.ReferenceServer;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file upload through the SDK cut mid-way, by the network or by a {@code kill -9} of the server on its data
 * directory: it resumes from the server's offset and the message arrives once with the sender's sha256.
 */
class FilesResumeEndToEndTest {
  private static final String KEY = "sk_test_files_resume_0123456789";
  private static final Duration LONG_WAIT = Duration.ofMinutes(2);
  private static final int MIB = 1024 * 1024;

  @TempDir Path dir;
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    Closing.inReverse(opened);
  }

  private <T extends AutoCloseable> T open(T c) {
    opened.add(c);
    return c;
  }

  @Test
  void anUploadCutByTheNetworkResumesFromTheServersOffset() throws Exception {
    ReferenceServer server = open(ReferenceServer.builder().port(0).build().start());
    Admin admin = new Admin(server.apiUrl(), server.apiKey());
    FaultProxy proxy = open(FaultProxy.start("127.0.0.1", server.port()));
    String room = admin.createRoom("files", "alice", "bob");
    ChatClient alice = open(Svc.init(SvcOptions.builder(proxy.apiUrl()).build()));
    ChatClient bob = open(Svc.init(SvcOptions.builder(server.apiUrl()).build()));
    await(alice.connect("alice", admin.mint("alice")));
    await(bob.connect("bob", admin.mint("bob")));
    Progress progress = new Progress(alice);
    RecordingHandler<Message> bobSees = ChatFixture.record(bob, EventType.NEW_MESSAGE);

    File data = randomFile(dir.resolve("big.bin"), 6 * MIB + 5, 2);
    long upBefore = proxy.stats().bytesUp();
    proxy.throttle(2L * MIB);
    String clientMessageId = UUID.randomUUID().toString();
    CompletableFuture<Message> sending =
        alice.sendMessage(room, List.of(MessagePart.file(FileSource.of(data))), clientMessageId);
    long atCut = progress.await(3L * MIB);
    assertTrue(atCut < data.length(), "the cut comes mid-way");
    // the cut comes half a MiB later
    awaitBytesUp(proxy, upBefore + atCut + MIB / 2);
    progress.cut.set(true);
    assertTrue(proxy.cutAll() > 0, "a connection was cut");
    proxy.heal();

    Message sent = sending.get(LONG_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertEquals(clientMessageId, sent.clientMessageId());
    long resumedAt = progress.firstAfterCut();
    // the streamed PATCH carries no checksum: the service keeps what arrived of it, and the proxy had carried
    // half a MiB past atCut to it before the cut, so the upload goes on from at least atCut
    assertTrue(resumedAt >= atCut, "the upload resumed at " + resumedAt + ", before the " + atCut + " bytes carried up");
    long up = proxy.stats().bytesUp() - upBefore;
    System.out.println("FilesResumeEndToEndTest: cut at " + atCut + ", resumed at " + resumedAt + ", " + up + " bytes up");
    assertTrue(up < data.length() + MIB + 256 * 1024,
        "at most one chunk sent again: " + up + " bytes up for a file of " + data.length());
    assertArrivesOnceWithItsBytes(bob, bobSees, sent, data);
  }

  @Test
  void anUploadResumesAfterTheServerIsKilledAndRestartedOnItsDataDirectory() throws Exception {
    String[] args = {"--data-dir", dir.resolve("server").toString(), "--ping-interval", "2s", "--ping-timeout", "2s"};
    ServerChild[] server = {open(ServerChild.start(KEY, args))};
    FaultProxy proxy = open(FaultProxy.start("127.0.0.1", server[0].port()));
    Admin admin = new Admin(proxy.apiUrl(), KEY);
    String room = admin.createRoom("files", "alice", "bob");
    ChatClient alice = open(Svc.init(SvcOptions.builder(proxy.apiUrl()).build()));
    ChatClient bob = open(Svc.init(SvcOptions.builder(proxy.apiUrl()).build()));
    await(alice.connect("alice", admin.mint("alice", 3600)));
    await(bob.connect("bob", admin.mint("bob", 3600)));
    Progress progress = new Progress(alice);
    RecordingHandler<Message> bobSees = ChatFixture.record(bob, EventType.NEW_MESSAGE);

    File data = randomFile(dir.resolve("big.bin"), 6 * MIB + 11, 3);
    proxy.throttle(2L * MIB);
    String clientMessageId = UUID.randomUUID().toString();
    CompletableFuture<Message> sending =
        alice.sendMessage(room, List.of(MessagePart.file(FileSource.of(data))), clientMessageId);
    progress.await(2L * MIB);
    // what the SDK wrote may still sit in socket buffers: what counts is what the service made durable
    long committed = awaitCommitted(server[0].port(), admin.mint("alice", 3600), MIB);
    assertTrue(committed < data.length(), "the kill comes mid-way");
    progress.cut.set(true);
    server[0].kill();
    server[0] = open(ServerChild.start(KEY, args));
    proxy.retarget(server[0].port());
    proxy.heal();

    Message sent = sending.get(LONG_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertEquals(clientMessageId, sent.clientMessageId());
    long resumedAt = progress.firstAfterCut();
    assertTrue(resumedAt >= committed,
        "the upload resumed at " + resumedAt + ", before the " + committed + " bytes the killed server had committed");
    assertArrivesOnceWithItsBytes(bob, bobSees, sent, data);
  }

  /**
   * Waits until the one upload in the server's data directory holds at least {@code bytes} by its {@code HEAD} (the
   * offset the service committed: forced to the disk before it counts); returns that offset.
   */
  private long awaitCommitted(int port, String token, long bytes) throws Exception {
    Path files = dir.resolve("server").resolve("files");
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + LONG_WAIT.toNanos();
    while (true) {
      String id = uploadId(files);
      if (id != null) {
        HttpRequest head = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/uploads/" + id))
            .method("HEAD", HttpRequest.BodyPublishers.noBody()).header("Tus-Resumable", "1.0.0")
            .header("Authorization", "Bearer " + token).build();
        HttpResponse<Void> answer = http.send(head, HttpResponse.BodyHandlers.discarding());
        assertEquals(200, answer.statusCode(), "HEAD of the upload");
        long offset = Long.parseLong(answer.headers().firstValue("Upload-Offset").orElseThrow());
        if (offset >= bytes) return offset;
      }
      if (System.nanoTime() > deadline) throw new AssertionError("the server never committed " + bytes + " bytes");
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  private static String uploadId(Path files) throws IOException {
    if (!Files.isDirectory(files)) return null;
    try (Stream<Path> listed = Files.list(files)) {
      List<String> ids = listed.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".bin"))
          .map(n -> n.substring(0, n.length() - ".bin".length())).toList();
      assertTrue(ids.size() <= 1, "one upload: " + ids);
      return ids.isEmpty() ? null : ids.get(0);
    }
  }

  /** Waits until the proxy carried {@code bytes} from its clients in all. */
  private static void awaitBytesUp(FaultProxy proxy, long bytes) {
    long deadline = System.nanoTime() + LONG_WAIT.toNanos();
    while (proxy.stats().bytesUp() < bytes) {
      if (System.nanoTime() > deadline) throw new AssertionError("the proxy carried fewer than " + bytes + " bytes up");
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  private void assertArrivesOnceWithItsBytes(ChatClient bob, RecordingHandler<Message> bobSees, Message sent, File data)
      throws Exception {
    Message got = bobSees.next(LONG_WAIT);
    assertEquals(sent.id(), got.id());
    FileAttachment file = got.files().get(0);
    assertEquals(data.length(), file.size());
    assertEquals(sha256(data), file.sha256());
    File target = dir.resolve("downloaded.bin").toFile();
    await(bob.downloadFile(file, target, null));
    assertEquals(sha256(data), sha256(target));
    List<Message> history = await(bob.getMessages(sent.roomId())).messages();
    assertEquals(List.of(sent.id()), history.stream().map(Message::id).toList(), "the message was stored once");
    bobSees.assertNoMore();
  }

  /** The sender's upload progress, each report marked as before or after the cut. */
  private static final class Progress {
    final AtomicBoolean cut = new AtomicBoolean();
    private final List<long[]> reports = new CopyOnWriteArrayList<>(); // {bytesSent, 1 if after the cut}
    private final RecordingHandler<UploadProgress> events = new RecordingHandler<>();

    Progress(ChatClient client) {
      client.on(EventType.UPLOAD_PROGRESS, p -> {
        reports.add(new long[] {p.bytesSent(), cut.get() ? 1 : 0});
        events.onEvent(p);
      });
    }

    /** Waits until at least {@code bytes} were acknowledged; returns the bytes acknowledged then. */
    long await(long bytes) throws InterruptedException {
      return events.next(p -> p.bytesSent() >= bytes).bytesSent();
    }

    /** The first offset reported after the cut (the offset the service told the resumed upload). */
    long firstAfterCut() {
      return reports.stream().filter(r -> r[1] == 1).mapToLong(r -> r[0]).findFirst()
          .orElseThrow(() -> new AssertionError("no progress after the cut"));
    }
  }
}
