package dev.svc.chat.internal.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.realtime.ReconnectPolicy;
import dev.svc.chat.internal.util.SerialQueue;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.testing.Await;
import dev.svc.chat.internal.util.SerialScheduler;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.VirtualTaskScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outbox's file I/O runs on a queue of its own: a slow disk delays the send it writes, never the engine's
 * thread, and so never the pings, acks and other clients that share that thread.
 */
class OutboxIoTest {
  private static final long WAIT = FakeGateway.TIMEOUT_SECONDS;

  @TempDir
  File dir;

  /** One engine thread shared by two clients, as the SDK's engine pool is shared. */
  private final ExecutorService engineThread = Executors.newSingleThreadExecutor();
  private final ExecutorService ioThread = Executors.newSingleThreadExecutor();

  @AfterEach
  void tearDown() {
    engineThread.shutdownNow();
    ioThread.shutdownNow();
  }

  @Test
  void aWriteThatBlocksHoldsNeitherTheActorNorAnotherClientOnItsThread() throws Exception {
    Log log = new Log(new RecordingLogger());
    VirtualTaskScheduler time = new VirtualTaskScheduler();
    SerialScheduler actor = new SerialScheduler(engineThread, time, log);
    SerialScheduler otherClient = new SerialScheduler(engineThread, time, log);
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch disk = new CountDownLatch(1);
    FileOutboxStore store = new FileOutboxStore(dir, log, (from, to) -> {
      writing.countDown();
      try {
        disk.await(); // a slow flush
      } catch (InterruptedException e) {
        throw new java.io.IOException(e);
      }
      return from.renameTo(to);
    });
    List<String> attempts = new CopyOnWriteArrayList<>();
    OutboxTransport transport = (roomId, parts, links, clientMessageId, senderId) -> {
      attempts.add(clientMessageId);
      File[] files = dir.listFiles((d, name) -> name.endsWith(".json"));
      CompletableFuture<Message> answer = new CompletableFuture<>();
      if (files == null || files.length != 1) {
        answer.completeExceptionally(new AssertionError("attempted before its file was written"));
      } else {
        answer.complete(Message.builder().id("m-" + clientMessageId).roomId(roomId).seq(1).senderId(senderId)
            .clientMessageId(clientMessageId).parts(parts).createdAt(0).build());
      }
      return answer;
    };
    List<ClientError> errors = new CopyOnWriteArrayList<>();
    Outbox outbox = new Outbox(actor, transport, errors::add, new ReconnectPolicy(100, 1_000, new Random(1)), 0,
        store, new SerialQueue(ioThread, "I/O", log), () -> 1_700_000_000_000L, log);
    try {
      actor.execute(() -> outbox.onConnectionState(ConnectionState.CONNECTED));
      CompletableFuture<Message> sent = outbox.enqueue("r1",
          Collections.singletonList(MessagePart.text("hi")), "c1", "alice");
      assertTrue(writing.await(WAIT, TimeUnit.SECONDS), "the entry's file was never written");

      CountDownLatch ranOther = new CountDownLatch(1);
      CountDownLatch ranOwn = new CountDownLatch(1);
      otherClient.execute(ranOther::countDown);
      actor.execute(ranOwn::countDown); // e.g. a pong, an ack
      assertTrue(ranOther.await(WAIT, TimeUnit.SECONDS),
          "another client sharing the engine thread waited behind the outbox's disk write");
      assertTrue(ranOwn.await(WAIT, TimeUnit.SECONDS), "the client's actor waited behind its outbox's disk write");
      assertTrue(attempts.isEmpty(), "a send was attempted before its file was durable: " + attempts);

      disk.countDown();
      assertEquals("m-c1", sent.get(WAIT, TimeUnit.SECONDS).id());
      assertEquals(Collections.singletonList("c1"), attempts);
      Await.until("the ended send's file is deleted",
          () -> dir.listFiles((d, name) -> name.endsWith(".json")).length == 0);
      assertTrue(errors.isEmpty(), errors.toString());
    } finally {
      disk.countDown();
      actor.shutdown();
      otherClient.shutdown();
    }
  }

  @Test
  void aSendCancelledWhileItsRecordIsBeingWrittenIsNeverSentAndLeavesNoRecord() throws Exception {
    Log log = new Log(new RecordingLogger());
    SerialScheduler actor = new SerialScheduler(engineThread, new VirtualTaskScheduler(), log);
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch disk = new CountDownLatch(1);
    FileOutboxStore store = new FileOutboxStore(dir, log, (from, to) -> {
      writing.countDown();
      try {
        disk.await();
      } catch (InterruptedException e) {
        throw new java.io.IOException(e);
      }
      return from.renameTo(to);
    });
    List<String> attempts = new CopyOnWriteArrayList<>();
    OutboxTransport transport = (roomId, parts, links, clientMessageId, senderId) -> {
      attempts.add(clientMessageId);
      return new CompletableFuture<>();
    };
    List<ClientError> errors = new CopyOnWriteArrayList<>();
    Outbox outbox = new Outbox(actor, transport, errors::add, new ReconnectPolicy(100, 1_000, new Random(1)), 0,
        store, new SerialQueue(ioThread, "I/O", log), () -> 1_700_000_000_000L, log);
    try {
      actor.execute(() -> outbox.onConnectionState(ConnectionState.CONNECTED));
      CompletableFuture<Message> sent = outbox.enqueue("r1",
          Collections.singletonList(MessagePart.text("a large file's caption")), "c1", "alice");
      assertTrue(writing.await(WAIT, TimeUnit.SECONDS), "the entry's record was never written");

      // The app cancels at once, as a user taps cancel on the row it just drew.
      assertTrue(outbox.cancel("r1", "c1").get(WAIT, TimeUnit.SECONDS), "the send being recorded was not found");
      Throwable failure = sent.handle((v, t) -> t).get(WAIT, TimeUnit.SECONDS);
      assertTrue(failure instanceof java.util.concurrent.CancellationException, String.valueOf(failure));
      assertTrue(outbox.pendingSends().isEmpty(), outbox.pendingSends().toString());

      disk.countDown();
      Await.until("the cancelled send's record is deleted once written",
          () -> dir.listFiles((d, name) -> name.endsWith(".json")).length == 0);
      CountDownLatch drained = new CountDownLatch(1);
      actor.execute(drained::countDown);
      assertTrue(drained.await(WAIT, TimeUnit.SECONDS));
      assertTrue(attempts.isEmpty(), "a cancelled send was attempted: " + attempts);
      assertEquals(false, outbox.cancel("r1", "c1").get(WAIT, TimeUnit.SECONDS), "cancelled twice");
      assertTrue(errors.isEmpty(), errors.toString());
    } finally {
      disk.countDown();
      actor.shutdown();
    }
  }
}
