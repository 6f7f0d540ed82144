package dev.svc.chat.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatClient;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** searchStored on a client: what a connected client stored is found after a restart with the service gone. */
class SearchStoredClientTest {
  @TempDir File dir;

  private static MockResponse answer(RecordedRequest request) {
    String path = request.getRequestUrl().encodedPath();
    if (path.equals("/v1/chat/rooms")) {
      return json("{\"rooms\":[{\"id\":\"r1\",\"name\":\"General\",\"memberIds\":[\"alice\",\"bob\"],"
          + "\"createdAt\":\"2026-11-21T09:00:00.000Z\",\"lastMessageSeq\":2,"
          + "\"lastMessageAt\":\"2026-11-21T10:00:00.000Z\",\"rev\":2}]}");
    }
    if (path.equals("/v1/chat/rooms/r1/messages")) {
      return json("{\"messages\":[" + Frames.messageJson("m1", "r1", 1, "the Café opens at nine") + ","
          + Frames.messageJson("m2", "r1", 2, "see you there") + "],\"hasMore\":false}");
    }
    if (path.equals("/v1/chat/rooms/r1/changes")) return json("{\"messages\":[],\"rev\":2,\"hasMore\":false}");
    if (path.equals("/v1/chat/rooms/r1/receipts")) return json("{\"receipts\":[]}");
    return new MockResponse().setResponseCode(404).setBody("{\"error\":{\"code\":\"not_found\",\"message\":\"no\"}}");
  }

  private static MockResponse json(String body) {
    return new MockResponse().setHeader("Content-Type", "application/json").setBody(body);
  }

  @Test
  void aStoredMessageIsFoundWithTheServiceStopped() throws Exception {
    FakeGateway gateway = new FakeGateway();
    gateway.rest = SearchStoredClientTest::answer;
    ChatClient first = Svc.init(SvcOptions.builder(gateway.apiUrl()).store(SqliteChatStore.provider(dir)).build());
    try {
      first.connect("alice", "good-jwt");
      gateway.nextSession().awaitConnect();
      Await.value(first.getMessages("r1", MessageQuery.latest(2)));
      Await.until("the page was stored and indexed",
          () -> first.searchStored(SearchQuery.of("cafe")).join().results().size() == 1);
    } finally {
      first.close();
      gateway.close();
    }

    ChatClient offline = Svc.init(SvcOptions.builder(gateway.apiUrl()).store(SqliteChatStore.provider(dir)).build());
    try {
      Await.value(offline.openOffline("alice"));
      SearchPage page = Await.value(offline.searchStored(SearchQuery.of("café open*")));
      assertTrue(page.fromStore());
      assertEquals(1, page.results().size());
      assertEquals("m1", page.results().get(0).message().id());
      assertEquals("the \u0001Café\u0002 \u0001opens\u0002 at nine", page.results().get(0).snippet());
      ApiException refused = Await.failure(offline.searchStored(SearchQuery.of("\"*\"")), ApiException.class);
      assertEquals("bad_request", refused.code());
    } finally {
      offline.close();
    }
  }
}
