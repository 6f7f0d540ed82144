package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ChatClient;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.GatedExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * close() while the engine is too busy to reach its closing task within the grace (a loaded machine): the task
 * still runs, so the process-wide handshake slot of a handshake under way comes back. Dropped, it was gone for
 * good, and once all {@link HandshakeSlots#LIMIT} were gone no client of the JVM could connect again.
 */
class CloseOnBusyEngineTest {
  private FakeGateway gateway;
  private GatedExecutor engine;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    engine = new GatedExecutor(1);
  }

  @AfterEach
  void tearDown() throws Exception {
    engine.close();
    gateway.close();
  }

  @Test
  void theSlotOfAHandshakeUnderWayComesBack() throws Exception {
    int before = HandshakeSlots.SHARED.free();
    gateway.onConnect = auth -> null; // the handshake stays under way, holding its slot
    ChatClient client = Svc.init(SvcOptions.builder(gateway.apiUrl()).engineExecutor(engine)
        .recoverMissedEvents(false).build());
    CompletableFuture<Void> connecting = client.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    assertEquals(before - 1, HandshakeSlots.SHARED.free());
    engine.hold(); // busy past close()'s grace
    client.close();
    engine.release();
    Await.failure(connecting, dev.svc.chat.ChatStateException.class);
    Await.until("the handshake slot to come back", () -> HandshakeSlots.SHARED.free() == before,
        () -> HandshakeSlots.SHARED.free() + " free of " + before);
  }
}
