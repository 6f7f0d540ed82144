package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import org.junit.jupiter.api.Test;

/**
 * A message read from a String frame keeps its id, client message id and lone part in the frame until they are
 * asked for ({@link FrameFields}): it is still the value the adapter reads, whichever accessor comes first.
 */
class FrameFieldsTest {
  private static final String BASE = "\"id\":\"m1\",\"roomId\":\"r1\",\"seq\":7,\"senderId\":\"bob\","
      + "\"clientMessageId\":\"c1\",\"createdAt\":\"2026-11-21T10:00:00.000Z\"";

  private static Message fromString(String message) {
    String frame = "42[\"new-message\"," + message + "]";
    Message m = new FastMessageReader().readMessage(frame, frame.indexOf('{'));
    assertNotNull(m, message);
    return m;
  }

  /** The same message read from a frame that is not a String: every field made when it is read. */
  private static Message fromBuilder(String message) {
    StringBuilder frame = new StringBuilder("42[\"new-message\",").append(message).append(']');
    Message m = new FastMessageReader().readMessage(frame, frame.indexOf("{"));
    assertNotNull(m, message);
    return m;
  }

  @Test
  void aMessageKeptInItsFrameIsTheValueTheAdapterReads() throws Exception {
    String[] messages = {
        "{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"héllo 👋\"}],\"reactions\":{}}",
        "{" + BASE + ",\"parts\":[{\"type\":\"image\",\"text\":null}]}",
        "{" + BASE + ",\"parts\":[{\"type\":\"image\"}]}",
        "{" + BASE + ",\"parts\":[]}",
        "{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\"},{\"type\":\"text\","
            + "\"text\":\"c\"}]}",
        // a repeated field: the last one counts, kept or made
        "{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"a\"}],\"parts\":[{\"type\":\"text\",\"text\":\"b\"},"
            + "{\"type\":\"text\",\"text\":\"c\"}]}",
        "{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\"}],\"parts\":[{\"type\":"
            + "\"text\",\"text\":\"b\"}],\"id\":\"m2\",\"clientMessageId\":\"c2\"}",
    };
    for (String json : messages) {
      Message adapter = MessageJsonAdapter.INSTANCE.fromJson(Json.reader(json));
      // each accessor first, on a message of its own: what is made first changes nothing
      assertEquals(adapter.id(), fromString(json).id(), json);
      assertEquals(adapter.clientMessageId(), fromString(json).clientMessageId(), json);
      assertEquals(adapter.parts(), fromString(json).parts(), json);
      assertEquals(adapter.text(), fromString(json).text(), json);
      assertEquals(adapter.hashCode(), fromString(json).hashCode(), json);
      assertEquals(adapter.toString(), fromString(json).toString(), json);
      assertEquals(adapter, fromString(json), json);
      assertEquals(fromString(json), adapter, json);
      assertEquals(fromBuilder(json), fromString(json), json);
      assertEquals(adapter, fromString(json).newBuilder().build(), json);
      assertEquals(Json.write(MessageJsonAdapter.INSTANCE, adapter),
          Json.write(MessageJsonAdapter.INSTANCE, fromString(json)), json);
    }
  }

  @Test
  void theKeptFieldsAreMadeOnceAndTheirPartsCannotBeChanged() {
    Message m = fromString("{" + BASE + ",\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}]}");
    assertTrue(m.id() == m.id(), "the id is made once");
    assertTrue(m.clientMessageId() == m.clientMessageId());
    assertTrue(m.parts() == m.parts());
    assertEquals(MessagePart.text("hi"), m.parts().get(0));
    assertThrows(UnsupportedOperationException.class, () -> m.parts().add(MessagePart.text("x")));
    assertThrows(UnsupportedOperationException.class, () -> m.parts().clear());
  }

  @Test
  void threadsAskingAtOnceAllGetTheMessagesFields() throws Exception {
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 200; round++) {
        String json = "{\"id\":\"m" + round + "\",\"roomId\":\"r1\",\"seq\":7,\"senderId\":\"bob\",\"clientMessageId\":"
            + "\"c" + round + "\",\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"parts\":[{\"type\":\"text\",\"text\":"
            + "\"t" + round + "\"}]}";
        Message expected = MessageJsonAdapter.INSTANCE.fromJson(Json.reader(json));
        Message shared = fromString(json);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Message>> seen = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          final int first = t;
          seen.add(pool.submit(() -> {
            start.await();
            // each thread asks in another order, so each field may be made by any of them
            if (first % 2 == 0) {
              return Message.builder().id(shared.id()).clientMessageId(shared.clientMessageId()).parts(shared.parts())
                  .roomId(shared.roomId()).seq(shared.seq()).senderId(shared.senderId())
                  .createdAt(shared.createdAt()).build();
            }
            List<MessagePart> parts = shared.parts();
            String clientMessageId = shared.clientMessageId();
            return Message.builder().parts(parts).clientMessageId(clientMessageId).id(shared.id())
                .roomId(shared.roomId()).seq(shared.seq()).senderId(shared.senderId()).createdAt(shared.createdAt())
                .build();
          }));
        }
        start.countDown();
        for (Future<Message> f : seen) assertEquals(expected, f.get(10, TimeUnit.SECONDS), json);
        assertEquals(expected, shared);
      }
    } finally {
      pool.shutdownNow();
      assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void aStringWithAnEscapeOrAControlIsStillLeftToTheAdapter() {
    // the kept fields are checked whole when the frame is read, as those made then
    for (String bad : new String[] {"\"id\":\"m\\u0031\"", "\"clientMessageId\":\"c\u0001\"",
        "\"parts\":[{\"type\":\"text\",\"text\":\"a\\nb\"}]"}) {
      String json = "{" + BASE + ",\"parts\":[]," + bad + "}";
      String frame = "42[\"new-message\"," + json + "]";
      assertNull(new FastMessageReader().readMessage(frame, frame.indexOf('{')), bad);
    }
  }
}
