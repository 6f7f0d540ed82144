package dev.svc.chat.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ChatClient;
import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.RoomList;
import dev.svc.chat.Subscription;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client with a store closed while a read and a send wait for the network: both are kept for the next start, so
 * their futures complete as kept (a pending receipt, a pending message), not as failures.
 */
class ClosedWithKeptWorkTest {
  @TempDir File dir;
  private final FakeGateway gateway;
  private volatile boolean offline;

  ClosedWithKeptWorkTest() throws Exception {
    gateway = new FakeGateway();
    gateway.rest = this::answer;
  }

  @AfterEach
  void tearDown() throws Exception {
    gateway.close();
  }

  private MockResponse answer(RecordedRequest request) {
    String path = request.getRequestUrl().encodedPath();
    if (offline) return new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AT_START);
    if (path.equals("/v1/chat/rooms")) {
      return json("{\"rooms\":[{\"id\":\"r1\",\"name\":\"General\",\"memberIds\":[\"alice\",\"bob\"],"
          + "\"createdAt\":\"2026-11-21T09:00:00.000Z\",\"lastMessageSeq\":2,"
          + "\"lastMessageAt\":\"2026-11-21T10:00:00.000Z\",\"rev\":2}]}");
    }
    if (path.equals("/v1/chat/rooms/r1/messages")) {
      return json("{\"messages\":[" + Frames.messageJson("m1", "r1", 1, "one") + ","
          + Frames.messageJson("m2", "r1", 2, "two") + "],\"hasMore\":false}");
    }
    if (path.equals("/v1/chat/rooms/r1/changes")) return json("{\"messages\":[],\"rev\":2,\"hasMore\":false}");
    if (path.equals("/v1/chat/rooms/r1/receipts")) return json("{\"receipts\":[]}");
    return new MockResponse().setResponseCode(404).setBody("{\"error\":{\"code\":\"not_found\",\"message\":\"no\"}}");
  }

  private static MockResponse json(String body) {
    return new MockResponse().setHeader("Content-Type", "application/json").setBody(body);
  }

  @Test
  void aReadAndASendKeptByTheStoreCompleteAsKeptWhenTheClientCloses() throws Exception {
    ChatClient client = Svc.init(SvcOptions.builder(gateway.apiUrl()).store(SqliteChatStore.provider(dir)).build());
    java.util.concurrent.atomic.AtomicReference<RoomList> list = new java.util.concurrent.atomic.AtomicReference<>();
    Subscription rooms = client.roomList(list::set);
    client.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    Await.until("two unread in r1", () -> list.get() != null && list.get().room("r1") != null
        && list.get().room("r1").unreadCount() == 2);
    Await.value(client.disconnect());
    offline = true;
    CompletableFuture<Receipt> read = client.markRead("r1", "m2");
    CompletableFuture<Message> sent = client.sendText("r1", "later");
    Await.until("the send is kept", () -> !client.pendingSends().isEmpty());
    Await.until("the read is kept by the store", () -> pendingReads() == 1);
    rooms.remove();
    client.close();
    Receipt kept = Await.value(read);
    assertTrue(kept.pending(), kept.toString());
    assertEquals("m2", kept.messageId());
    assertEquals(2, kept.seq());
    Message pending = Await.value(sent);
    assertEquals(0, pending.seq(), "the pending message: " + pending);
    assertEquals("later", pending.text());
    assertFalse(pending.id().isEmpty());
  }

  /** Returns how many reads the store keeps for the service, read beside the open store as WAL allows. */
  private long pendingReads() {
    File file = SqliteChatStore.provider(dir).file("alice");
    if (!file.exists()) return 0;
    try (java.sql.Connection c = Fixtures.connect(file);
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM pending_reads")) {
      return rs.next() ? rs.getLong(1) : 0;
    } catch (java.sql.SQLException e) {
      return 0; // not created yet
    }
  }
}
