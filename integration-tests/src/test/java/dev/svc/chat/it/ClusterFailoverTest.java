package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.it.faults.FailoverProxy;
import dev.svc.chat.reference.EmbeddedPg;
import dev.svc.chat.reference.Main;
import dev.svc.chat.reference.ReferenceServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A node of a two-node cluster dies ({@code kill -9} of its JVM) under a connected SDK client: the client's
 * URL leads to a failover proxy that prefers the dying node, so the client reconnects to the survivor and
 * recovers by {@code seq}; the messages sent through the survivor before, during and after the death reach
 * it each once, in order. Runs in the cluster topology only.
 */
class ClusterFailoverTest {

  @Test
  void aNodeDiesAndItsClientReconnectsToTheOtherAndRecoversBySeq() throws Exception {
    assumeTrue(ChatFixture.isCluster(), "needs the cluster topology");
    EmbeddedPg pg = EmbeddedPg.shared();
    String schema = "failover_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
    try (ReferenceServer survivor = ReferenceServer.builder().sendRateLimit(1_000, 1_000)
        .databaseUrl(pg.jdbcUrl(), pg.user(), null).databaseSchema(schema).build().start()) {
      // the dying node: same database and schema, so the same tenant, key and token secret; it picks its own
      // free port and tells it (no port picked here and released for it to bind: another process could take it)
      String listening = "svc reference server listening on http://127.0.0.1:";
      ChildJvm.Started child = ChildJvm.startUntilPrefix(Main.class, listening,
          "--port", "0", "--database-url", pg.jdbcUrl() + "?user=" + pg.user(), "--database-schema", schema);
      Process dying = child.process();
      int port = Integer.parseInt(child.line().substring(listening.length(), child.line().indexOf("/v1")));
      Admin admin = new Admin(survivor.apiUrl(), survivor.apiKey());
      String room = admin.createRoom("failover", "alice", "bob");
      try (FailoverProxy proxy = new FailoverProxy(List.of(port, survivor.port()));
           ChatClient bob = Svc.init(SvcOptions.builder(proxy.apiUrl()).reconnectDelay(100, 500).build());
           ChatClient alice = Svc.init(survivor.apiUrl())) {
        RecordingHandler<Message> received = ChatFixture.record(bob, EventType.NEW_MESSAGE);
        await(bob.connect("bob", admin.mint("bob")));
        await(alice.connect("alice", admin.mint("alice")));
        List<String> sent = new ArrayList<>();
        // before: through the survivor, to bob on the dying node (the bus carries it)
        for (int i = 0; i < 5; i++) {
          sent.add(await(alice.sendText(room, "before " + i)).id());
        }
        for (int i = 0; i < 5; i++) {
          assertEquals(i + 1, received.next(Duration.ofSeconds(10)).seq());
        }
        // during: the node dies while alice goes on sending
        dying.destroyForcibly();
        for (int i = 0; i < 10; i++) {
          sent.add(await(alice.sendText(room, "during " + i)).id());
        }
        assertTrue(dying.waitFor(10, TimeUnit.SECONDS), "the node is gone");
        // after: bob is back, through the proxy on the survivor
        for (int i = 0; i < 5; i++) {
          sent.add(await(alice.sendText(room, "after " + i)).id());
        }
        List<String> ids = new ArrayList<>();
        for (int i = 5; i < sent.size(); i++) {
          Message m = received.next(Duration.ofSeconds(30));
          assertEquals(i + 1, m.seq(), "in seq order, each once");
          ids.add(m.id());
        }
        assertEquals(sent.subList(5, sent.size()), ids);
        // one more proves delivery caught up; nothing else (no duplicate) came before it
        sent.add(await(alice.sendText(room, "last")).id());
        assertEquals(sent.size(), received.next(Duration.ofSeconds(10)).seq());
        received.assertNoMore();
      } finally {
        dying.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
