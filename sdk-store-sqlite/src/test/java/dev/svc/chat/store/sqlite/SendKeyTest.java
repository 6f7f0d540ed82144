package dev.svc.chat.store.sqlite;

import static dev.svc.chat.store.sqlite.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.MessagePart;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredSend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outbox's rows are keyed as the service's idempotency is, by room and {@code clientMessageId} (the store is
 * one user's): the same id in two rooms is two sends, both kept across a restart, each ended on its own.
 */
class SendKeyTest {
  @TempDir File dir;

  private static StoredSend send(String roomId, String clientMessageId, long sequence) {
    return new StoredSend(roomId, clientMessageId, "alice", Collections.singletonList(MessagePart.text("to " + roomId)),
        T0 + sequence, sequence);
  }

  private static List<String> sends(ChatStore store) throws Exception {
    List<String> keys = new ArrayList<>();
    for (StoredSend s : store.load().sends()) keys.add(s.roomId() + "/" + s.clientMessageId());
    return keys;
  }

  @Test
  void theSameClientMessageIdInTwoRoomsIsTwoSendsAfterARestart() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    ChatStore store = provider.open("alice");
    store.write(new StoreWrite().send(send("r1", "c-1", 1)));
    store.write(new StoreWrite().send(send("r2", "c-1", 2)));
    store.close();

    store = provider.open("alice"); // a restart
    try {
      assertEquals(java.util.Arrays.asList("r1/c-1", "r2/c-1"), sends(store));
    } finally {
      store.close();
    }
  }
}
