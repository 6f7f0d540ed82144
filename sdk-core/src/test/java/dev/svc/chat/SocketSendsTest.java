package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.svc.chat.internal.outbox.SocketSendBudget;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.TestTransport;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.VirtualTaskScheduler;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sends over the socket (docs/protocol.md, "Extension: sends over the socket") against a scripted gateway: used
 * only when the CONNECT answer offers them, a window of sends in flight per room, REST (one in flight) otherwise,
 * and the order kept through a retryable refusal and a cut connection.
 */
class SocketSendsTest {
  private static final String OFFER = "40{\"sid\":\"s\",\"svc\":{\"sendMessage\":true}}";
  private static final Pattern CLIENT_MESSAGE_ID = Pattern.compile("\"clientMessageId\":\"([^\"]+)\"");

  private FakeGateway gateway;
  private final VirtualTaskScheduler time = new VirtualTaskScheduler();
  private ChatClient client;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (client != null) client.close();
    gateway.close();
  }

  private GatewaySession connect(boolean socketSends) throws Exception {
    return connect(socketSends, 0);
  }

  private GatewaySession connect(boolean socketSends, long sendTimeoutMillis) throws Exception {
    client = Svc.init(TestTransport.on(SvcOptions.builder(gateway.apiUrl())).recoverMissedEvents(false).engineExecutor(Runnable::run)
        .scheduler(time).reconnectDelay(100, 1_000).logger(new RecordingLogger()).socketSends(socketSends)
        .sendTimeoutMillis(sendTimeoutMillis).build());
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    Await.value(connected);
    return session;
  }

  private List<CompletableFuture<Message>> sendTexts(int n) {
    List<CompletableFuture<Message>> sent = new ArrayList<>();
    for (int i = 0; i < n; i++) sent.add(client.sendText("r1", "m" + i));
    return sent;
  }

  private static String id(String payload) {
    return Frames.clientMessageId(payload);
  }

  private static String ok(String clientMessageId, long seq) {
    return Frames.sendAnswer(clientMessageId, "r1", seq);
  }

  /**
   * Asserts the client sent nothing more on {@code session} than it read so far: a typing emit made now goes
   * through the client's actor after everything it had to send, so it must be the next frame.
   */
  private void assertNothingMoreSent(GatewaySession session, String unexpected) throws Exception {
    CompletableFuture<Void> typing = client.setTyping("r1", true);
    GatewaySession.Emit emit;
    try {
      emit = session.nextEmit("typing");
    } catch (AssertionError e) {
      throw new AssertionError(unexpected + ": " + e.getMessage(), e);
    }
    session.ack(emit, "{\"ok\":true}");
    Await.value(typing);
  }

  private int attempted() {
    int n = 0;
    for (PendingSend p : client.pendingSends()) if (p.attempts() > 0) n++;
    return n;
  }

  /**
   * A room's rate is at most its window over the acknowledgement's round trip: 5,000 sends a second through a round
   * trip of 50 ms (a collector's pause in the sender or the server) need 250 in flight. With 32 the sends queued in
   * the outbox and their latency grew by seconds (docs/benchmarks.md, the latency section).
   */
  @Test
  void twoHundredFiftySixSendsOfARoomAreInFlightOnTheSocketAndAnswerInOrder() throws Exception {
    gateway.onConnect = auth -> OFFER;
    GatewaySession session = connect(true);
    int window = 256;
    List<CompletableFuture<Message>> sent = sendTexts(window + 8);
    List<GatewaySession.Emit> emits = new ArrayList<>();
    for (int i = 0; i < window; i++) {
      GatewaySession.Emit emit = session.nextEmit("send-message");
      assertTrue(emit.payload.contains("\"roomId\":\"r1\""), emit.payload);
      assertTrue(emit.payload.contains("\"senderId\":\"alice\""), "the sender, as over REST: " + emit.payload);
      assertTrue(emit.payload.contains("\"text\":\"m" + i + "\""), emit.payload);
      emits.add(emit);
    }
    Await.until("all queued", () -> client.pendingSends().size() == window + 8);
    assertNothingMoreSent(session, "more than the window went out");
    assertEquals(window, attempted(), "the window is " + window);
    for (int i = 0; i < window + 8; i++) {
      if (i >= emits.size()) emits.add(session.nextEmit("send-message"));
      GatewaySession.Emit emit = emits.get(i);
      assertTrue(emit.payload.contains("\"text\":\"m" + i + "\""), emit.payload);
      session.ack(emit, ok(id(emit.payload), i + 1));
      assertEquals(i + 1, Await.value(sent.get(i)).seq());
    }
    Await.until("the outbox is empty", () -> client.pendingSends().isEmpty());
  }

  /**
   * Large sends fill the connection's budget of bytes before a room's window: what is in flight stays far below
   * OkHttp's 16 MiB queue of outgoing frames (over it OkHttp closes the socket), here sends of 10 parts of 4,000
   * three-byte characters (120 KB of UTF-8 each). SocketSendBudgetTest has the budget across rooms.
   */
  @Test
  void largeSendsFillTheSocketsBudgetOfBytesAndStayFarBelowOkHttpsQueue() throws Exception {
    gateway.onConnect = auth -> OFFER;
    GatewaySession session = connect(true);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 4_000; i++) text.append('\u6f22');
    List<MessagePart> parts = new ArrayList<>();
    for (int i = 0; i < 10; i++) parts.add(MessagePart.text(text.toString()));
    List<CompletableFuture<Message>> sent = new ArrayList<>();
    for (int i = 0; i < 60; i++) sent.add(client.sendMessage("r1", parts));
    Await.until("all queued", () -> client.pendingSends().size() == 60);
    String anId = java.util.UUID.randomUUID().toString(); // as long as the client's ids
    int inFlight = (int) (SocketSendBudget.BYTES / SocketSendBudget.weight("r1", parts, anId, "alice"));
    long bytes = 0;
    List<GatewaySession.Emit> emits = new ArrayList<>();
    for (int i = 0; i < inFlight; i++) {
      GatewaySession.Emit emit = session.nextEmit("send-message");
      bytes += emit.payload.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      emits.add(emit);
    }
    assertNothingMoreSent(session, "sends past the budget went out");
    assertEquals(inFlight, attempted());
    assertTrue(bytes <= SocketSendBudget.BYTES, "in flight: " + bytes + " bytes");
    session.ack(emits.get(0), ok(id(emits.get(0).payload), 1));
    assertEquals(1, Await.value(sent.get(0)).seq());
    session.nextEmit("send-message"); // one answered, one more goes
  }

  @Test
  void withoutTheOfferSendsGoOverRest() throws Exception {
    GatewaySession session = connect(true); // the default CONNECT answer has no svc key
    gateway.enqueueRest(json(201, Frames.messageJson("m1", "r1", 1, "t")));
    gateway.enqueueRest(json(201, Frames.messageJson("m2", "r1", 2, "t")));
    List<CompletableFuture<Message>> sent = sendTexts(2);
    assertTrue(gateway.takeRest().getPath().endsWith("/chat/rooms/r1/messages"));
    Await.value(sent.get(0));
    gateway.takeRest();
    Await.value(sent.get(1));
    assertNothingMoreSent(session, "a send went over the socket");
  }

  @Test
  void socketSendsOffIsRestEvenWhenOffered() throws Exception {
    gateway.onConnect = auth -> OFFER;
    GatewaySession session = connect(false);
    gateway.enqueueRest(json(201, Frames.messageJson("m1", "r1", 1, "t")));
    gateway.enqueueRest(json(201, Frames.messageJson("m2", "r1", 2, "t")));
    List<CompletableFuture<Message>> sent = sendTexts(2);
    assertTrue(gateway.takeRest().getPath().endsWith("/chat/rooms/r1/messages"));
    assertTrue(gateway.takeRest().getPath().endsWith("/chat/rooms/r1/messages"));
    assertEquals("m1", Await.value(sent.get(0)).id());
    assertEquals("m2", Await.value(sent.get(1)).id());
    assertNothingMoreSent(session, "a send went over the socket");
  }

  @Test
  void aRateLimitedSendMidWindowIsRetriedFirstAndTheRestFollowInOrder() throws Exception {
    gateway.onConnect = auth -> OFFER;
    GatewaySession session = connect(true);
    List<CompletableFuture<Message>> sent = sendTexts(5);
    List<GatewaySession.Emit> emits = new ArrayList<>();
    for (int i = 0; i < 5; i++) emits.add(session.nextEmit("send-message"));
    session.ack(emits.get(0), ok(id(emits.get(0).payload), 1));
    String limited = "{\"ok\":false,\"error\":{\"code\":\"rate_limited\",\"message\":\"slow\",\"retryAfter\":2}}";
    for (int i = 1; i < 4; i++) session.ack(emits.get(i), limited);
    Await.value(sent.get(0));
    // the last one still in flight holds the retry back
    Await.until("three refusals read", () -> client.pendingSends().get(2).lastError() != null);
    session.ack(emits.get(4), limited);
    Await.until("the refusal is read", () -> client.pendingSends().get(3).lastError() != null);
    ApiException error = (ApiException) client.pendingSends().get(0).lastError();
    assertEquals(429, error.status());
    assertEquals("rate_limited", error.code());
    assertEquals(2_000, error.retryAfterMillis());
    // the refusal is read before the actor arms the retry: advancing earlier would leave the timer behind the clock
    long due = time.nowMillis() + 2_000;
    Await.until("the retry is armed", () -> time.hasTaskDueAt(due));
    time.advance(1_999);
    assertEquals(1, client.pendingSends().get(0).attempts(), "retried before its retryAfter");
    time.advance(1);
    for (int i = 1; i < 5; i++) {
      GatewaySession.Emit again = session.nextEmit("send-message");
      assertEquals(id(emits.get(i).payload), id(again.payload), "resent in order with the same id");
      session.ack(again, ok(id(again.payload), i + 1));
    }
    for (int i = 0; i < 5; i++) assertEquals(i + 1, Await.value(sent.get(i)).seq());
  }

  @Test
  void aRefusalAnswersTheSendWithTheTypedErrorOfRestAndTheOthersGoOn() throws Exception {
    gateway.onConnect = auth -> OFFER;
    GatewaySession session = connect(true);
    List<CompletableFuture<Message>> sent = sendTexts(2);
    GatewaySession.Emit first = session.nextEmit("send-message");
    GatewaySession.Emit second = session.nextEmit("send-message");
    session.ack(first, "{\"ok\":false,\"error\":{\"code\":\"forbidden\",\"message\":\"Not a member of this room\"}}");
    session.ack(second, ok(id(second.payload), 1));
    ApiException refused = Await.failure(sent.get(0), ApiException.class);
    assertEquals(403, refused.status());
    assertEquals("forbidden", refused.code());
    assertEquals(1, Await.value(sent.get(1)).seq());
  }

  @Test
  void aCutConnectionResendsItsUnackedSendsInOrderOnTheNextOne() throws Exception {
    gateway.onConnect = auth -> OFFER;
    GatewaySession session = connect(true);
    List<CompletableFuture<Message>> sent = sendTexts(6);
    List<GatewaySession.Emit> emits = new ArrayList<>();
    for (int i = 0; i < 6; i++) emits.add(session.nextEmit("send-message"));
    session.ack(emits.get(0), ok(id(emits.get(0).payload), 1));
    session.ack(emits.get(1), ok(id(emits.get(1).payload), 2));
    Await.value(sent.get(1));
    session.cancel();
    Await.until("the lost sends are failed", () -> client.pendingSends().get(3).lastError() != null);
    GatewaySession next = null;
    for (int tries = 0; next == null && tries < 120; tries++) { // virtual seconds of backoff: bounded
      time.advance(1_000);
      next = gateway.pollSession(50);
    }
    // no more virtual time: the reconnect is due, a loaded machine may just be slow to open the socket
    if (next == null) next = gateway.nextSession();
    assertNotNull(next, "the client never reconnected");
    next.awaitConnect();
    for (int i = 2; i < 6; i++) {
      GatewaySession.Emit again = next.nextEmit("send-message");
      assertEquals(id(emits.get(i).payload), id(again.payload), "resent in order with the same id");
      next.ack(again, ok(id(again.payload), i + 1));
    }
    for (int i = 0; i < 6; i++) assertEquals(i + 1, Await.value(sent.get(i)).seq());
    assertNothingMoreSent(next, "a duplicate send");
  }

  @Test
  void aRefusedSendThatTimesOutBeforeItWasSentAgainSendsItsRoomOverRestOnThatConnection() throws Exception {
    gateway.onConnect = auth -> OFFER;
    GatewaySession session = connect(true, 5_000);
    CompletableFuture<Message> a = client.sendText("r1", "a");
    time.advance(1_000);
    CompletableFuture<Message> b = client.sendText("r1", "b");
    GatewaySession.Emit ea = session.nextEmit("send-message");
    GatewaySession.Emit eb = session.nextEmit("send-message");
    String limited = "{\"ok\":false,\"error\":{\"code\":\"rate_limited\",\"message\":\"slow\",\"retryAfter\":60}}";
    session.ack(ea, limited);
    session.ack(eb, limited); // held back by the server's guard, as a was refused
    Await.until("both refusals read", () -> client.pendingSends().get(1).lastError() != null);
    gateway.enqueueRest(json(201, Frames.messageJson("m2", "r1", 1, "b")));
    time.advance(4_000); // a's deadline: never sent again, so the guard would hold b back on this connection
    Await.failure(a, SendTimeoutException.class);
    Matcher m = CLIENT_MESSAGE_ID.matcher(gateway.takeRest().getBody().readUtf8());
    assertTrue(m.find());
    assertEquals(id(eb.payload), m.group(1), "b goes over REST");
    assertEquals("m2", Await.value(b).id());
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json").setBody(body);
  }
}
