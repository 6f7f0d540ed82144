package dev.svc.chat.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.File;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import okhttp3.HttpUrl;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client on a SQLite store, restarted: an edit the app saw only in a page ({@code getMessages}), never as an
 * event, reaches it as {@code MESSAGE_UPDATED} after the restart, when recovery reads the room's changes.
 */
class KeptPageRestartTest {
  @TempDir File dir;
  private final FakeGateway gateway;
  /** The room's revision as the service lists it: 2 at the first start, 3 once bob edited message 1. */
  private volatile long rev = 2;

  KeptPageRestartTest() throws Exception {
    gateway = new FakeGateway();
    gateway.rest = this::answer;
  }

  @AfterEach
  void tearDown() throws Exception {
    gateway.close();
  }

  private MockResponse answer(RecordedRequest request) {
    HttpUrl url = request.getRequestUrl();
    String path = url.encodedPath();
    if (path.equals("/v1/chat/rooms")) {
      return json("{\"rooms\":[{\"id\":\"r1\",\"name\":\"General\",\"memberIds\":[\"alice\",\"bob\"],"
          + "\"createdAt\":\"2026-11-21T09:00:00.000Z\",\"lastMessageSeq\":2,"
          + "\"lastMessageAt\":\"2026-11-21T10:00:00.000Z\",\"rev\":" + rev + "}]}");
    }
    if (path.equals("/v1/chat/rooms/r1/messages")) {
      if (url.queryParameter("after") != null) return json("{\"messages\":[],\"hasMore\":false}");
      return json("{\"messages\":[" + edited() + "," + Frames.messageJson("m2", "r1", 2, "two")
          + "],\"hasMore\":false}");
    }
    if (path.equals("/v1/chat/rooms/r1/changes")) {
      long since = Long.parseLong(url.queryParameter("since"));
      String changes = since < 3 && rev >= 3 ? edited() : "";
      return json("{\"messages\":[" + changes + "],\"rev\":" + rev + ",\"hasMore\":false}");
    }
    if (path.equals("/v1/chat/rooms/r1/receipts")) return json("{\"receipts\":[]}");
    return new MockResponse().setResponseCode(404).setBody("{\"error\":{\"code\":\"not_found\",\"message\":\"no\"}}");
  }

  /** Message 1 as bob edited it: revision 3. */
  private static String edited() {
    return Frames.messageJson("m1", "r1", 1, 3, "one, edited");
  }

  private static MockResponse json(String body) {
    return new MockResponse().setHeader("Content-Type", "application/json").setBody(body);
  }

  /** Returns a room's stored seq watermark (-1: none yet), read beside the open store as WAL allows. */
  private long seqWatermark(String roomId) {
    File file = SqliteChatStore.provider(dir).file("alice");
    if (!file.exists()) return -1;
    try (java.sql.Connection c = Fixtures.connect(file);
        java.sql.PreparedStatement p = c.prepareStatement("SELECT seq_watermark FROM rooms WHERE id = ?")) {
      p.setString(1, roomId);
      try (java.sql.ResultSet rs = p.executeQuery()) {
        return rs.next() ? rs.getLong(1) : -1;
      }
    } catch (java.sql.SQLException e) {
      return -1; // not created yet
    }
  }

  private ChatClient client(BlockingQueue<Message> updates) {
    ChatClient client = Svc.init(SvcOptions.builder(gateway.apiUrl()).store(SqliteChatStore.provider(dir)).build());
    client.on(EventType.MESSAGE_UPDATED, updates::add);
    return client;
  }

  @Test
  void anEditSeenOnlyInAPageArrivesAsAnEventAfterARestart() throws Exception {
    BlockingQueue<Message> updates = new LinkedBlockingQueue<>();
    ChatClient first = client(updates);
    first.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    Await.until("the first listing placed the room (its watermarks stored)",
        () -> seqWatermark("r1") >= 0);
    rev = 3; // bob edits message 1; its live event never reaches this client
    MessagePage page = Await.value(first.getMessages("r1", MessageQuery.latest(2)));
    assertEquals(3, page.messages().get(0).rev(), "the app saw the edit in the page");
    first.close(); // the page is kept in the store before the close returns

    ChatClient restarted = client(updates);
    try {
      restarted.connect("alice", "good-jwt");
      gateway.nextSession().awaitConnect();
      Message update = updates.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      assertNotNull(update, "the edit never arrived as MESSAGE_UPDATED after the restart");
      assertEquals("m1", update.id());
      assertEquals(3, update.rev());
    } finally {
      restarted.close();
    }
  }
}
