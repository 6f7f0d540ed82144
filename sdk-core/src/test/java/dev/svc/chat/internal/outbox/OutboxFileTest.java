package dev.svc.chat.internal.outbox;

import static dev.svc.chat.internal.outbox.OutboxHarness.failure;
import static dev.svc.chat.internal.outbox.OutboxHarness.files;
import static dev.svc.chat.internal.outbox.OutboxHarness.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatLogger;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.PendingSend;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.util.Log;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file-backed outbox: one atomic file per entry, reloaded at start, corrupt entries set aside. */
class OutboxFileTest {
  private static final Log LOG = new Log(ChatLogger.NONE);

  @TempDir
  File dir;

  private OutboxHarness outbox() {
    return new OutboxHarness(0, new FileOutboxStore(dir, LOG));
  }

  private static String read(File f) throws IOException {
    return new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
  }

  @Test
  void eachSendIsAFileUntilItSucceedsOrIsRefused() throws Exception {
    OutboxHarness h = outbox();
    h.outbox.start("alice");
    CompletableFuture<Message> a = h.send("r1", "a");
    CompletableFuture<Message> b = h.send("r1", "b");
    File[] written = files(dir, ".json");
    assertEquals(2, written.length);
    assertEquals(0, files(dir, ".tmp").length);
    String json = read(written[0]);
    assertEquals("{\"version\":1,\"sequence\":1,\"userId\":\"alice\",\"roomId\":\"r1\",\"clientMessageId\":\"a\","
        + "\"createdAt\":\"2023-11-14T22:13:20.000Z\",\"parts\":[{\"type\":\"text\",\"text\":\"text of a\"}]}", json);
    assertTrue(read(written[1]).contains("\"sequence\":2"));
    h.connected();
    h.call(0).fail(new TransportException("reset"));
    assertEquals(2, files(dir, ".json").length, "a retried send lost its file");
    h.time.advance(h.backoffMillis(0));
    h.call(1).succeed(1);
    value(a);
    assertEquals(1, files(dir, ".json").length);
    h.call(2).fail(new ApiException(400, "bad_request", "too long"));
    failure(b, ApiException.class);
    assertEquals(0, dir.listFiles().length);
    assertTrue(h.errors.isEmpty(), h.errors.toString());
  }

  @Test
  void aWriteIsAtomicNoPartialEntryIsEverVisible() throws Exception {
    // stop the write between the synced temp file and the rename, as a kill would
    FileOutboxStore store = new FileOutboxStore(dir, LOG,
        (from, to) -> {
          assertFalse(to.exists(), "the entry's name exists before its content is complete");
          String content = read(from);
          assertTrue(content.startsWith("{") && content.endsWith("]}"), content); // whole and synced
          assertEquals(0, files(dir, ".json").length);
          return false; // the rename did not happen
        });
    OutboxHarness h = new OutboxHarness(0, store);
    h.outbox.start("alice");
    CompletableFuture<Message> a = h.send("r1", "a");
    assertEquals(0, dir.listFiles().length, "a partial or temp file was left");
    assertEquals(1, h.errors.size());
    assertEquals(ClientError.Kind.OUTBOX_IO, h.errors.get(0).kind());
    assertEquals("r1", h.errors.get(0).roomId());
    h.connected(); // the send goes on from memory
    h.call(0).succeed(1);
    value(a);
  }

  @Test
  void aTempFileLeftByAKillIsIgnoredAndDeletedAtTheNextStart() throws Exception {
    OutboxHarness first = outbox();
    first.outbox.start("alice");
    first.send("r1", "a");
    File entry = files(dir, ".json")[0];
    // a kill in the middle of the next write leaves a half-written temp file
    File temp = new File(dir, entry.getName().replace("-0000000000000000001-", "-0000000000000000002-") + ".tmp");
    Files.write(temp.toPath(), "{\"version\":1,\"sequence\":2,\"userId\":\"ali".getBytes(StandardCharsets.UTF_8));

    OutboxHarness second = outbox();
    second.outbox.start("alice");
    assertEquals(List.of("a"), ids(second.outbox.pendingSends()));
    assertFalse(temp.exists());
    assertTrue(second.errors.isEmpty(), "a temp file reported as corrupt: " + second.errors);
  }

  @Test
  void aLoadedSendThatIsRefusedIsReportedSinceNoFutureWaitsOnIt() throws Exception {
    OutboxHarness first = outbox();
    first.outbox.start("alice");
    first.send("r1", "a");
    OutboxHarness second = outbox();
    second.outbox.start("alice");
    second.connected();
    second.call(0).fail(new ApiException(403, "forbidden", "not a member any more"));
    ClientError e = second.errors.get(second.errors.size() - 1);
    assertEquals(ClientError.Kind.SEND_FAILED, e.kind());
    assertEquals("r1", e.roomId());
    assertEquals(0, dir.listFiles().length, "a refused send leaves no file");
  }

  @Test
  void entriesLeftByAnEarlierProcessAreSentInOrderAtStart() throws Exception {
    OutboxHarness first = outbox();
    first.outbox.start("alice");
    first.send("r1", "a");
    first.send("r2", "x");
    first.send("r1", "b");
    first.send("r1", "c");
    // the process dies here: nothing is closed

    OutboxHarness second = outbox();
    second.outbox.start("alice");
    List<PendingSend> loaded = second.outbox.pendingSends();
    assertEquals(List.of("a", "x", "b", "c"), ids(loaded));
    assertEquals("text of a", loaded.get(0).parts().get(0).text());
    assertEquals(1_700_000_000_000L, loaded.get(0).createdAt());
    CompletableFuture<Message> d = second.send("r1", "d"); // a new send goes after the old ones
    second.connected();
    second.assertSent("r1/a", "r2/x");
    second.call(0).succeed(1);
    second.call(1).succeed(1);
    second.call(2).fail(new ApiException(502, "http_502", "HTTP 502"));
    second.time.advance(second.backoffMillis(0));
    second.call(3).succeed(2);
    second.call(4).succeed(3);
    second.call(5).succeed(4);
    second.assertSent("r1/a", "r2/x", "r1/b", "r1/b", "r1/c", "r1/d");
    assertEquals(4, value(d).seq());
    assertEquals(0, dir.listFiles().length);
    assertTrue(second.outbox.pendingSends().isEmpty());
    assertTrue(first.calls.isEmpty());
  }

  @Test
  void newSendsAfterALoadDoNotReuseItsSequence() throws Exception {
    OutboxHarness first = outbox();
    first.outbox.start("alice");
    first.send("r1", "a");
    first.send("r1", "b");
    OutboxHarness second = outbox();
    second.outbox.start("alice");
    second.send("r1", "c");
    OutboxHarness third = outbox();
    third.outbox.start("alice");
    assertEquals(List.of("a", "b", "c"), ids(third.outbox.pendingSends()));
  }

  @Test
  void aCorruptEntryIsReportedAndSetAsideAndTheOthersAreStillSent() throws Exception {
    OutboxHarness first = outbox();
    first.outbox.start("alice");
    first.send("r1", "a");
    first.send("r1", "b");
    first.send("r1", "c");
    File[] written = files(dir, ".json");
    Files.write(written[0].toPath(), "{\"version\":1,\"sequ".getBytes(StandardCharsets.UTF_8)); // unreadable
    Files.write(written[2].toPath(), // readable JSON, a field missing
        "{\"version\":1,\"sequence\":3,\"userId\":\"alice\",\"roomId\":\"r1\",\"createdAt\":\"2026-11-22T10:00:00.000Z\",\"parts\":[]}"
            .getBytes(StandardCharsets.UTF_8));

    OutboxHarness second = outbox();
    second.outbox.start("alice");
    assertEquals(List.of("b"), ids(second.outbox.pendingSends()));
    assertEquals(2, second.errors.size());
    for (ClientError e : second.errors) {
      assertEquals(ClientError.Kind.OUTBOX_CORRUPT, e.kind());
      assertTrue(e.message().contains(".corrupt"), e.message());
      assertTrue(e.cause() != null);
    }
    assertFalse(written[0].exists());
    assertFalse(written[2].exists());
    assertTrue(new File(written[0].getPath() + ".corrupt").exists());
    assertTrue(new File(written[2].getPath() + ".corrupt").exists());
    second.connected();
    second.call(0).succeed(1);
    second.assertSent("r1/b");
    assertEquals(2, files(dir, ".corrupt").length);
    assertEquals(0, files(dir, ".json").length);

    OutboxHarness third = outbox(); // set aside: not reported again
    third.outbox.start("alice");
    assertTrue(third.errors.isEmpty());
  }

  @Test
  void anotherUsersEntriesStayUntouched() throws Exception {
    OutboxHarness bobs = outbox();
    bobs.outbox.start("bob");
    bobs.outbox.enqueue("r9", List.of(MessagePart.text("from bob")), "b1", "bob");
    File bobFile = files(dir, ".json")[0];
    byte[] bobBytes = Files.readAllBytes(bobFile.toPath());
    long bobModified = bobFile.lastModified();

    OutboxHarness alices = outbox();
    alices.outbox.start("alice");
    assertTrue(alices.outbox.pendingSends().isEmpty());
    alices.send("r1", "a");
    alices.connected();
    alices.call(0).succeed(1);
    alices.assertSent("r1/a");
    assertArrayEquals(bobBytes, Files.readAllBytes(bobFile.toPath()));
    assertEquals(bobModified, bobFile.lastModified());
    assertEquals(1, dir.listFiles().length);

    OutboxHarness bobAgain = outbox();
    bobAgain.outbox.start("bob");
    assertEquals(List.of("b1"), ids(bobAgain.outbox.pendingSends()));
  }

  @Test
  void aClientSwitchingUsersLoadsTheNewUsersEntriesAndKeepsTheOldOnes() throws Exception {
    OutboxHarness bobs = outbox();
    bobs.outbox.start("bob");
    bobs.outbox.enqueue("r9", List.of(MessagePart.text("from bob")), "b1", "bob");
    OutboxHarness h = outbox();
    h.outbox.start("alice");
    CompletableFuture<Message> a = h.send("r1", "a");
    h.outbox.start("bob");
    failure(a, ChatStateException.class);
    assertEquals(List.of("b1"), ids(h.outbox.pendingSends()));
    assertEquals(2, files(dir, ".json").length, "alice's entry was deleted");
  }

  @Test
  void closeCompletesAKeptSendAsPendingAndKeepsItsFile() throws Exception {
    OutboxHarness h = outbox();
    h.outbox.start("alice");
    CompletableFuture<Message> a = h.send("r1", "a");
    h.state(ConnectionState.CLOSED);
    h.outbox.close(true);
    Message pending = a.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertEquals(0, pending.seq(), "the pending message: " + pending);
    assertEquals("text of a", pending.text());
    assertEquals(1, files(dir, ".json").length);
    OutboxHarness next = outbox();
    next.outbox.start("alice");
    assertEquals(List.of("a"), ids(next.outbox.pendingSends()));
  }

  @Test
  void aLogoutFailsTheFuturesOfKeptSends() throws Exception {
    OutboxHarness h = outbox();
    h.outbox.start("alice");
    CompletableFuture<Message> a = h.send("r1", "a");
    h.outbox.closing(false);
    h.state(ConnectionState.CLOSED);
    h.outbox.close(false);
    assertEquals("the client is closed", failure(a, ChatStateException.class).getMessage());
  }

  @Test
  void aDirectoryThatCannotBeWrittenIsReportedAndSendsGoOnFromMemory() throws Exception {
    File notADirectory = new File(dir, "file");
    Files.write(notADirectory.toPath(), new byte[] {1});
    OutboxHarness h = new OutboxHarness(0, new FileOutboxStore(new File(notADirectory, "outbox"),
        LOG));
    h.outbox.start("alice");
    CompletableFuture<Message> a = h.send("r1", "a");
    assertEquals(ClientError.Kind.OUTBOX_IO, h.errors.get(0).kind());
    h.connected();
    h.call(0).succeed(1);
    value(a);
  }

  @Test
  void aTimedOutSendLosesItsFile() throws Exception {
    OutboxHarness h = new OutboxHarness(1_000, new FileOutboxStore(dir,
        LOG));
    h.outbox.start("alice");
    CompletableFuture<Message> a = h.send("r1", "a");
    h.time.advance(1_000);
    assertTrue(a.isCompletedExceptionally());
    assertEquals(0, dir.listFiles().length);
  }

  @Test
  void theEntryFormatReadsBackWhatItWrites() throws Exception {
    OutboxEntry e = new OutboxEntry("r 1", List.of(MessagePart.text("hé \"x\""),
        MessagePart.builder("image").rawField("url", "\"https://x/y.png\"").build()), "c1", "a@b:c", 1_234L, null, 0);
    e.sequence = 42;
    okio.Buffer buffer = new okio.Buffer().write(OutboxEntryJson.write(e));
    OutboxEntry back = OutboxEntryJson.read(buffer, 7);
    assertEquals(e.roomId, back.roomId);
    assertEquals(e.parts, back.parts);
    assertEquals(e.clientMessageId, back.clientMessageId);
    assertEquals(e.senderId, back.senderId);
    assertEquals(1_234L, back.createdAt);
    assertEquals(42, back.sequence);
    assertNull(back.result);
  }

  @Test
  void anEntryKeepsItsReplyThreadAndMentionsAndAPlainOneHasNone() throws Exception {
    SendLinks links = SendLinks.of("m0", "m1", List.of("bob", "cy"));
    OutboxEntry e = new OutboxEntry("r1", List.of(MessagePart.text("hi")), links, "c1", "alice", 1_234L, null, 0);
    e.sequence = 3;
    byte[] written = OutboxEntryJson.write(e);
    assertEquals(links, OutboxEntryJson.read(new okio.Buffer().write(written), 7).links);
    OutboxEntry plain = new OutboxEntry("r1", List.of(MessagePart.text("hi")), "c2", "alice", 1_234L, null, 0);
    plain.sequence = 4;
    byte[] plainBytes = OutboxEntryJson.write(plain);
    assertFalse(new String(plainBytes, java.nio.charset.StandardCharsets.UTF_8).contains("links"),
        "a plain entry's file is as an older SDK wrote it");
    assertSame(SendLinks.NONE, OutboxEntryJson.read(new okio.Buffer().write(plainBytes), 7).links);
  }

  private static List<String> ids(List<PendingSend> pending) {
    return pending.stream().map(PendingSend::clientMessageId).toList();
  }
}
