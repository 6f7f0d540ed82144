package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

class MessageLinksTest {
  private static final ThreadSummary SUMMARY = ThreadSummary.of(2, 5L, Arrays.asList("cy", "bob"));

  private static Message.Builder message() {
    return Message.builder().id("m").roomId("r").senderId("u").clientMessageId("c");
  }

  @Test
  void linksWithNothingSetAreNone() {
    assertSame(MessageLinks.none(), MessageLinks.builder().build());
    assertSame(MessageLinks.none(), MessageLinks.builder().mentions(Collections.<String>emptyList()).build());
    assertTrue(MessageLinks.none().isEmpty());
    assertFalse(MessageLinks.none().isThreadReply());
    assertEquals("MessageLinks{}", MessageLinks.none().toString());
    assertSame(MessageLinks.none(), message().build().links(), "a message built without links has none");
  }

  @Test
  void mentionsAreAnImmutableCopy() {
    List<String> users = new ArrayList<>(Arrays.asList("amy", "cy"));
    MessageLinks links = MessageLinks.builder().mentions(users).build();
    users.add("bob");
    assertEquals(Arrays.asList("amy", "cy"), links.mentions());
    assertThrows(UnsupportedOperationException.class, () -> links.mentions().add("bob"));
    assertThrows(NullPointerException.class, () -> MessageLinks.builder().mentions(Arrays.asList("amy", null)));
    assertThrows(NullPointerException.class, () -> message().links(null));
  }

  @Test
  void equalLinksAreEqualAndACopyIsEqual() {
    MessageLinks a = MessageLinks.builder().replyToId("m1").threadId("m0").thread(SUMMARY)
        .mentions(Arrays.asList("amy")).build();
    MessageLinks b = MessageLinks.builder().replyToId("m1").threadId("m0").thread(SUMMARY)
        .mentions(Collections.singletonList("amy")).build();
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertEquals(a, a.newBuilder().build());
    assertNotEquals(a, a.newBuilder().mentions(Collections.<String>emptyList()).build());
    assertNotEquals(a, a.newBuilder().replyToId(null).build());
    assertTrue(a.isThreadReply());
    assertFalse(a.isEmpty());
    assertEquals("MessageLinks{replyToId=m1, threadId=m0, thread=" + SUMMARY + ", mentions=[amy]}", a.toString());
  }

  @Test
  void aMessageReadsItsLinksAndComparesThem() {
    MessageLinks links = MessageLinks.builder().replyToId("m1").threadId("m0").mentions(Arrays.asList("amy")).build();
    Message m = message().links(links).build();
    assertEquals("m1", m.replyToId());
    assertEquals("m0", m.threadId());
    assertEquals(null, m.thread());
    assertEquals(Collections.singletonList("amy"), m.mentions());
    assertSame(links, m.links());
    assertEquals(m, m.newBuilder().build(), "a copy keeps the links");
    assertEquals(m.hashCode(), m.newBuilder().build().hashCode());
    assertNotEquals(m, m.newBuilder().links(MessageLinks.none()).build());
    assertEquals("Message{id=m, roomId=r, seq=0, rev=0, senderId=u, parts=[], clientMessageId=c, createdAt=0,"
        + " replyToId=m1, threadId=m0, mentions=[amy]}", m.toString(), "the links listed as before, none when unset");
    assertEquals("Message{id=m, roomId=r, seq=0, rev=0, senderId=u, parts=[], clientMessageId=c, createdAt=0}",
        message().build().toString());
  }
}
