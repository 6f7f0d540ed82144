package dev.svc.chat.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.RoomDigest;
import dev.svc.chat.store.StoreWrite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The room list's digest of a stored room: its range, newest visible messages and unread messages. */
class DigestTest {
  @TempDir File dir;

  private static Message from(String sender, long seq) {
    return Fixtures.message("r", seq, seq).newBuilder().senderId(sender).build();
  }

  private static List<Long> seqs(List<Message> list) {
    List<Long> out = new ArrayList<>();
    for (Message m : list) out.add(m.seq());
    return out;
  }

  @Test
  void unreadAreOthersMessagesAboveTheReceiptNotDeletedNewestFirstUpToTheLimit() throws Exception {
    ChatStore store = SqliteChatStore.provider(dir).open("alice");
    try {
      StoreWrite w = new StoreWrite();
      for (long seq = 1; seq <= 8; seq++) w.message(from(seq == 6 ? "alice" : "bob", seq));
      w.message(from("bob", 7).newBuilder().rev(20).deletedAt(5L).parts(Collections.<MessagePart>emptyList()).build());
      store.write(w.watermarks("r", 8, 20));
      RoomDigest d = store.digest("r", "alice", 3, 2, 100);
      assertEquals(Arrays.asList(4L, 5L, 8L), seqs(d.unread()), "not 6 (the user's own) nor 7 (deleted)");
      assertEquals(Arrays.asList(6L, 8L), seqs(d.recent()), "the newest visible, oldest first");
      assertEquals(1, d.lowSeq());
      assertEquals(Arrays.asList(5L, 8L), seqs(store.digest("r", "alice", 3, 2, 2).unread()), "the newest ones");
      assertNull(store.digest("nowhere", "alice", 0, 2, 10));
    } finally {
      store.close();
    }
  }

  @Test
  void aLongUnreadRunIsTheNewestUpToTheLimitInSeqOrder() throws Exception {
    ChatStore store = SqliteChatStore.provider(dir).open("alice");
    try {
      StoreWrite w = new StoreWrite();
      for (long seq = 1; seq <= 600; seq++) w.message(from(seq % 10 == 0 ? "alice" : "bob", seq));
      store.write(w.watermarks("r", 600, 600));
      RoomDigest d = store.digest("r", "alice", 100, 4, 301);
      List<Long> bobs = new ArrayList<>();
      for (long seq = 101; seq <= 600; seq++) {
        if (seq % 10 != 0) bobs.add(seq); // bob's above the receipt, in seq order
      }
      assertEquals(bobs.subList(bobs.size() - 301, bobs.size()), seqs(d.unread()), "the newest 301, oldest first");
      assertEquals(Arrays.asList(597L, 598L, 599L, 600L), seqs(d.recent()), "the newest four, the user's own too");
      assertEquals(1, d.lowSeq());
    } finally {
      store.close();
    }
  }
}
