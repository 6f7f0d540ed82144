package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;

import com.squareup.moshi.JsonDataException;
import dev.svc.chat.Message;
import dev.svc.chat.ThreadSummary;
import org.junit.jupiter.api.Test;

/** Section 10's fields of a Message: read as the server writes them, by both readers alike, and written back. */
class ThreadFieldsJsonTest {
  private static final String BASE = "\"id\":\"m2\",\"roomId\":\"r1\",\"seq\":7,\"rev\":9,\"senderId\":\"bob\","
      + "\"parts\":[{\"type\":\"text\",\"text\":\"hi @amy\"}],\"clientMessageId\":\"c1\","
      + "\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"reactions\":{}";

  private static Message adapter(String json) throws Exception {
    return MessageJsonAdapter.INSTANCE.fromJson(Json.reader(json));
  }

  private static Message fast(String json) {
    String frame = "42[\"new-message\"," + json + "]";
    return FastMessageReader.read(frame, frame.indexOf('{'));
  }

  @Test
  void aReplyInAThreadWithMentionsReadsAlikeByBothReaders() throws Exception {
    String json = "{" + BASE + ",\"replyToId\":\"m1\",\"threadId\":\"m0\",\"mentions\":[\"amy\",\"cy\"]}";
    Message m = adapter(json);
    assertEquals("m1", m.replyToId());
    assertEquals("m0", m.threadId());
    assertTrue(m.links().isThreadReply());
    assertEquals(Arrays.asList("amy", "cy"), m.mentions());
    assertNull(m.thread());
    assertEquals(m, fast(json));
    assertEquals(m, adapter(Json.write(MessageJsonAdapter.INSTANCE, m)), "written and read back");
  }

  @Test
  void theServersPlainMessageHasNullLinksAndNoMentions() throws Exception {
    String json = "{" + BASE + ",\"replyToId\":null,\"threadId\":null,\"mentions\":[]}";
    Message m = adapter(json);
    assertNull(m.replyToId());
    assertNull(m.threadId());
    assertTrue(m.mentions().isEmpty());
    Message fast = fast(json);
    assertNotNull(fast, "the commonest message stays on the fast path");
    assertEquals(m, fast);
    assertEquals(adapter("{" + BASE + "}"), m, "absent fields read as null and empty");
    String written = Json.write(MessageJsonAdapter.INSTANCE, m);
    assertTrue(!written.contains("replyToId") && !written.contains("mentions"), written);
  }

  @Test
  void aRootsSummaryIsReadAndWrittenBackEqual() throws Exception {
    String json = "{" + BASE + ",\"replyToId\":null,\"threadId\":null,\"mentions\":[],\"thread\":{\"replyCount\":3,"
        + "\"lastReplyAt\":\"2026-11-21T10:05:00.000Z\",\"participantIds\":[\"cy\",\"amy\"]}}";
    Message root = adapter(json);
    ThreadSummary t = root.thread();
    assertNotNull(t);
    assertEquals(3, t.replyCount());
    assertEquals(Long.valueOf(1795255500000L), t.lastReplyAt());
    assertEquals(Arrays.asList("cy", "amy"), t.participantIds());
    assertNull(fast(json), "a summary is left to the adapter");
    String written = Json.write(MessageJsonAdapter.INSTANCE, root);
    assertEquals(root, adapter(written));
    assertEquals(root, dev.svc.chat.internal.json.MessageJsonAdapter.INSTANCE.fromJson(Json.reader(written)));
    // a deleted root keeps its summary; one whose replies were all deleted has an empty one
    String deleted = "{" + BASE.replace("\"parts\":[{\"type\":\"text\",\"text\":\"hi @amy\"}]", "\"parts\":[]")
        + ",\"deletedAt\":\"2026-11-21T10:06:00.000Z\",\"thread\":{\"replyCount\":0,\"lastReplyAt\":null,"
        + "\"participantIds\":[]}}";
    Message tomb = adapter(deleted);
    assertTrue(tomb.isDeleted());
    assertEquals(ThreadSummary.of(0, null, Collections.<String>emptyList()), tomb.thread());
    assertEquals(tomb, adapter(Json.write(MessageJsonAdapter.INSTANCE, tomb)));
  }

  @Test
  void aFastReaderReusedAfterAReplyForgetsItsLinks() throws Exception {
    FastMessageReader reader = new FastMessageReader();
    String reply = "{" + BASE + ",\"replyToId\":\"m1\",\"threadId\":\"m0\",\"mentions\":[\"amy\"]}";
    String plain = "{" + BASE + "}";
    assertEquals(adapter(reply), reader.readWhole(reply));
    Message next = reader.readWhole(plain);
    assertEquals(adapter(plain), next);
    assertNull(next.threadId());
    assertTrue(next.mentions().isEmpty());
  }

  @Test
  void badSummariesAndLinksAreRefused() {
    assertThrows(JsonDataException.class, () -> adapter("{" + BASE + ",\"thread\":{\"replyCount\":-1}}"));
    assertThrows(JsonDataException.class, () -> adapter("{" + BASE + ",\"thread\":{\"lastReplyAt\":null}}"));
    assertThrows(JsonDataException.class, () -> adapter("{" + BASE + ",\"thread\":[]}"));
    assertThrows(JsonDataException.class, () -> adapter("{" + BASE + ",\"threadId\":\"\"}"));
    assertThrows(JsonDataException.class, () -> adapter("{" + BASE + ",\"mentions\":\"amy\"}"));
    assertNull(fast("{" + BASE + ",\"threadId\":\"\"}"), "left to the adapter, which says what is wrong");
  }
}
