package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.FakeTus;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.VirtualTaskScheduler;
import okio.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sends with files through the client's outbox against {@link FakeTus} (contract section 9): chunked tus uploads
 * with progress, resumes after a cut and after a restart, cancel, sources that change or vanish, and the message
 * sent once with its clientMessageId.
 */
class FileSendTest {
  /** The SDK's PATCH size. */
  private static final int CHUNK = 1024 * 1024;
  private static final int SIZE = 5 * CHUNK / 2;

  @TempDir
  File dir;
  private FakeGateway gateway;
  private final FakeTus tus = new FakeTus();
  private final VirtualTaskScheduler time = new VirtualTaskScheduler();
  private final RecordingLogger logger = new RecordingLogger();
  private final List<ChatClient> clients = new CopyOnWriteArrayList<>();
  private ChatClient client;
  private File file;
  private byte[] bytes;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    gateway.rest = tus;
    client = newClient();
    bytes = new byte[SIZE];
    new Random(7).nextBytes(bytes);
    file = new File(dir, "photo.png");
    Files.write(file.toPath(), bytes);
  }

  @AfterEach
  void tearDown() throws Exception {
    CountDownLatch gate = tus.hold;
    if (gate != null) gate.countDown();
    for (ChatClient c : clients) c.close();
    gateway.close();
  }

  private ChatClient newClient() {
    ChatClient c = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).scheduler(time)
        .fileCache(FileCacheSettings.builder(new File(dir, "thumbnails")).maxBytes(1_000).build())
        .reconnectDelay(100, 1_000).outboxDirectory(new File(dir, "outbox")).logger(logger).build());
    clients.add(c);
    return c;
  }

  private void connect(ChatClient c) throws Exception {
    CompletableFuture<Void> connected = c.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    Await.value(connected);
  }

  private CompletableFuture<Message> sendFile(ChatClient c, String clientMessageId) {
    return c.sendMessage("r1", Collections.singletonList(MessagePart.file(FileSource.of(file))), clientMessageId);
  }

  /** Advances the virtual clock past the outbox's backoff once the send's attempt failed. */
  private void awaitFailedAttemptThenRetry(ChatClient c) throws InterruptedException {
    Await.until("the attempt failed", () -> !c.pendingSends().isEmpty() && c.pendingSends().get(0).lastError() != null);
    time.advance(1_000);
  }

  @Test
  void aFileIsUploadedInOneStreamedPatchWithProgressThenSentOnceWithItsFileId() throws Exception {
    List<UploadProgress> progress = new CopyOnWriteArrayList<>();
    client.on(EventType.UPLOAD_PROGRESS, progress::add);
    connect(client);
    Message sent = Await.value(sendFile(client, "c1"));

    FileAttachment f = sent.files().get(0);
    assertEquals("photo.png", f.name());
    assertEquals("image/png", f.contentType());
    assertEquals(SIZE, f.size());
    assertEquals(ByteString.of(bytes).sha256().hex(), f.sha256());
    assertEquals(1, tus.patches.get(), "2.5 MiB in one PATCH, streamed a chunk at a time");
    assertEquals(SIZE, tus.patchBytes.get(), "no byte sent twice");
    assertEquals(0, tus.checksummed.get(), "no Upload-Checksum: the service keeps what a cut PATCH delivered");
    assertEquals(1, tus.sendsOf("c1"));
    Await.until("the last progress is heard", () -> !progress.isEmpty()
        && progress.get(progress.size() - 1).bytesSent() == SIZE);
    long last = -1;
    for (UploadProgress p : progress) {
      assertEquals(SIZE, p.bytesTotal());
      assertTrue(p.bytesSent() >= last, "progress went back: " + progress);
      last = p.bytesSent();
    }
    assertTrue(progress.size() >= 4, "a report per chunk: " + progress);
  }

  @Test
  void aCutMidPatchResumesFromTheServersOffsetAndSendsOnlyTheRest() throws Exception {
    connect(client);
    long kept = 2L * CHUNK + 300_000; // the service kept what arrived: inside the third chunk
    tus.cutNextPatchAfter.set(kept);
    CompletableFuture<Message> sent = sendFile(client, "c1");
    awaitFailedAttemptThenRetry(client);
    Message message = Await.value(sent);

    assertEquals(ByteString.of(bytes).sha256().hex(), message.files().get(0).sha256());
    assertTrue(tus.heads.get() >= 1, "the offset was asked with HEAD");
    assertEquals(2, tus.patches.get(), "the cut PATCH, then one with the rest");
    assertEquals(SIZE - kept, tus.patchBytes.get() - SIZE, "sent again: from the service's offset on, no more");
    assertEquals(1, tus.uploads.size(), "the same upload was resumed");
    assertEquals(1, tus.sendsOf("c1"));
  }

  @Test
  void aLastPatchStoredButUnansweredIsNotSentAgainAndTheMessageGoesOnce() throws Exception {
    connect(client);
    tus.hold = new CountDownLatch(1);
    tus.holdPatch = 1;
    CompletableFuture<Message> sent = sendFile(client, "c1");
    assertTrue(tus.held.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the PATCH arrived");
    tus.cutNextPatchAfter.set(SIZE); // all its bytes kept, the answer lost
    tus.hold.countDown();
    awaitFailedAttemptThenRetry(client);

    Message message = Await.value(sent);
    assertEquals(ByteString.of(bytes).sha256().hex(), message.files().get(0).sha256());
    assertEquals(1, tus.patches.get(), "no PATCH after the service held every byte");
    assertEquals(1, tus.sendsOf("c1"));
  }

  @Test
  void anUploadCutByTheClientsEndResumesInTheNextClientAndTheMessageIsSentOnce() throws Exception {
    connect(client);
    tus.hold = new CountDownLatch(1);
    tus.holdPatch = 1;
    CompletableFuture<Message> sent = sendFile(client, "c1");
    assertTrue(tus.held.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the PATCH arrived");
    client.close(); // the process ends mid-upload: the outbox file holds the upload's URL
    assertEquals(0, Await.value(sent).seq(), "kept for the next start");
    tus.cutNextPatchAfter.set(2L * CHUNK + 1_000); // what the service had stored when the process ended
    tus.releaseHeldPatch();

    ChatClient next = newClient();
    connect(next);
    Await.until("the message is sent", () -> tus.messagesMade() == 1);
    assertEquals(1, tus.uploads.size(), "the upload was resumed, not made again");
    assertEquals(ByteString.of(bytes).sha256().hex(), tus.uploads.values().iterator().next().sha256());
    assertTrue(tus.heads.get() >= 1, "the next client asked the offset");
    assertEquals(SIZE - 2L * CHUNK - 1_000, tus.patchBytes.get() - SIZE, "sent again: the rest, from the offset");
    assertEquals(1, tus.sendsOf("c1"));
    Await.until("the outbox is empty", () -> next.pendingSends().isEmpty());
  }

  @Test
  void overTheSocketATextSentAfterAFileWaitsForTheFilesMessage() throws Exception {
    gateway.onConnect = auth -> "40{\"sid\":\"s\",\"svc\":{\"sendMessage\":true}}"; // sends over the socket
    ChatClient socket = Svc.init(dev.svc.chat.testing.TestTransport.on(SvcOptions.builder(gateway.apiUrl()))
        .recoverMissedEvents(false).scheduler(time).logger(logger).build());
    clients.add(socket);
    CompletableFuture<Void> connected = socket.connect("alice", "good-jwt");
    dev.svc.chat.testing.GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(connected);
    tus.hold = new CountDownLatch(1);
    tus.holdPatch = 1;
    CompletableFuture<Message> file = sendFile(socket, "c1");
    assertTrue(tus.held.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS));
    CompletableFuture<Message> text = socket.sendMessage("r1", Collections.singletonList(MessagePart.text("and")),
        "c2");
    CompletableFuture<Message> other = socket.sendMessage("r2", Collections.singletonList(MessagePart.text("x")),
        "c3");
    dev.svc.chat.testing.GatewaySession.Emit first = session.nextEmit("send-message");
    assertTrue(first.payload.contains("\"c3\""), "another room's send goes, r1's text waits: " + first.payload);
    session.ack(first, ack("c3", "r2", 1));
    Await.value(other);
    assertEquals(0, socket.pendingSends("r1").get(1).attempts(), "the text never started while the file uploads");
    tus.hold.countDown();
    dev.svc.chat.testing.GatewaySession.Emit fileMessage = session.nextEmit("send-message");
    assertTrue(fileMessage.payload.contains("\"c1\"") && fileMessage.payload.contains("\"fileId\""),
        fileMessage.payload);
    assertFalse(fileMessage.payload.contains("\"upload\""), "no local state on the wire: " + fileMessage.payload);
    session.ack(fileMessage, ack("c1", "r1", 1));
    dev.svc.chat.testing.GatewaySession.Emit after = session.nextEmit("send-message");
    assertTrue(after.payload.contains("\"c2\""), after.payload);
    session.ack(after, ack("c2", "r1", 2));
    Await.value(file);
    Await.value(text);
  }

  private static String ack(String clientMessageId, String roomId, long seq) {
    return "{\"ok\":true,\"message\":" + dev.svc.chat.testing.Frames.messageJson("m-" + clientMessageId, roomId, seq, "t")
        .replace("\"c-m-" + clientMessageId + "\"", "\"" + clientMessageId + "\"") + "}";
  }

  @Test
  void aCancelledSendTerminatesItsUploadAndSendsNoMessage() throws Exception {
    connect(client);
    tus.hold = new CountDownLatch(1);
    tus.holdPatch = 1;
    CompletableFuture<Message> sent = sendFile(client, "c1");
    assertTrue(tus.held.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS));
    Await.until("every byte was handed to the connection", () -> client.pendingSends().get(0).bytesSent() == SIZE);
    assertEquals(SIZE, client.pendingSends().get(0).bytesTotal());
    assertTrue(Await.value(client.cancelSend("r1", "c1")));
    tus.hold.countDown();

    Await.until("the send ends", sent::isDone);
    assertTrue(sent.isCancelled(), "failed with a CancellationException");
    Await.until("the upload is terminated", () -> tus.deletes.get() == 1);
    assertTrue(client.pendingSends().isEmpty());
    assertEquals(0, tus.sends.size(), "no message");
    assertFalse(Await.value(client.cancelSend("r1", "c1")), "nothing left to cancel");
  }

  @Test
  void aSourceChangedWhereTheServiceHoldsItsBytesFailsTheResumeAndNeverSendsTheChangedChunk() throws Exception {
    connect(client);
    final byte[] changed = bytes.clone();
    changed[10] ^= 1; // same length, one byte of the first chunk, which the service holds, differs
    AtomicInteger opens = new AtomicInteger();
    FileSource source = FileSource.builder(() -> new java.io.ByteArrayInputStream(
        opens.getAndIncrement() == 0 ? bytes : changed), SIZE).name("data.bin").build(); // changed after a cut
    tus.cutNextPatchAfter.set(CHUNK + 5);
    CompletableFuture<Message> sent = client.sendMessage("r1", Collections.singletonList(MessagePart.file(source)),
        "c1");
    awaitFailedAttemptThenRetry(client);

    FileException e = Await.failure(sent, FileException.class);
    assertEquals(FileException.Kind.SOURCE_CHANGED, e.kind());
    FakeTus.Upload upload = tus.uploads.values().iterator().next();
    assertFalse(upload.complete(), "the wrong file was never completed");
    assertTrue(upload.deleted, "the upload was terminated");
    assertEquals(1, tus.patches.get(), "nothing sent after the change was seen");
    assertEquals(0, tus.sends.size(), "no message");
  }

  @Test
  void aSourceChangedInAChunkReadButNotHeldByTheServiceFailsTheResumeToo() throws Exception {
    connect(client);
    final byte[] changed = bytes.clone();
    changed[SIZE - 10] ^= 1; // one byte of the last chunk: read (and its digest recorded), cut before it arrived
    AtomicInteger opens = new AtomicInteger();
    FileSource source = FileSource.builder(() -> new java.io.ByteArrayInputStream(
        opens.getAndIncrement() == 0 ? bytes : changed), SIZE).name("data.bin").build();
    tus.cutNextPatchAfter.set(CHUNK + 5);
    CompletableFuture<Message> sent = client.sendMessage("r1", Collections.singletonList(MessagePart.file(source)),
        "c1");
    awaitFailedAttemptThenRetry(client);

    FileException e = Await.failure(sent, FileException.class);
    assertEquals(FileException.Kind.SOURCE_CHANGED, e.kind());
    assertTrue(tus.uploads.values().iterator().next().deleted, "the upload was terminated");
    assertEquals(1, tus.patches.get(), "the changed chunk never went");
    assertEquals(0, tus.sends.size(), "no message");
  }

  @Test
  void aSourceChangedWhileNoClientRanFailsTheNextClientsSendAndTerminatesTheUpload() throws Exception {
    connect(client);
    tus.hold = new CountDownLatch(1);
    tus.holdPatch = 1;
    CompletableFuture<Message> sent = sendFile(client, "c1");
    assertTrue(tus.held.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the PATCH arrived");
    client.close();
    assertEquals(0, Await.value(sent).seq(), "kept for the next start");
    tus.cutNextPatchAfter.set(CHUNK + 5); // what the service had stored when the process ended
    tus.releaseHeldPatch();
    try (RandomAccessFile f = new RandomAccessFile(file, "rw")) { // one byte of the chunk the service holds
      f.seek(10);
      f.write(bytes[10] ^ 1);
    }

    ChatClient next = newClient();
    List<ClientError> errors = new CopyOnWriteArrayList<>();
    next.on(EventType.CLIENT_ERROR, errors::add);
    connect(next);
    Await.until("the failure is reported", () -> errors.stream().anyMatch(e -> e.kind() == ClientError.Kind.SEND_FAILED));
    ClientError failed = errors.stream().filter(e -> e.kind() == ClientError.Kind.SEND_FAILED).findFirst().get();
    assertEquals(FileException.Kind.SOURCE_CHANGED, ((FileException) failed.cause()).kind());
    FakeTus.Upload upload = tus.uploads.values().iterator().next();
    assertFalse(upload.complete(), "the wrong file was never completed");
    assertTrue(upload.deleted, "the upload was terminated");
    assertEquals(0, tus.sends.size(), "no message");
    Await.until("the send is gone", () -> next.pendingSends().isEmpty());
  }

  @Test
  void anOpenersBytesAreReadOnceToSendThem() throws Exception {
    connect(client);
    java.util.concurrent.atomic.AtomicLong read = new java.util.concurrent.atomic.AtomicLong();
    FileSource source = FileSource.builder(() -> new java.io.FilterInputStream(new java.io.ByteArrayInputStream(bytes)) {
      @Override
      public int read(byte[] b, int off, int len) throws java.io.IOException {
        int n = super.read(b, off, len);
        if (n > 0) read.addAndGet(n);
        return n;
      }
    }, SIZE).name("data.bin").build(); // of a known length (without one, a first pass counts the bytes)

    Message m = Await.value(client.sendMessage("r1", Collections.singletonList(MessagePart.file(source)), "c1"));
    assertEquals(ByteString.of(bytes).sha256().hex(), m.files().get(0).sha256());
    assertEquals(SIZE, read.get(), "bytes read from the opener: each chunk hashed as it is sent, no measuring pass");
  }

  @Test
  void aTusRequestAnsweredTokenExpiredIsSentAgainAfterTheRefresh() throws Exception {
    java.util.concurrent.atomic.AtomicInteger refreshes = new java.util.concurrent.atomic.AtomicInteger();
    ChatClient refreshing = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).scheduler(time)
        .reconnectDelay(100, 1_000).logger(logger).tokenRefresher(() -> {
          refreshes.incrementAndGet();
          return CompletableFuture.completedFuture("new-jwt");
        }).build());
    clients.add(refreshing);
    connect(refreshing);
    tus.acceptedToken = "new-jwt"; // the connect's token expired before the upload began

    Message m = Await.value(sendFile(refreshing, "c1"));
    assertEquals(ByteString.of(bytes).sha256().hex(), m.files().get(0).sha256());
    assertEquals(1, refreshes.get());
    assertEquals("Bearer good-jwt", tus.tokens.get(0));
    assertEquals("Bearer new-jwt", tus.tokens.get(1), "the creation was sent again with the new token");
    assertEquals(0, refreshing.pendingSends().size());
    assertFalse(logger.mentions("new-jwt"), "a token was logged");
  }

  @Test
  void aSourceThatVanishedFailsTheSendWithSourceVanished() throws Exception {
    connect(client);
    assertTrue(file.delete());
    CompletableFuture<Message> sent = sendFile(client, "c1");

    FileException e = Await.failure(sent, FileException.class);
    assertEquals(FileException.Kind.SOURCE_VANISHED, e.kind());
    assertTrue(tus.uploads.isEmpty());
    assertEquals(0, tus.sends.size());
  }

  @Test
  void aStreamSourceIsUploadedFromItsOpener() throws Exception {
    connect(client);
    FileSource source = FileSource.builder(() -> new java.io.ByteArrayInputStream(bytes)) // measured when sent
        .name("data.bin").contentType("application/octet-stream").build();
    tus.cutNextPatchAfter.set(1_000);
    CompletableFuture<Message> sent = client.sendMessage("r1", java.util.Arrays.asList(MessagePart.text("see"),
        MessagePart.file(source)), "c1");
    awaitFailedAttemptThenRetry(client);
    Message m = Await.value(sent);
    assertEquals("data.bin", m.files().get(0).name());
    assertEquals(SIZE, m.files().get(0).size());
    assertEquals(ByteString.of(bytes).sha256().hex(), m.files().get(0).sha256());
    assertEquals(1, tus.sendsOf("c1"));
  }

  @Test
  void aDownloadCutMidwayResumesWithRangeAndIsCheckedAgainstItsSha256() throws Exception {
    connect(client);
    FileAttachment f = Await.value(sendFile(client, "c1")).files().get(0);
    tus.cutNextDownload = true;
    File target = new File(dir, "copy.png");
    List<Long> progress = new CopyOnWriteArrayList<>();
    CompletableFuture<File> done = client.downloadFile(f, target, (got, total) -> progress.add(got));
    Await.until("the cut download waits to resume", () -> tus.ranges.size() == 1);
    Await.until("the download resumes", () -> {
      time.advance(100);
      return tus.ranges.size() == 2 || done.isDone();
    });
    assertEquals(target, Await.value(done));
    assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(target.toPath())));
    assertEquals("", tus.ranges.get(0));
    assertTrue(tus.ranges.get(1).startsWith("bytes="), "resumed with Range: " + tus.ranges);
    assertFalse(new File(dir, "copy.png.part").exists());
    Await.until("the last progress", () -> !progress.isEmpty() && progress.get(progress.size() - 1) == SIZE);
  }

  @Test
  void aDownloadWhoseBodyStallsIsCutByTheReadTimeoutAndResumed() throws Exception {
    // the download's reads are timed by the socket (SO_TIMEOUT) rather than Okio's watchdog: a stall still ends
    ChatClient c = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).scheduler(time)
        .okHttpClient(new okhttp3.OkHttpClient.Builder().readTimeout(300, TimeUnit.MILLISECONDS).build())
        .reconnectDelay(100, 1_000).outboxDirectory(new File(dir, "outbox")).logger(logger).build());
    clients.add(c);
    connect(c);
    FileAttachment f = Await.value(sendFile(c, "c1")).files().get(0);
    tus.stallNextDownload = true;
    File target = new File(dir, "copy.bin");
    CompletableFuture<File> done = c.downloadFile(f, target, null);
    Await.until("the stalled download is cut and resumed", () -> {
      time.advance(100);
      return tus.ranges.size() >= 2 || done.isDone();
    });
    assertEquals(target, Await.value(done));
    assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(target.toPath())));
    assertTrue(tus.ranges.get(1).startsWith("bytes="), "resumed with Range: " + tus.ranges);
  }

  @Test
  void aDownloadWritesAndReportsProgressInWholeBuffersNotPerNetworkSegment() throws Exception {
    connect(client);
    FileAttachment f = Await.value(sendFile(client, "c1")).files().get(0);
    final AtomicInteger writes = new AtomicInteger();
    java.io.ByteArrayOutputStream copy = new java.io.ByteArrayOutputStream() {
      @Override
      public synchronized void write(byte[] b, int off, int len) {
        writes.incrementAndGet();
        super.write(b, off, len);
      }
    };
    List<Long> progress = new CopyOnWriteArrayList<>();
    Await.value(client.downloadFile(f, copy, (got, total) -> progress.add(got)));
    assertTrue(java.util.Arrays.equals(bytes, copy.toByteArray()));
    int buffers = SIZE / (64 * 1024);
    assertTrue(writes.get() <= buffers, writes + " writes of a file of " + buffers + " buffers of 64 KiB");
    Await.until("the last progress", () -> !progress.isEmpty() && progress.get(progress.size() - 1) == SIZE);
    assertTrue(progress.size() <= buffers + 2, progress.size() + " progress calls for " + buffers + " buffers");
  }

  @Test
  void aSlowProgressListenerHearsTheLatestFiguresRatherThanEveryBuffer() throws Exception {
    connect(client);
    FileAttachment f = Await.value(sendFile(client, "c1")).files().get(0);
    CountDownLatch release = new CountDownLatch(1);
    List<Long> progress = new CopyOnWriteArrayList<>();
    java.io.ByteArrayOutputStream copy = new java.io.ByteArrayOutputStream();
    CompletableFuture<Void> done = client.downloadFile(f, copy, (got, total) -> {
      progress.add(got);
      try {
        release.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS); // the app's thread is busy meanwhile
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    Await.until("every byte arrived", () -> copy.size() == SIZE);
    release.countDown();
    Await.value(done);
    Await.until("the last progress", () -> progress.get(progress.size() - 1) == SIZE);
    assertTrue(progress.size() <= 3, "reports queued while the listener was busy: " + progress);
  }

  @Test
  void aThumbnailIsFetchedOnceThenServedFromTheCacheAcrossClients() throws Exception {
    connect(client);
    FileAttachment f = Await.value(sendFile(client, "c1")).files().get(0);
    byte[] first = Await.value(client.thumbnail(f, 320));
    assertEquals("thumb " + f.fileId() + " 320", new String(first, "UTF-8"));
    assertTrue(java.util.Arrays.equals(first, Await.value(client.thumbnail(f, 320))));
    assertEquals(1, tus.thumbnails.get(), "the second came from the cache");
    client.close();
    ChatClient next = newClient();
    connect(next);
    assertTrue(java.util.Arrays.equals(first, Await.value(next.thumbnail(f, 320))));
    assertEquals(1, tus.thumbnails.get(), "the cache survives the client");
    Await.value(next.thumbnail(f, 64));
    assertEquals(2, tus.thumbnails.get(), "another size is another thumbnail");
  }

  @Test
  void aDownloadWithOtherBytesFailsWithChecksumMismatchAndKeepsNothing() throws Exception {
    connect(client);
    FileAttachment f = Await.value(sendFile(client, "c1")).files().get(0);
    tus.corruptDownloads = true;
    File target = new File(dir, "copy.png");
    FileException e = Await.failure(client.downloadFile(f, target, null), FileException.class);
    assertEquals(FileException.Kind.CHECKSUM_MISMATCH, e.kind());
    assertFalse(target.exists());
    assertFalse(new File(dir, "copy.png.part").exists());
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    assertEquals(FileException.Kind.CHECKSUM_MISMATCH,
        Await.failure(client.downloadFile(f, out, null), FileException.class).kind());
    assertNotNull(out);
  }

}
