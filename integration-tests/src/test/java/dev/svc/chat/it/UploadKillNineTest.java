package dev.svc.chat.it;

import static dev.svc.chat.it.FilesEndToEndTest.randomFile;
import static dev.svc.chat.it.FilesEndToEndTest.sha256;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.Message;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoredSend;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file send survives {@code kill -9} of the sender's process: "alice" ({@link UploadKillNineMain}, a child JVM on
 * the SQLite store) sends one file message and is killed at ten points of its way, each run a restart on the same
 * store that resumes it: before the upload is created, just after (the answer lost), six times in a PATCH (mid-way
 * through its body, or answered with the answer lost) at seeded offsets, with the upload complete and the message
 * not sent, and with the message sent and its ack not heard. After each kill the store holds the send once, the
 * service's upload never lost a byte it acknowledged, and the next run resumes at the service's offset (HEAD), so
 * a kill costs at most what had not reached the service (the SDK sends the rest of the file in one PATCH: only the
 * last in-PATCH point may be one whose answer was lost). A last run ends the send: the room holds the message
 * once, with the source's sha256.
 *
 * <p>The offsets come from a seed, printed; {@code -Dsvc.it.seed=<seed>} replays them.
 */
class UploadKillNineTest {
  private static final int CHUNK = 1024 * 1024; // the SDK's PATCH size (UploadingTransport.DEFAULT_CHUNK_BYTES)
  private static final int LENGTH = 8 * CHUNK + 77;
  private static final int IN_PATCH_POINTS = 6;
  private static final Duration WAIT = Duration.ofSeconds(60);
  /** Eleven short-lived JVMs: the quick compiler only, and the small collector, start faster on a busy machine. */
  private static final List<String> CHILD_JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  @TempDir Path tmp;

  @Test
  void aFileSendKilledTenTimesResumesEachTimeAndArrivesOnce() throws Exception {
    long seed = Long.getLong("svc.it.seed", System.nanoTime());
    System.out.println("UploadKillNineTest: seed " + seed + " (replay: -Dsvc.it.seed=" + seed + ")");
    Random random = new Random(seed);
    long began = System.nanoTime();
    File storeDir = tmp.resolve("store").toFile();
    File source = randomFile(tmp.resolve("clip.bin"), LENGTH, seed);
    String clientMessageId = UUID.randomUUID().toString();
    try (ChatFixture chat = new ChatFixture(ReferenceServer.builder().port(0))) {
      Admin admin = chat.admin();
      String room = admin.createRoom("upload-kill", "alice", "bob");
      String token = admin.mint("alice", 3600);
      ChatClient bob = chat.connected("bob");
      HttpClient http = HttpClient.newHttpClient();

      String upload = null; // the upload alice's store knows (the last "+ created" of a run)
      long offset = 0; // the service's offset of it after the latest kill (HEAD)
      long patchedBytes = 0;
      List<String> points = new ArrayList<>();
      for (int kill = 0; kill < 10; kill++) {
        String point = point(kill, offset, random);
        points.add(point);
        Run run = Run.start(chat, token, storeDir, kill == 0 ? "send" : "resume", point, room, source, clientMessageId);
        try {
          assertEquals("= held", run.started.line(), "the run stopped at " + point + "; output:\n" + run.output());
        } finally {
          run.kill();
        }
        Lines lines = new Lines(run.output());
        patchedBytes += lines.sentBytes(point);
        String at = "kill " + kill + " at " + point + ", output:\n" + run.output();
        if (upload != null && lines.firstPatchOf(upload) >= 0) {
          // A PATCH the kill cut may still be committing what arrived of it when the test asks (PATCHes carry no
          // checksum, so the service keeps those bytes): the restart's own HEAD can see more than the test's.
          assertTrue(lines.firstPatchOf(upload) >= offset, "the restart resumed before the service's offset "
              + offset + "; " + at);
          if (lines.firstHead >= 0) {
            assertEquals(lines.firstHead, lines.firstPatchOf(upload), "the restart resumed at the service's offset; "
                + at);
          }
        }
        if (lines.created != null) upload = lines.created;
        assertEquals(List.of(clientMessageId), storedSends(storeDir), "the store holds the send once; " + at);
        if (point.equals("create-before") || point.equals("create-after")) {
          assertNull(upload, "no upload the store knows of; " + at);
          continue;
        }
        assertNotNull(upload, at);
        long acknowledged = lines.lastAcknowledged;
        offset = settledOffset(http, upload, token);
        assertTrue(offset >= acknowledged, "the service lost acknowledged bytes: " + offset + " < " + acknowledged
            + "; " + at);
        long x = point.contains(":") ? Long.parseLong(point.substring(point.indexOf(':') + 1)) : -1;
        long sentUpTo = point.startsWith("mid:") ? x : lines.lastPatchEnd;
        if (lines.lastPatchEnd >= 0) {
          assertTrue(sentUpTo - offset <= CHUNK, "a kill costs at most what had not reached the service: " + offset
              + " held, " + sentUpTo + " sent; " + at);
        }
        if (point.startsWith("mid:")) assertTrue(offset <= x, "the service holds bytes never sent; " + at);
        if (point.startsWith("acked:")) assertTrue(offset > x, "the PATCH was answered; " + at);
        if (point.equals("before-send")) {
          assertEquals(LENGTH, offset, at);
          assertEquals(0, withId(bob, room, clientMessageId).size(), "the message was not sent; " + at);
        }
        if (point.equals("before-ack")) {
          assertEquals(1, withId(bob, room, clientMessageId).size(), "the message was sent; " + at);
        }
      }

      Run last = Run.start(chat, token, storeDir, "resume", "none", room, source, clientMessageId);
      try {
        assertEquals("= synced", last.started.line(), last.output());
        last.started.process().getOutputStream().write("close\n".getBytes(StandardCharsets.UTF_8));
        last.started.process().getOutputStream().flush();
        assertTrue(last.started.process().waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS), last.output());
        assertEquals(0, last.started.process().exitValue(), last.output());
      } finally {
        last.kill();
      }
      patchedBytes += new Lines(last.output()).sentBytes("none");
      assertEquals(List.of(), storedSends(storeDir), "the outbox is empty");

      List<Message> sent = withId(bob, room, clientMessageId);
      assertEquals(1, sent.size(), "the message is in the room once: " + sent);
      assertEquals(1, await(bob.getMessages(room)).messages().size(), "the room holds that message only");
      FileAttachment file = sent.get(0).files().get(0);
      assertEquals(LENGTH, file.size());
      assertEquals(sha256(source), file.sha256());
      assertTrue(patchedBytes <= LENGTH + 10L * CHUNK, patchedBytes + " bytes PATCHed for " + LENGTH);
      System.out.printf("UploadKillNineTest: seed %d, kills at %s; %d bytes PATCHed for a file of %d, %.1f s%n",
          seed, points, patchedBytes, LENGTH, (System.nanoTime() - began) / 1e9);
    }
  }

  /**
   * The kill point of run {@code kill}: the creation twice, then six points in PATCHes at or after {@code offset}
   * (each leaves at least one chunk per point still to come, so that each falls in a PATCH of its own run), then
   * the message's send and its ack.
   */
  private static String point(int kill, long offset, Random random) {
    if (kill == 0) return "create-before";
    if (kill == 1) return "create-after";
    int left = IN_PATCH_POINTS - (kill - 2); // in-PATCH points still to come, this one included
    if (left <= 0) return kill == 2 + IN_PATCH_POINTS ? "before-send" : "before-ack";
    long room = LENGTH - offset - (long) left * CHUNK; // > 0: a PATCH moves the offset by at most one chunk
    long x = offset + (long) (random.nextDouble() * Math.max(1, room / left));
    return (left > 1 || random.nextBoolean() ? "mid:" : "acked:") + x; // an answered PATCH holds the whole rest
  }

  /**
   * The upload's offset once the PATCH a kill cut has ended on the service (it commits what arrived of it): an
   * empty PATCH at HEAD's offset waits for the upload's lock, and is 409 when the offset moved meanwhile. The next
   * point is picked from this offset, so that it falls inside the one PATCH the next run sends.
   */
  private static long settledOffset(HttpClient http, String upload, String token)
      throws IOException, InterruptedException {
    for (int round = 0; round < 50; round++) {
      long offset = head(http, upload, token);
      if (offset == LENGTH) return offset;
      HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(upload))
          .method("PATCH", HttpRequest.BodyPublishers.noBody()).header("Authorization", "Bearer " + token)
          .header("Tus-Resumable", "1.0.0").header("Content-Type", "application/offset+octet-stream")
          .header("Upload-Offset", Long.toString(offset)).build(), HttpResponse.BodyHandlers.discarding());
      if (r.statusCode() == 204) return offset;
      assertEquals(409, r.statusCode(), "an empty PATCH at " + offset);
    }
    throw new AssertionError("the offset of " + upload + " kept moving");
  }

  private static long head(HttpClient http, String upload, String token) throws IOException, InterruptedException {
    HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(upload))
        .method("HEAD", HttpRequest.BodyPublishers.noBody())
        .header("Authorization", "Bearer " + token).header("Tus-Resumable", "1.0.0").build(),
        HttpResponse.BodyHandlers.discarding());
    assertEquals(200, r.statusCode(), "HEAD " + upload);
    return Long.parseLong(r.headers().firstValue("Upload-Offset").orElseThrow());
  }

  private static List<Message> withId(ChatClient bob, String room, String clientMessageId) throws Exception {
    return await(bob.getMessages(room)).messages().stream()
        .filter(m -> clientMessageId.equals(m.clientMessageId())).toList();
  }

  /** The sends in alice's store, opened as the SDK opens it (the child is dead: nothing else has it open). */
  private static List<String> storedSends(File storeDir) throws Exception {
    ChatStore store = SqliteChatStore.provider(storeDir).open("alice");
    try {
      return store.load().sends().stream().map(StoredSend::clientMessageId).toList();
    } finally {
      store.close();
    }
  }

  /** One run of alice, started until it held at its point or synced. */
  private record Run(ChildJvm.Started started) {
    static Run start(ChatFixture chat, String token, File storeDir, String mode, String point, String room,
        File source, String clientMessageId) throws Exception {
      return new Run(ChildJvm.startUntilPrefix(UploadKillNineMain.class, CHILD_JVM, Map.of(), "= ",
          chat.server().apiUrl(), token, storeDir.getPath(), mode, point, room, source.getPath(), clientMessageId));
    }

    String output() {
      return started.output().get();
    }

    /** Kills the child with SIGKILL (no shutdown hook, no close) and waits until it is gone. */
    void kill() throws InterruptedException {
      started.process().destroyForcibly();
      assertTrue(started.process().waitFor(30, TimeUnit.SECONDS), "the child survived destroyForcibly");
    }
  }

  /** What one run's tus lines tell. */
  private static final class Lines {
    String created; // the last upload created whose answer reached the SDK
    long lastAcknowledged = 0; // the highest offset a PATCH or HEAD answer told the SDK
    long lastPatchEnd = -1; // the end of the last PATCH started
    long patchedBytes;
    long firstHead = -1; // the offset the run's first HEAD answered
    private final List<String[]> patches = new ArrayList<>();

    Lines(String output) {
      for (String line : output.split("\n")) {
        String[] w = line.split(" ");
        if (line.startsWith("+ created ")) created = w[2];
        if (line.startsWith("+ head ") && !w[3].equals("null")) {
          lastAcknowledged = Math.max(lastAcknowledged, Long.parseLong(w[3]));
          if (firstHead < 0) firstHead = Long.parseLong(w[3]);
        }
        if (line.startsWith("+ patch ")) {
          patches.add(w);
          long end = Long.parseLong(w[3]) + Long.parseLong(w[4]);
          // a PATCH answered before the next one started: its end was acknowledged
          if (lastPatchEnd >= 0) lastAcknowledged = Math.max(lastAcknowledged, lastPatchEnd);
          lastPatchEnd = end;
          patchedBytes += Long.parseLong(w[4]);
        }
      }
    }

    /** The bytes the run's PATCHes sent: a body held at {@code mid:X} sent up to X only. */
    long sentBytes(String point) {
      long sent = patchedBytes;
      if (point.startsWith("mid:") && !patches.isEmpty()) {
        String[] w = patches.get(patches.size() - 1);
        long from = Long.parseLong(w[3]);
        long x = Long.parseLong(point.substring(4));
        if (x >= from && x < from + Long.parseLong(w[4])) sent -= from + Long.parseLong(w[4]) - x;
      }
      return sent;
    }

    /** The offset of the run's first PATCH of {@code upload}, or -1. */
    long firstPatchOf(String upload) {
      for (String[] w : patches) {
        if (w[2].equals(upload)) return Long.parseLong(w[3]);
      }
      return -1;
    }
  }
}
