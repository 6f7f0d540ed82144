package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatedExecutor;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.testing.RecordingLogger;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SDK's own work never waits for the app's callback executor: REST answers reach the outbox and recovery
 * on the SDK's threads, and only the futures the app gets hop to its executor.
 */
class InternalFuturesTest {
  private FakeGateway gateway;
  private GatedExecutor callbacks;
  private ChatClient client;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    callbacks = new GatedExecutor(1);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (client != null) client.close();
    callbacks.close();
    gateway.close();
  }

  private GatewaySession connect(SvcOptions.Builder options) throws Exception {
    client = Svc.init(options.recoverMissedEvents(false).logger(new RecordingLogger()).build());
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(connected);
    return session;
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json").setBody(body);
  }

  @Test
  void restSendsGoOnWhileTheAppsCallbackExecutorIsPaused() throws Exception {
    connect(SvcOptions.builder(gateway.apiUrl()).callbackExecutor(callbacks));
    callbacks.hold(); // the app's thread is busy (Android: a long frame on the main thread)
    gateway.enqueueRest(json(201, Frames.messageJson("m1", "r1", 1, "a")));
    gateway.enqueueRest(json(201, Frames.messageJson("m2", "r1", 2, "b")));
    CompletableFuture<Message> a = client.sendText("r1", "a");
    CompletableFuture<Message> b = client.sendText("r1", "b");
    gateway.takeRest();
    // over REST a room has one send in flight: the second goes out only once the outbox read the first answer
    gateway.takeRest();
    Await.until("both sends end", () -> client.pendingSends().isEmpty());
    assertFalse(a.isDone(), "the app's future completes on the app's executor, which is paused");
    callbacks.release();
    assertEquals("m1", Await.value(a).id());
    assertEquals("m2", Await.value(b).id());
  }

  @Test
  void aHandlerMayBlockOnAFutureOfItsOwnClient() throws Exception {
    GatewaySession session = connect(SvcOptions.builder(gateway.apiUrl()).callbackExecutor(callbacks));
    CompletableFuture<String> seen = new CompletableFuture<>();
    client.on(EventType.NEW_MESSAGE, m -> {
      try {
        // blocking the callback thread is the app's choice; it must not stop the client for good
        MessagePage page = client.getMessages(m.roomId()).get(2 * FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Message reply = client.sendText(m.roomId(), "re: " + m.id())
            .get(2 * FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        seen.complete(page.messages().size() + " " + reply.id());
      } catch (Exception e) {
        seen.completeExceptionally(e);
      }
    });
    gateway.enqueueRest(json(200, "{\"messages\":[" + Frames.messageJson("m1", "r1", 1, "hello") + "],"
        + "\"hasMore\":false}"));
    gateway.enqueueRest(json(201, Frames.messageJson("m2", "r1", 2, "re: m1")));
    session.send(Frames.newMessage("m1", "r1", 1, "hello"));
    assertEquals("1 m2", Await.value(seen));
  }

  @Test
  void aHandlerMayBlockOnAFutureOfItsOwnClientWhoseTokenMustBeRefreshed() throws Exception {
    // the handler holds the app's (one) callback thread while its call waits for a refresh: the app's
    // TokenRefresher must then run elsewhere, or the call waits behind the handler that waits for it
    GatewaySession session = connect(SvcOptions.builder(gateway.apiUrl()).callbackExecutor(callbacks)
        .tokenRefresher(() -> CompletableFuture.completedFuture("fresh-jwt")));
    CompletableFuture<Integer> seen = new CompletableFuture<>();
    client.on(EventType.NEW_MESSAGE, m -> {
      try {
        seen.complete(client.getMessages(m.roomId()).get(10, TimeUnit.SECONDS).messages().size());
      } catch (Exception e) {
        seen.completeExceptionally(e);
      }
    });
    gateway.enqueueRest(json(401, "{\"error\":{\"code\":\"token_expired\",\"message\":\"the token expired\"}}"));
    gateway.enqueueRest(json(200, "{\"messages\":[" + Frames.messageJson("m1", "r1", 1, "hello") + "],"
        + "\"hasMore\":false}"));
    session.send(Frames.newMessage("m1", "r1", 1, "hello"));
    assertEquals(1, Await.value(seen));
    assertEquals("Bearer good-jwt", gateway.takeRest().getHeader("Authorization"));
    assertEquals("Bearer fresh-jwt", gateway.takeRest().getHeader("Authorization"));
  }

  @Test
  void aStateHandlerMayBlockOnAFutureOfItsOwnClient() throws Exception {
    // state changes run on the lane ahead, as a task of their own: a wait there is seen as a wait behind itself too
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).callbackExecutor(callbacks).recoverMissedEvents(false)
        .logger(new RecordingLogger()).build());
    CompletableFuture<Integer> seen = new CompletableFuture<>();
    client.on(EventType.CONNECTION_STATE, change -> {
      if (change.current() != ConnectionState.CONNECTED) return;
      try {
        seen.complete(client.getMessages("r1").get(2 * FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS)
            .messages().size());
      } catch (Exception e) {
        seen.completeExceptionally(e);
      }
    });
    gateway.enqueueRest(json(200, "{\"messages\":[" + Frames.messageJson("m1", "r1", 1, "hello") + "],"
        + "\"hasMore\":false}"));
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    assertEquals(1, Await.value(seen));
    Await.value(connected);
  }
}
