package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatedExecutor;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The section 10 calls against scripted answers: what goes on the wire, and what the SDK refuses itself. */
class ThreadsRestTest {
  private static final List<MessagePart> HI = Collections.singletonList(MessagePart.text("hi"));

  private FakeGateway gateway;
  private GatedExecutor executor;
  private ChatClient client;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    executor = new GatedExecutor(1);
    client = Svc.init(SvcOptions.builder(gateway.apiUrl() + "/").recoverMissedEvents(false).socketSends(false)
        .callbackExecutor(executor).build());
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
  void aThreadReplyCarriesItsLinksAndMentions() throws Exception {
    gateway.enqueueRest(json(201, Frames.messageJson("m2", "r1", 2, "hi")));
    SendOptions options = SendOptions.builder().clientMessageId("c-2").replyToId("m0").threadId("m1")
        .mentions(Arrays.asList("bob", "carol", "bob")).build();
    Await.value(client.sendMessage("r1", HI, options));
    RecordedRequest request = gateway.takeRest();
    assertEquals("/v1/chat/rooms/r1/messages", request.getPath());
    assertEquals("{\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}],\"clientMessageId\":\"c-2\",\"senderId\":\"alice\","
        + "\"replyToId\":\"m0\",\"threadId\":\"m1\",\"mentions\":[\"bob\",\"carol\"]}", request.getBody().readUtf8());
  }

  @Test
  void aPlainSendKeepsItsBodyAsBefore() throws Exception {
    gateway.enqueueRest(json(201, Frames.messageJson("m2", "r1", 2, "hi")));
    Await.value(client.sendMessage("r1", HI, SendOptions.builder().clientMessageId("c-2").build()));
    assertEquals("{\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}],\"clientMessageId\":\"c-2\",\"senderId\":\"alice\"}",
        gateway.takeRest().getBody().readUtf8());
  }

  @Test
  void threadAndMainQueriesAndOneMessage() throws Exception {
    String page = "{\"messages\":[],\"hasMore\":false}";
    gateway.enqueueRest(json(200, page));
    gateway.enqueueRest(json(200, page));
    gateway.enqueueRest(json(200, Frames.messageJson("m1", "r1", 1, "root")));
    Await.value(client.getMessages("r1", MessageQuery.before(30, 20).inThread("m 1")));
    assertEquals("/v1/chat/rooms/r1/messages?limit=20&before=30&threadId=m%201", gateway.takeRest().getPath());
    Await.value(client.getMessages("r1", MessageQuery.latest(10).mainTimeline()));
    assertEquals("/v1/chat/rooms/r1/messages?limit=10&mainOnly=true", gateway.takeRest().getPath());
    assertEquals("m1", Await.value(client.getMessage("r1", "m1")).id());
    RecordedRequest get = gateway.takeRest();
    assertEquals("GET", get.getMethod());
    assertEquals("/v1/chat/rooms/r1/messages/m1", get.getPath());
    assertThrows(IllegalArgumentException.class, () -> MessageQuery.latest(5).inThread("m1").mainTimeline());
    assertThrows(IllegalArgumentException.class, () -> MessageQuery.latest(5).inThread(""));
  }

  @Test
  void anEditMayReplaceTheMentions() throws Exception {
    gateway.enqueueRest(json(200, Frames.messageJson("m1", "r1", 1, "hi")));
    gateway.enqueueRest(json(200, Frames.messageJson("m1", "r1", 1, "hi")));
    Await.value(client.updateMessage("r1", "m1", HI, Arrays.asList("bob", "bob")));
    assertEquals("{\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}],\"mentions\":[\"bob\"]}",
        gateway.takeRest().getBody().readUtf8());
    Await.value(client.updateMessage("r1", "m1", HI));
    assertEquals("{\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}]}", gateway.takeRest().getBody().readUtf8());
  }

  @Test
  void tooManyMentionsAreRefusedBeforeTheWire() {
    List<String> many = new java.util.ArrayList<>();
    for (int i = 0; i < SendOptions.MAX_MENTIONS; i++) many.add("u" + i);
    assertEquals(20, SendOptions.builder().mentions(many).build().mentions().size());
    many.add("u" + many.size());
    assertThrows(IllegalArgumentException.class, () -> SendOptions.builder().mentions(many));
    assertThrows(IllegalArgumentException.class, () -> client.updateMessage("r1", "m1", HI, many));
    assertThrows(IllegalArgumentException.class,
        () -> SendOptions.builder().mentions(Collections.singletonList("not a user id")));
    assertThrows(IllegalArgumentException.class, () -> SendOptions.builder().threadId(""));
    assertFalse(SendOptions.NONE.equals(SendOptions.inThread("m1")));
    assertTrue(SendOptions.inThread("m1").equals(SendOptions.builder().threadId("m1").build()));
  }
}
