package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.ChatClient;
import dev.svc.chat.MessagePart;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredSend;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import dev.svc.chat.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A send the store's outbox kept (the app was killed before it was answered) goes out at the next start, however
 * the client's threads interleave: here the engine runs on the calling thread, so the outbox asks for its stored
 * sends before {@code connect} reaches the store's open (found by {@link StoreKillNineTest}).
 */
class StoredOutboxRestartTest {
  @TempDir Path dir;

  @Test
  void aSendKeptInTheStoreIsSentAtTheNextStartEvenWhenTheOutboxStartsBeforeTheStoreOpens() throws Exception {
    try (ChatFixture chat = new ChatFixture(ReferenceServer.builder().port(0))) {
      Admin admin = chat.admin();
      String room = admin.createRoom("kept", "alice");
      SqliteChatStore provider = SqliteChatStore.provider(dir.toFile());
      ChatStore store = provider.open("alice");
      try {
        store.write(new StoreWrite().send(new StoredSend(room, "kept-1", "alice",
            List.of(MessagePart.text("kept across a kill")), System.currentTimeMillis(), 1)));
      } finally {
        store.close();
      }

      ChatClient alice = chat.newClient(SvcOptions.builder(chat.server().apiUrl()).store(provider)
          .engineExecutor(Runnable::run).build());
      await(alice.connect("alice", admin.mint("alice")));
      String token = admin.mint("alice");
      List<String> ids = Await.lastRead(() -> {
        List<String> read = new ArrayList<>();
        Admin.Answer page = admin.call("GET", "/v1/chat/rooms/" + room + "/messages", null, Admin.bearer(token));
        for (JsonNode m : page.body().get("messages")) read.add(m.get("clientMessageId").asText());
        return read;
      }, read -> !read.isEmpty(), Await.WAIT, Duration.ofMillis(50));
      if (ids.isEmpty()) fail("the kept send never reached the service; pending: " + alice.pendingSends());
      assertEquals(List.of("kept-1"), ids);
    }
  }
}
