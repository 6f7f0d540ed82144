package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatedExecutor;
import dev.svc.chat.testing.RecordingLogger;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** getChanges, getReceipts and the Retry-After of refusals, against scripted MockWebServer answers. */
class RecoveryRestTest {
  private FakeGateway gateway;
  private GatedExecutor executor;
  private ChatClient client;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    executor = new GatedExecutor(1);
    client = Svc.init(SvcOptions.builder(gateway.apiUrl() + "/").recoverMissedEvents(false).callbackExecutor(executor)
        .logger(new RecordingLogger()).build());
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    Await.value(connected);
  }

  @AfterEach
  void tearDown() throws Exception {
    client.close();
    gateway.close();
    executor.close();
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json").setBody(body);
  }

  @Test
  void getChangesSendsSinceAndLimitAndReadsThePage() throws Exception {
    String page = "{\"messages\":[" + Frames.messageJson("m1", "r 1", 1, 4, "a") + ","
        + Frames.messageJson("m3", "r 1", 3, 6, "c") + "],\"rev\":9,\"hasMore\":true}";
    gateway.enqueueRest(json(200, page));
    gateway.enqueueRest(json(200, "{\"messages\":[],\"rev\":9,\"hasMore\":false}"));
    ChangesPage p = Await.value(client.getChanges("r 1", 3));
    RecordedRequest request = gateway.takeRest();
    assertEquals("GET", request.getMethod());
    assertEquals("/v1/chat/rooms/r%201/changes?since=3&limit=100", request.getPath());
    assertEquals("Bearer good-jwt", request.getHeader("Authorization"));
    assertEquals(9, p.rev());
    assertTrue(p.hasMore());
    assertEquals(2, p.messages().size());
    assertEquals(4, p.messages().get(0).rev());
    assertEquals("m3", p.messages().get(1).id());
    assertEquals(6, p.messages().get(1).rev());

    ChangesPage last = Await.value(client.getChanges("r 1", 6, 1));
    assertEquals("/v1/chat/rooms/r%201/changes?since=6&limit=1", gateway.takeRest().getPath());
    assertFalse(last.hasMore());
    assertTrue(last.messages().isEmpty());
  }

  @Test
  void getChangesChecksItsInputsBeforeAnyRequest() throws Exception {
    IllegalArgumentException since = assertThrows(IllegalArgumentException.class, () -> client.getChanges("r", -1));
    assertTrue(since.getMessage().contains("since"), since.getMessage());
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> client.getChanges("r", 0, 0));
    assertTrue(zero.getMessage().contains("limit must be 1 to 100"), zero.getMessage());
    assertThrows(IllegalArgumentException.class, () -> client.getChanges("r", 0, 101));
    assertThrows(IllegalArgumentException.class, () -> client.getChanges("", 0));
    assertThrows(NullPointerException.class, () -> client.getReceipts(null));
    gateway.enqueueRest(json(200, "{\"messages\":[],\"rev\":0,\"hasMore\":false}"));
    Await.value(client.getChanges("r", 0, 100));
    assertEquals("/v1/chat/rooms/r/changes?since=0&limit=100", gateway.takeRest().getPath(),
        "the refused calls sent nothing");
  }

  @Test
  void getChangesRefusalsAndMalformedAnswers() throws Exception {
    gateway.enqueueRest(json(403, "{\"error\":{\"code\":\"forbidden\",\"message\":\"Not a member of this room\"}}"));
    ApiException e = Await.failure(client.getChanges("r", 0), ApiException.class);
    assertEquals(403, e.status());
    assertEquals("forbidden", e.code());
    assertEquals(-1, e.retryAfterMillis());
    gateway.enqueueRest(json(200, "{\"messages\":[],\"hasMore\":false}"));
    ChatException malformed = Await.failure(client.getChanges("r", 0), ChatException.class);
    assertTrue(malformed.getMessage().contains("malformed answer"), malformed.getMessage());
  }

  @Test
  void getReceiptsReadsEveryReceipt() throws Exception {
    gateway.enqueueRest(json(200, "{\"receipts\":["
        + "{\"roomId\":\"r1\",\"userId\":\"alice\",\"messageId\":\"m1\",\"seq\":1,\"readAt\":\"2026-11-21T10:00:00.000Z\"},"
        + "{\"roomId\":\"r1\",\"userId\":\"bob\",\"messageId\":\"m2\",\"seq\":2,\"readAt\":\"2026-11-21T10:00:01.000Z\"}]}"));
    List<Receipt> receipts = Await.value(client.getReceipts("r1"));
    RecordedRequest request = gateway.takeRest();
    assertEquals("GET", request.getMethod());
    assertEquals("/v1/chat/rooms/r1/receipts", request.getPath());
    assertEquals(2, receipts.size());
    assertEquals("alice", receipts.get(0).userId());
    assertEquals("m2", receipts.get(1).messageId());
    assertEquals(2, receipts.get(1).seq());
    assertThrows(UnsupportedOperationException.class, () -> receipts.clear());
  }

  @Test
  void retryAfterInSecondsIsExposedInMilliseconds() throws Exception {
    gateway.enqueueRest(json(429, "{\"error\":{\"code\":\"rate_limited\",\"message\":\"Too many sends\"}}")
        .setHeader("Retry-After", "2"));
    // (a send would be retried by the outbox after Retry-After: any other call shows the header)
    ApiException e = Await.failure(client.getReceipts("r1"), ApiException.class);
    assertEquals(429, e.status());
    assertEquals("rate_limited", e.code());
    assertEquals(2000, e.retryAfterMillis());
    assertTrue(e.toString().contains("retryAfterMillis=2000"), e.toString());

    // (A 503 with Retry-After 0 is not used here: OkHttp itself repeats that request once.)
    gateway.enqueueRest(new MockResponse().setResponseCode(503).setHeader("Retry-After", "120").setBody("down"));
    ApiException unavailable = Await.failure(client.listRooms(), ApiException.class);
    assertEquals("http_503", unavailable.code());
    assertEquals(120_000, unavailable.retryAfterMillis());

    gateway.enqueueRest(json(429, "{\"error\":{\"code\":\"rate_limited\",\"message\":\"x\"}}")
        .setHeader("Retry-After", " 0 "));
    assertEquals(0, Await.failure(client.listRooms(), ApiException.class).retryAfterMillis());
    gateway.enqueueRest(json(429, "{\"error\":{\"code\":\"rate_limited\",\"message\":\"x\"}}")
        .setHeader("Retry-After", "99999999999999999999999"));
    assertEquals(Long.MAX_VALUE / 1000 * 1000, Await.failure(client.listRooms(), ApiException.class)
        .retryAfterMillis(), "capped, never overflowing");
  }

  @Test
  void retryAfterAsAnHttpDateIsMeasuredFromTheAnswersDate() throws Exception {
    gateway.enqueueRest(json(429, "{\"error\":{\"code\":\"rate_limited\",\"message\":\"slow down\"}}")
        .setHeader("Date", "Sun, 22 Nov 2026 10:00:00 GMT")
        .setHeader("Retry-After", "Sun, 22 Nov 2026 10:00:30 GMT"));
    assertEquals(30_000, Await.failure(client.listRooms(), ApiException.class).retryAfterMillis());
    gateway.enqueueRest(json(429, "{\"error\":{\"code\":\"rate_limited\",\"message\":\"slow down\"}}")
        .setHeader("Date", "Sun, 22 Nov 2026 10:00:00 GMT")
        .setHeader("Retry-After", "Sun, 22 Nov 2026 09:59:00 GMT"));
    assertEquals(0, Await.failure(client.listRooms(), ApiException.class).retryAfterMillis(), "a past date");
  }

  @Test
  void noOrInvalidRetryAfterIsMinusOne() throws Exception {
    for (String value : new String[] {null, "", "soon", "-1", "1.5"}) {
      MockResponse answer = json(429, "{\"error\":{\"code\":\"rate_limited\",\"message\":\"x\"}}");
      if (value != null) answer.setHeader("Retry-After", value);
      gateway.enqueueRest(answer);
      ApiException e = Await.failure(client.listRooms(), ApiException.class);
      assertEquals(-1, e.retryAfterMillis(), String.valueOf(value));
      assertFalse(e.toString().contains("retryAfterMillis"), e.toString());
    }
    assertEquals(-1, new ApiException(404, "not_found", "x").retryAfterMillis());
    assertThrows(IllegalArgumentException.class, () -> new ApiException(429, "rate_limited", "x", -2));
  }
}
