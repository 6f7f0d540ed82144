package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;

import dev.svc.chat.ChangesPage;
import dev.svc.chat.ChatClient;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.ThreadSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server's state of the chaos test's rooms, read through clients connected to the reference server directly
 * (not through the fault proxy), the rules of contract section 10 the comparisons apply to it (a root's thread
 * summary, a user's unread mentions), and the parts of the contract that are not on this branch yet.
 *
 * <p>When {@code Message.rev()}, {@code ChatClient.getReceipts} and {@code ChatClient.getChanges} land, change the
 * three marked lines ({@code WHEN-REV-LANDS}, {@code WHEN-RECEIPTS-LAND}, {@code WHEN-CHANGES-LAND}); the test
 * then compares receipts, counts each (message, rev) once and cross-checks the history against the changes feed.
 */
final class ChaosTruth {
  private ChaosTruth() {
  }

  /** The message's {@code rev}; 0 while {@code Message.rev()} is not there (then "latest" means "last received"). */
  static long rev(Message m) {
    return m.rev();
  }

  /** The room's receipts, or null while {@code getReceipts} is not there (receipts are then not compared). */
  static List<Receipt> receipts(ChatClient member, String roomId) throws Exception {
    return await(member.getReceipts(roomId));
  }

  /**
   * Every message whose latest change is after revision 0, from the changes feed (ascending rev), or null while
   * {@code getChanges} is not there. Each must equal the same message in the history.
   */
  static List<Message> changesSinceZero(ChatClient member, String roomId) throws Exception {
    List<Message> all = new ArrayList<>();
    for (long since = 0; ; ) {
      ChangesPage page = await(member.getChanges(roomId, since, 100));
      all.addAll(page.messages());
      if (!page.hasMore() || page.messages().isEmpty()) return all;
      since = rev(all.get(all.size() - 1));
    }
  }

  /** The room's whole history, paged with {@code after}, ascending seq. */
  static List<Message> messages(ChatClient member, String roomId) throws Exception {
    List<Message> all = new ArrayList<>();
    long after = 0;
    while (true) {
      MessagePage page = await(member.getMessages(roomId, MessageQuery.after(after, MessageQuery.MAX_LIMIT)));
      all.addAll(page.messages());
      if (!page.hasMore() || page.messages().isEmpty()) return all;
      after = page.messages().get(page.messages().size() - 1).seq();
    }
  }

  /**
   * The unread mentions of {@code userId} in a room by contract section 10: messages of other users above the user's
   * receipt ({@code getReceipts}; none: every message), not deleted, whose {@code mentions} hold the user.
   */
  static int unreadMentions(String userId, List<Message> history, List<Receipt> receipts) {
    long read = 0;
    for (Receipt r : receipts) {
      if (r.userId().equals(userId)) read = r.seq();
    }
    int n = 0;
    for (Message m : history) {
      if (!m.senderId().equals(userId) && m.seq() > read && !m.isDeleted() && m.mentions().contains(userId)) n++;
    }
    return n;
  }

  /**
   * The summary each root of the history must carry by contract section 10, computed from its replies in the
   * history: the replies not deleted, their distinct senders most recent first (at most 10), the newest one's
   * {@code createdAt}; null for a message that never had a reply. Keyed by root id, in seq order.
   */
  static Map<String, ThreadSummary> summariesFromReplies(List<Message> history) {
    Map<String, List<Message>> replies = new LinkedHashMap<>();
    for (Message m : history) {
      if (m.threadId() != null) replies.computeIfAbsent(m.threadId(), k -> new ArrayList<>()).add(m);
    }
    Map<String, ThreadSummary> summaries = new LinkedHashMap<>();
    for (Message m : history) {
      List<Message> mine = replies.get(m.id());
      if (mine == null) {
        summaries.put(m.id(), null);
        continue;
      }
      int count = 0;
      Long last = null;
      Set<String> senders = new LinkedHashSet<>();
      for (int i = mine.size() - 1; i >= 0; i--) { // ascending seq in the history: newest first here
        Message reply = mine.get(i);
        if (reply.isDeleted()) continue;
        count++;
        if (last == null) last = reply.createdAt();
        if (senders.size() < ThreadSummary.MAX_PARTICIPANTS) senders.add(reply.senderId());
      }
      summaries.put(m.id(), ThreadSummary.of(count, last, new ArrayList<>(senders)));
    }
    return summaries;
  }
}
