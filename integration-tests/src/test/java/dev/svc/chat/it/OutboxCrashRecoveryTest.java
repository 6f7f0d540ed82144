package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.testing.Await;
import java.io.File;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file-backed outbox survives {@code kill -9}: a child JVM queues sends while the service is unreachable
 * and is killed; a client of the same user and directory then delivers every send once, in order, to the real
 * reference server.
 */
class OutboxCrashRecoveryTest {
  private static final int N = 20;

  @TempDir
  File outboxDir;

  @Test
  void sendsQueuedBeforeAKillAreDeliveredOnceAndInOrderAtTheNextStart() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().port(0).build().start()) {
      Admin admin = new Admin(server.apiUrl(), server.apiKey());
      String room = admin.createRoom("outbox", "alice");
      String unreachable = "http://127.0.0.1:" + closedPort() + "/v1";

      queueInAChildJvmAndKillIt(unreachable, admin.mint("alice"), room);
      assertEquals(N, outboxDir.listFiles((d, name) -> name.endsWith(".json")).length,
          "the killed child's outbox directory");

      // the first send had reached the service before the kill (its answer was lost): the service stores it once
      ChatClient other = Svc.init(server.apiUrl());
      try {
        await(other.connect("alice", admin.mint("alice")));
        await(other.sendMessage(room, Collections.singletonList(MessagePart.text("msg 1")), "crash-1"));
      } finally {
        other.close();
      }

      ChatClient client = Svc.init(SvcOptions.builder(server.apiUrl()).outboxDirectory(outboxDir).build());
      try {
        await(client.connect("alice", admin.mint("alice")));
        Await.until("no send pending and an empty outbox directory",
            () -> client.pendingSends().isEmpty() && outboxDir.listFiles((d, n) -> n.endsWith(".json")).length == 0,
            client::pendingSends);
        List<Message> messages = await(client.getMessages(room, MessageQuery.latest(100))).messages();
        List<String> ids = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        List<String> expectedIds = new ArrayList<>();
        List<String> expectedTexts = new ArrayList<>();
        for (Message m : messages) {
          ids.add(m.clientMessageId());
          texts.add(m.text());
        }
        for (int i = 1; i <= N; i++) {
          expectedIds.add("crash-" + i);
          expectedTexts.add("msg " + i);
        }
        assertEquals(expectedIds, ids, "each send once, in order");
        assertEquals(expectedTexts, texts);
        for (int i = 0; i < messages.size(); i++) assertEquals(i + 1, messages.get(i).seq());
        File[] left = outboxDir.listFiles();
        assertEquals(0, left.length, "files left in the outbox: " + java.util.Arrays.toString(left));
      } finally {
        client.close();
      }
    }
  }

  private void queueInAChildJvmAndKillIt(String apiUrl, String token, String room) throws Exception {
    Process child = ChildJvm.startUntil(OutboxQueueThenWaitMain.class, "queued", apiUrl, "alice", token, room,
        outboxDir.getPath(), Integer.toString(N));
    child.destroyForcibly(); // SIGKILL: no shutdown hook, no close()
    assertTrue(child.waitFor(10, TimeUnit.SECONDS), "the child survived destroyForcibly");
  }

  /** A port nothing listens on: bound, then released. */
  private static int closedPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
