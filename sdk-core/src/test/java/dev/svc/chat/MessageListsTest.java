package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

class MessageListsTest {
  private static final String ROOM = "room-1";

  static Message sent(long seq, String sender, String text) {
    return Message.builder().id("m" + seq).roomId(ROOM).seq(seq).senderId(sender).clientMessageId("c" + seq)
        .addPart(MessagePart.text(text)).createdAt(1000 + seq).build();
  }

  static List<Long> seqs(List<Message> list) {
    List<Long> out = new ArrayList<>();
    for (Message m : list) out.add(m.seq());
    return out;
  }

  @Test
  void outOfOrderArrivalIsSortedBySeq() {
    List<Message> list = MessageLists.mergeMessagesById(Collections.<Message>emptyList(),
        Arrays.asList(sent(3, "a", "three"), sent(1, "a", "one")));
    list = MessageLists.mergeMessagesById(list, Collections.singletonList(sent(2, "b", "two")));
    assertEquals(Arrays.asList(1L, 2L, 3L), seqs(list));
  }

  @Test
  void duplicateDeliveryKeepsOneCopy() {
    Message one = sent(1, "a", "one");
    List<Message> list = MessageLists.mergeMessagesById(Collections.<Message>emptyList(), Arrays.asList(one, one));
    list = MessageLists.mergeMessagesById(list, Arrays.asList(one, sent(2, "a", "two"), one));
    assertEquals(Arrays.asList(1L, 2L), seqs(list));
  }

  @Test
  void anEditThatArrivesBeforeItsOriginalIsKept() {
    Message original = sent(1, "a", "typo");
    Message edited = original.newBuilder().parts(Collections.singletonList(MessagePart.text("fixed")))
        .editedAt(5000L).build();
    List<Message> list = MessageLists.mergeMessagesById(Collections.<Message>emptyList(),
        Collections.singletonList(edited));
    list = MessageLists.mergeMessagesById(list, Collections.singletonList(original));
    assertEquals(1, list.size());
    assertEquals("fixed", list.get(0).text());
    // and in the usual order the edit replaces the original
    list = MessageLists.mergeMessagesById(Collections.singletonList(original), Collections.singletonList(edited));
    assertEquals("fixed", list.get(0).text());
  }

  @Test
  void aLaterEditWinsOverAnEarlierOneWhateverTheOrder() {
    Message original = sent(1, "a", "v0");
    Message v1 = original.newBuilder().parts(Collections.singletonList(MessagePart.text("v1"))).editedAt(10L).build();
    Message v2 = original.newBuilder().parts(Collections.singletonList(MessagePart.text("v2"))).editedAt(20L).build();
    assertEquals("v2", MessageLists.mergeMessagesById(Collections.singletonList(v2),
        Collections.singletonList(v1)).get(0).text());
    assertEquals("v2", MessageLists.mergeMessagesById(Collections.singletonList(v1),
        Collections.singletonList(v2)).get(0).text());
  }

  @Test
  void aReactionUpdateReplacesTheOriginalInArrivalOrder() {
    Message original = sent(1, "a", "hi");
    Message reacted = original.newBuilder().reaction("👍", Collections.singletonList("b")).build();
    Message unreacted = original; // the last reaction removed: same shape as the original
    List<Message> list = MessageLists.mergeMessagesById(Collections.singletonList(original),
        Collections.singletonList(reacted));
    assertEquals(Collections.singletonList("b"), list.get(0).reactions().get("👍"));
    list = MessageLists.mergeMessagesById(list, Collections.singletonList(unreacted));
    assertTrue(list.get(0).reactions().isEmpty());
  }

  @Test
  void aDeleteReplacesTheMessageAndIsNeverUndoneByAStaleVersion() {
    Message original = sent(2, "a", "secret");
    Message edited = original.newBuilder().editedAt(50L).build();
    Message deleted = original.newBuilder().parts(Collections.<MessagePart>emptyList()).deletedAt(60L).build();
    List<Message> list = MessageLists.mergeMessagesById(Arrays.asList(sent(1, "b", "x"), original),
        Collections.singletonList(deleted));
    assertTrue(list.get(1).isDeleted());
    assertTrue(list.get(1).parts().isEmpty());
    list = MessageLists.mergeMessagesById(list, Arrays.asList(original, edited));
    assertEquals(2, list.size());
    assertTrue(list.get(1).isDeleted(), "a stale original or edit must not resurrect a deleted message");
  }

  @Test
  void optimisticMessageIsReplacedByTheEchoThenTheRestAnswerAddsNothing() {
    Message pending = MessageLists.pendingMessage(ROOM, "me", "client-1",
        Collections.singletonList(MessagePart.text("hello")), 999);
    assertTrue(MessageLists.isPending(pending));
    List<Message> list = MessageLists.mergeMessagesById(Collections.singletonList(sent(1, "b", "first")),
        Collections.singletonList(pending));
    assertEquals(Arrays.asList(1L, 0L), seqs(list));

    Message server = Message.builder().id("srv-2").roomId(ROOM).seq(2).senderId("me").clientMessageId("client-1")
        .addPart(MessagePart.text("hello")).createdAt(1002).build();
    // the gateway's echo comes first
    list = MessageLists.mergeMessagesById(list, Collections.singletonList(server));
    assertEquals(Arrays.asList(1L, 2L), seqs(list));
    // then the REST answer
    List<Message> after = MessageLists.reconcileSelfSentMessage(list, server);
    assertEquals(list, after);
    // an app that adds the optimistic copy again late does not bring it back
    assertEquals(list, MessageLists.mergeMessagesById(after, Collections.singletonList(pending)));
  }

  @Test
  void restAnswerBeforeTheEchoAlsoLeavesOneCopy() {
    Message pending = MessageLists.pendingMessage(ROOM, "me", "client-1",
        Collections.singletonList(MessagePart.text("hello")), 999);
    Message server = Message.builder().id("srv-1").roomId(ROOM).seq(1).senderId("me").clientMessageId("client-1")
        .addPart(MessagePart.text("hello")).createdAt(1001).build();
    List<Message> list = MessageLists.reconcileSelfSentMessage(Collections.singletonList(pending), server);
    list = MessageLists.mergeMessagesById(list, Collections.singletonList(server));
    assertEquals(1, list.size());
    assertSame(server, list.get(0));
  }

  @Test
  void anotherUsersMessageWithTheSameClientIdDoesNotReplaceMyPendingOne() {
    Message pending = MessageLists.pendingMessage(ROOM, "me", "same-id",
        Collections.singletonList(MessagePart.text("mine")), 1);
    Message theirs = Message.builder().id("srv-1").roomId(ROOM).seq(1).senderId("other").clientMessageId("same-id")
        .addPart(MessagePart.text("theirs")).createdAt(2).build();
    List<Message> list = MessageLists.mergeMessagesById(Collections.singletonList(pending),
        Collections.singletonList(theirs));
    assertEquals(Arrays.asList(1L, 0L), seqs(list));
  }

  @Test
  void pendingMessagesStayLastInTheOrderTheyWereAdded() {
    Message p1 = MessageLists.pendingMessage(ROOM, "me", "p1", Collections.singletonList(MessagePart.text("1")), 1);
    Message p2 = MessageLists.pendingMessage(ROOM, "me", "p2", Collections.singletonList(MessagePart.text("2")), 2);
    List<Message> list = MessageLists.mergeMessagesById(Collections.<Message>emptyList(), Arrays.asList(p1, p2));
    list = MessageLists.mergeMessagesById(list, Collections.singletonList(sent(7, "b", "x")));
    assertEquals("m7", list.get(0).id());
    assertEquals("p1", list.get(1).id());
    assertEquals("p2", list.get(2).id());
  }

  @Test
  void inputsAreNotChangedAndTheResultIsUnmodifiable() {
    List<Message> current = new ArrayList<>(Arrays.asList(sent(2, "a", "b"), sent(1, "a", "a")));
    List<Message> copy = new ArrayList<>(current);
    List<Message> result = MessageLists.mergeMessagesById(current, Collections.singletonList(sent(3, "a", "c")));
    assertEquals(copy, current);
    assertEquals(Arrays.asList(1L, 2L, 3L), seqs(result));
    assertThrows(UnsupportedOperationException.class, () -> result.add(sent(4, "a", "d")));
    assertFalse(result.isEmpty());
    assertThrows(NullPointerException.class,
        () -> MessageLists.mergeMessagesById(current, Collections.<Message>singletonList(null)));
  }

  @Test
  void withRevisionsTheHigherRevWinsWhateverTheArrivalOrder() {
    Message edited = Message.builder().id("m1").roomId(ROOM).seq(1).senderId("a").clientMessageId("c1")
        .addPart(MessagePart.text("v2")).createdAt(1).editedAt(5L).rev(2).build();
    Message reactedLater = Message.builder().id("m1").roomId(ROOM).seq(1).senderId("a").clientMessageId("c1")
        .addPart(MessagePart.text("v2")).createdAt(1).editedAt(5L).reaction("+1", Arrays.asList("b")).rev(3).build();
    // rev 3 arrived first (from a back-fill); the live event of rev 2 comes after it
    List<Message> list = MessageLists.mergeMessagesById(Collections.singletonList(reactedLater),
        Collections.singletonList(edited));
    assertEquals(3, list.get(0).rev(), "a late, older revision must not replace a newer one");
  }
}
