package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredState;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.testing.NoOpChatStore;
import dev.svc.chat.testing.VirtualTaskScheduler;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A connect waits for the user's store to open; a disconnect made meanwhile wins. */
class StoreConnectTest {
  private final FakeGateway gateway;
  private final CountDownLatch opening = new CountDownLatch(1);
  private final ChatClient client;

  StoreConnectTest() throws Exception {
    gateway = new FakeGateway();
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false).scheduler(new VirtualTaskScheduler())
        .store(new SlowStore()).build());
  }

  @AfterEach
  void tearDown() throws Exception {
    opening.countDown();
    client.close();
    gateway.close();
  }

  @Test
  void aDisconnectWhileTheStoreOpensLeavesTheClientDisconnected() throws Exception {
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    client.disconnect();
    opening.countDown(); // the store opens after the app disconnected
    ExecutionException e = assertThrows(ExecutionException.class, () -> connected.get(30, TimeUnit.SECONDS));
    assertTrue(e.getCause() instanceof ChatStateException, String.valueOf(e.getCause()));
    assertEquals(ConnectionState.DISCONNECTED, client.state());
    // the next connect is the gateway's first session: the one decided before the disconnect never opened
    CompletableFuture<Void> again = client.connect("alice", "good-jwt");
    GatewaySession first = gateway.nextSession();
    first.awaitConnect();
    Await.value(again);
    assertEquals(1, first.id);
  }

  @Test
  void theSendsAUserLeftInTheStoreArePendingAgainAfterTheNextConnect() throws Exception {
    opening.countDown();
    SlowStore store = new SlowStore();
    store.left = Collections.singletonList(new dev.svc.chat.store.StoredSend("r1", "c-left", "alice",
        Collections.singletonList(MessagePart.text("typed in a tunnel")), 1, 7));
    // the actor on the calling thread: the outbox asks for its stored sends as early as it can
    ChatClient restarted = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false)
        .engineExecutor(Runnable::run).scheduler(new VirtualTaskScheduler()).store(store).build());
    // The send is refused as retryable and its retry is never due (the virtual clock stands still), so it stays
    // pending: answered 404, it would end at once and the wait below could miss the moment it was pending.
    gateway.rest = request -> new MockResponse().setResponseCode(503)
        .setBody("{\"error\":{\"code\":\"unavailable\",\"message\":\"not now\"}}");
    try {
      restarted.connect("alice", "good-jwt");
      Await.until("the stored send is pending", () -> restarted.pendingSends().size() == 1);
      assertEquals("c-left", restarted.pendingSends().get(0).clientMessageId());
    } finally {
      restarted.close();
    }
  }

  /** A store whose open waits for the test. */
  private final class SlowStore extends NoOpChatStore {
    List<dev.svc.chat.store.StoredSend> left = Collections.emptyList();

    @Override
    public ChatStore open(String userId) {
      try {
        opening.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return this;
    }

    @Override
    public StoredState load() {
      return new StoredState(Collections.<StoredRoom>emptyList(), Collections.<Receipt>emptyList(),
          Collections.<Message>emptyList(), left, 0);
    }
  }
}
