package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatedExecutor;
import dev.svc.chat.testing.RecordingLogger;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The REST operations against scripted MockWebServer answers. */
class RestTest {
  private static final Pattern CLIENT_MESSAGE_ID = Pattern.compile("\"clientMessageId\":\"([^\"]+)\"");

  private FakeGateway gateway;
  private GatedExecutor executor;
  private RecordingLogger logger;
  private ChatClient client;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    executor = new GatedExecutor(1);
    logger = new RecordingLogger();
    client = Svc.init(SvcOptions.builder(gateway.apiUrl() + "/").recoverMissedEvents(false).callbackExecutor(executor).logger(logger).build());
  }

  @AfterEach
  void tearDown() throws Exception {
    client.close();
    gateway.close();
    executor.close();
    assertFalse(logger.mentions("good-jwt"), "a token was logged");
  }

  private void connect() throws Exception {
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    Await.value(connected);
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json").setBody(body);
  }

  @Test
  void restBeforeConnectIsAStateError() throws Exception {
    Await.failure(client.listRooms(), ChatStateException.class);
    Await.failure(client.sendText("r1", "hi"), ChatStateException.class);
  }

  @Test
  void listRoomsSendsTheBearerToken() throws Exception {
    connect();
    gateway.enqueueRest(json(200, "{\"rooms\":[" + Frames.roomJson("r1") + "," + Frames.roomJson("r2") + "]}"));
    List<Room> rooms = Await.value(client.listRooms());
    assertEquals(Arrays.asList("r1", "r2"), Arrays.asList(rooms.get(0).id(), rooms.get(1).id()));
    RecordedRequest request = gateway.takeRest();
    assertEquals("GET", request.getMethod());
    assertEquals("/v1/chat/rooms", request.getPath());
    assertEquals("Bearer good-jwt", request.getHeader("Authorization"));
  }

  @Test
  void restWorksWithoutALiveSocket() throws Exception {
    connect();
    Await.value(client.disconnect());
    gateway.enqueueRest(json(200, "{\"rooms\":[]}"));
    assertTrue(Await.value(client.listRooms()).isEmpty());
  }

  @Test
  void getMessagesSendsTheQuery() throws Exception {
    connect();
    String page = "{\"messages\":[" + Frames.messageJson("m1", "r 1", 1, "a") + "],\"hasMore\":true}";
    gateway.enqueueRest(json(200, page));
    gateway.enqueueRest(json(200, page));
    gateway.enqueueRest(json(200, page));
    MessagePage p = Await.value(client.getMessages("r 1"));
    assertTrue(p.hasMore());
    assertEquals("m1", p.messages().get(0).id());
    assertEquals("/v1/chat/rooms/r%201/messages?limit=50", gateway.takeRest().getPath());
    Await.value(client.getMessages("r 1", MessageQuery.before(10, 20)));
    assertEquals("/v1/chat/rooms/r%201/messages?limit=20&before=10", gateway.takeRest().getPath());
    Await.value(client.getMessages("r 1", MessageQuery.after(3, 100)));
    assertEquals("/v1/chat/rooms/r%201/messages?limit=100&after=3", gateway.takeRest().getPath());
    assertThrows(IllegalArgumentException.class, () -> MessageQuery.latest(0));
    assertThrows(IllegalArgumentException.class, () -> MessageQuery.after(1, 101));
  }

  @Test
  void errorBodiesBecomeApiExceptions() throws Exception {
    connect();
    gateway.enqueueRest(json(403, "{\"error\":{\"code\":\"forbidden\",\"message\":\"Cannot act as another user\"}}"));
    ApiException e = Await.failure(client.sendText("r1", "hi"), ApiException.class);
    assertEquals(403, e.status());
    assertEquals("forbidden", e.code());
    assertEquals("Cannot act as another user", e.getMessage());

    gateway.enqueueRest(new MockResponse().setResponseCode(502).setBody("<html>bad gateway</html>"));
    ApiException html = Await.failure(client.listRooms(), ApiException.class);
    assertEquals(502, html.status());
    assertEquals("http_502", html.code());

    gateway.enqueueRest(json(401, "{\"error\":{\"code\":\"token_expired\",\"message\":\"expired\"}}"));
    assertTrue(Await.failure(client.listRooms(), ApiException.class).isTokenExpired());
  }

  @Test
  void sendMessageMakesAUuidAndReusesItOnRetry() throws Exception {
    connect();
    gateway.enqueueRest(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST));
    gateway.enqueueRest(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST));
    gateway.enqueueRest(json(201, Frames.messageJson("m1", "r1", 1, "hi")));
    Message sent = Await.value(client.sendText("r1", "hi"));
    assertEquals("m1", sent.id());
    String first = clientMessageId(gateway.takeRest());
    assertEquals(first, UUID.fromString(first).toString());
    String second = clientMessageId(gateway.takeRest());
    String third = clientMessageId(gateway.takeRest());
    assertEquals(first, second);
    assertEquals(first, third);
  }

  @Test
  void sendMessageUsesTheGivenIdAndParts() throws Exception {
    connect();
    gateway.enqueueRest(json(200, Frames.messageJson("m1", "r1", 1, "hi")));
    MessagePart custom = MessagePart.builder("image").rawField("url", "\"https://x/y.png\"").build();
    Await.value(client.sendMessage("r1", Arrays.asList(MessagePart.text("hi"), custom), "cmid-1"));
    RecordedRequest request = gateway.takeRest();
    assertEquals("POST", request.getMethod());
    assertEquals("/v1/chat/rooms/r1/messages", request.getPath());
    assertEquals("{\"parts\":[{\"type\":\"text\",\"text\":\"hi\"},{\"type\":\"image\",\"url\":\"https://x/y.png\"}],"
        + "\"clientMessageId\":\"cmid-1\",\"senderId\":\"" + client.userId() + "\"}", request.getBody().readUtf8());
    assertTrue(request.getHeader("Content-Type").startsWith("application/json"));
  }

  @Test
  void clientErrorsAreNotRetried() throws Exception {
    connect();
    gateway.enqueueRest(json(400, "{\"error\":{\"code\":\"bad_request\",\"message\":\"too long\"}}"));
    gateway.enqueueRest(json(201, Frames.messageJson("m1", "r1", 1, "hi")));
    assertEquals("bad_request", Await.failure(client.sendText("r1", "hi"), ApiException.class).code());
    gateway.takeRest();
    gateway.enqueueRest(json(200, "{\"rooms\":[]}"));
    Await.value(client.listRooms());
    assertEquals("/v1/chat/rooms", gateway.takeRest().getPath()); // the send was not repeated
  }

  @Test
  void sendInputsAreChecked() throws Exception {
    connect();
    assertThrows(IllegalArgumentException.class, () -> client.sendMessage("r1", List.of()));
    assertThrows(IllegalArgumentException.class, () -> client.sendMessage("r1", List.of(MessagePart.text("a")), ""));
    assertThrows(IllegalArgumentException.class,
        () -> client.sendMessage("r1", List.of(MessagePart.text("a")), "x".repeat(65)));
    assertThrows(IllegalArgumentException.class, () -> client.sendText("", "a"));
    assertThrows(NullPointerException.class, () -> client.sendText("r1", null));
  }

  @Test
  void restFuturesCompleteOnTheCallbackExecutor() throws Exception {
    connect();
    gateway.enqueueRest(json(200, "{\"rooms\":[]}"));
    executor.hold();
    CompletableFuture<String> thread = client.listRooms().thenApply(r -> Thread.currentThread().getName());
    executor.release();
    assertEquals("test-callbacks-1", Await.value(thread));
  }

  private static String clientMessageId(RecordedRequest request) {
    Matcher m = CLIENT_MESSAGE_ID.matcher(request.getBody().readUtf8());
    assertTrue(m.find());
    return m.group(1);
  }
}
