package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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

/** searchMessages: the request, the page read back, the snippet's ranges and the query's checks. */
class SearchRestTest {
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
  void sendsTheQueryAndReadsThePage() throws Exception {
    gateway.enqueueRest(json(200, "{\"results\":[{\"message\":" + Frames.messageJson("m2", "r1", 2, 2, "bob")
        + ",\"snippet\":\"the \\u0001café\\u0002 opens\",\"extra\":1}],\"nextCursor\":\"abc_-1\"}"));
    SearchPage page = Await.value(client.searchMessages(SearchQuery.of("café \"opens at\" x*").room("r 1")
        .sender("bob").limit(1)));
    RecordedRequest request = gateway.takeRest();
    assertEquals("GET", request.getMethod());
    assertEquals("/v1/search/messages?q=caf%C3%A9%20%22opens%20at%22%20x*&limit=1&roomId=r%201&senderId=bob",
        request.getPath());
    assertEquals("Bearer good-jwt", request.getHeader("Authorization"));
    assertEquals("abc_-1", page.nextCursor());
    SearchResult result = page.results().get(0);
    assertEquals("m2", result.message().id());
    assertEquals("the \u0001café\u0002 opens", result.snippet());
    assertEquals("the café opens", result.plainSnippet());
    assertEquals(1, result.highlights().size());
    assertArrayEquals(new int[] {4, 8}, result.highlights().get(0));

    gateway.enqueueRest(json(200, "{\"results\":[]}"));
    SearchPage last = Await.value(client.searchMessages(SearchQuery.of("x").thread("m1").after("abc_-1")));
    assertEquals("/v1/search/messages?q=x&limit=20&threadId=m1&cursor=abc_-1", gateway.takeRest().getPath());
    assertTrue(last.results().isEmpty());
    assertNull(last.nextCursor());
  }

  @Test
  void theServicesPageIsNotFromTheStoreAndWithoutAStoreSearchStoredFails() throws Exception {
    gateway.enqueueRest(json(200, "{\"results\":[]}"));
    assertFalse(Await.value(client.searchMessages(SearchQuery.of("x"))).fromStore());
    Await.failure(client.searchStored(SearchQuery.of("x")), ChatStateException.class);
  }

  @Test
  void refusalsFailTheFuture() throws Exception {
    gateway.enqueueRest(json(400, "{\"error\":{\"code\":\"bad_request\",\"message\":\"q has no word to search for\"}}"));
    ApiException refused = Await.failure(client.searchMessages(SearchQuery.of("\"")), ApiException.class);
    assertEquals(400, refused.status());
    assertEquals("bad_request", refused.code());
  }

  @Test
  void theQueryIsCheckedWhereItIsMade() {
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of(""));
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of("   "));
    assertThrows(NullPointerException.class, () -> SearchQuery.of(null));
    StringBuilder max = new StringBuilder();
    for (int i = 0; i < 200; i++) max.appendCodePoint(0x1F600);
    assertEquals(200, SearchQuery.of(max.toString()).text().codePointCount(0, 400));
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of(max + "x"));
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of("x").limit(0));
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of("x").limit(51));
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of("x").room(""));
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of("x").after(""));
    assertThrows(IllegalArgumentException.class, () -> SearchQuery.of("x").thread(""));
    assertEquals("m1", SearchQuery.of("x").thread("m1").limit(5).threadId());
    assertTrue(!SearchQuery.of("x").thread("m1").equals(SearchQuery.of("x")));
    assertThrows(NullPointerException.class, () -> client.searchMessages(null));
    assertEquals(SearchQuery.of("x").limit(5), SearchQuery.of("x").limit(5));
  }

  @Test
  void highlightsIgnoreUnpairedMarks() throws Exception {
    SearchResult result = new SearchResult(dummy(), "\u0002a \u0001b\u0002 \u0001c");
    assertEquals("a b c", result.plainSnippet());
    List<int[]> ranges = result.highlights();
    assertEquals(1, ranges.size());
    assertArrayEquals(new int[] {2, 3}, ranges.get(0));
  }

  private Message dummy() throws Exception {
    gateway.enqueueRest(json(200, "{\"results\":[{\"message\":" + Frames.messageJson("m1", "r1", 1, 1, "a")
        + ",\"snippet\":\"\"}]}"));
    SearchPage page = Await.value(client.searchMessages(SearchQuery.of("x")));
    return page.results().get(0).message();
  }
}
