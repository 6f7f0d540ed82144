package dev.svc.chat.store.sqlite;

import static dev.svc.chat.store.sqlite.Fixtures.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.MessageLinks;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.ThreadSummary;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreWrite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Section 10's fields of stored messages: a root's summary, a reply's links and mentions read back equal. */
class ThreadFieldsStoreTest {
  @TempDir
  Path tmp;

  @Test
  void rootsAndRepliesReadBackWithTheirThreadFields() throws Exception {
    File dir = tmp.toFile();
    Message root = message("r", 1, 4).newBuilder().links(MessageLinks.builder()
        .thread(ThreadSummary.of(2, Fixtures.T0 + 3000, Arrays.asList("cy", "bob"))).build()).build();
    Message reply = message("r", 2, 2).newBuilder().links(MessageLinks.builder().threadId(root.id())
        .replyToId(root.id()).mentions(Collections.singletonList("alice")).build()).build();
    Message deletedRoot = message("r", 3, 5).newBuilder().parts(Collections.emptyList())
        .deletedAt(Fixtures.T0 + 9000).links(MessageLinks.builder()
            .thread(ThreadSummary.of(0, null, Collections.<String>emptyList())).build()).build();
    ChatStore store = SqliteChatStore.provider(dir).open("alice");
    try {
      store.write(new StoreWrite().message(root).message(reply).message(deletedRoot).watermarks("r", 3, 5));
    } finally {
      store.close();
    }
    ChatStore again = SqliteChatStore.provider(dir).open("alice");
    try {
      List<Message> page = again.messages("r", MessageQuery.latest(10)).messages();
      assertEquals(Arrays.asList(root, reply, deletedRoot), page);
      assertNull(again.messages("r", MessageQuery.latest(10).inThread(root.id())),
          "a thread's page is not answered from whole-room ranges");
    } finally {
      again.close();
    }
  }
}
