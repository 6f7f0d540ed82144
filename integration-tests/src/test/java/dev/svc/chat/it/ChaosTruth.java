package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;

import dev.svc.chat.ChangesPage;
import dev.svc.chat.ChatClient;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's state of the chaos test's rooms, read through clients connected to the reference server directly
 * (not through the fault proxy), and the parts of the contract that are not on this branch yet.
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
}
