package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.testing.FakeChatClient;
import org.junit.jupiter.api.Test;

/** {@link ThreadSubscription} over a fake client: the load, the held events, the filters, the refusals. */
class ThreadSubscriptionTest {
  private static final String ROOM = "room-1";
  private final FakeChatClient client = new FakeChatClient();
  private final Recorder recorder = new Recorder();

  private static Message root(long rev, int replies) {
    Message.Builder b = Message.builder().id("root").roomId(ROOM).seq(1).rev(rev).senderId("u").clientMessageId("c1")
        .addPart(MessagePart.text("root")).createdAt(1);
    if (replies > 0) {
      b.links(MessageLinks.builder()
          .thread(ThreadSummary.of(replies, (long) replies, Collections.singletonList("u"))).build());
    }
    return b.build();
  }

  private static Message reply(String thread, long seq) {
    return Message.builder().id("m" + seq).roomId(ROOM).seq(seq).rev(seq).senderId("u").clientMessageId("c" + seq)
        .addPart(MessagePart.text("t" + seq)).createdAt(seq)
        .links(MessageLinks.builder().threadId(thread).build()).build();
  }

  static final class Recorder implements ThreadSubscriptionListener {
    final List<String> calls = new ArrayList<>();

    @Override
    public void onInitialReplies(Message root, List<Message> replies) {
      StringBuilder b = new StringBuilder("initial root@" + root.rev());
      for (Message m : replies) b.append(' ').append(m.seq());
      calls.add(b.toString());
    }

    @Override
    public void onReply(Message reply) {
      calls.add("reply " + reply.seq());
    }

    @Override
    public void onReplyUpdated(Message reply) {
      calls.add("updated " + reply.seq() + (reply.isDeleted() ? " deleted" : ""));
    }

    @Override
    public void onRootUpdated(Message root) {
      calls.add("root@" + root.rev() + " " + root.thread().replyCount());
    }

    @Override
    public void onError(Throwable error) {
      calls.add("error " + error.getMessage());
    }
  }

  @Test
  void loadsTheRootThenTheThreadsRepliesAndHoldsWhatArrivesMeanwhile() {
    ThreadSubscription sub = Svc.createThreadSubscription(client, ROOM, "root", recorder);
    client.joinResults.poll().complete(null);
    assertEquals(Collections.singletonList(ROOM + "/root"), client.messageGets);
    client.messageResults.poll().complete(root(4, 2));
    MessageQuery asked = client.historyQueries.get(0);
    assertEquals("root", asked.threadId());
    assertEquals(ThreadSubscription.DEFAULT_HISTORY_LIMIT, asked.limit());
    // while the replies load: one in the page, a newer one, the root's summary before and after it, a deletion
    // of a loaded reply, and messages of the room and of another thread that are not this thread's
    client.emit(EventType.NEW_MESSAGE, reply("root", 3));
    client.emit(EventType.MESSAGE_UPDATED, root(4, 2));
    client.emit(EventType.NEW_MESSAGE, reply("root", 5));
    client.emit(EventType.MESSAGE_UPDATED, root(5, 3));
    client.emit(EventType.MESSAGE_UPDATED, reply("root", 2).newBuilder().rev(6).deletedAt(6L)
        .parts(Collections.<MessagePart>emptyList()).build());
    client.emit(EventType.NEW_MESSAGE, reply(null, 7));
    client.emit(EventType.NEW_MESSAGE, reply("other", 8));
    assertTrue(recorder.calls.isEmpty());
    assertFalse(sub.isLive());
    client.historyResults.poll().complete(new MessagePage(Arrays.asList(reply("root", 3), reply("root", 2)), false));
    assertEquals(Arrays.asList("initial root@4 2 3", "reply 5", "root@5 3", "updated 2 deleted"), recorder.calls);
    assertTrue(sub.isLive());
    client.emit(EventType.MESSAGE_UPDATED, root(5, 3)); // a repeat
    client.emit(EventType.NEW_MESSAGE, reply("root", 5)); // a repeat
    client.emit(EventType.MESSAGE_UPDATED, root(9, 2));
    assertEquals("root@9 2", recorder.calls.get(recorder.calls.size() - 1));
    assertEquals(5, recorder.calls.size());
    sub.destroy();
    assertEquals(0, client.handlerCount());
  }

  @Test
  void anUnknownRootEndsItOnce() {
    Svc.createThreadSubscription(client, ROOM, "root", recorder);
    client.joinResults.poll().complete(null);
    client.messageResults.poll().completeExceptionally(new ApiException(404, "not_found", "no such message"));
    client.emit(EventType.NEW_MESSAGE, reply("root", 3));
    assertEquals(Collections.singletonList("error no such message"), recorder.calls);
    assertTrue(client.historyQueries.isEmpty());
  }

  @Test
  void waitsForTheConnectionWhenNotConnectedYet() {
    client.setState(ConnectionState.DISCONNECTED);
    Svc.createThreadSubscription(client, ROOM, "root", recorder);
    assertTrue(client.joins.isEmpty());
    client.moveTo(ConnectionState.CONNECTED);
    assertEquals(Collections.singletonList(ROOM), client.joins);
  }
}
