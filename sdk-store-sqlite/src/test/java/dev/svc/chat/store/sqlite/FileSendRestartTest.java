package dev.svc.chat.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.Collections;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ChatClient;
import dev.svc.chat.FileSource;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.FakeTus;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import okio.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A send with a file whose client ends mid-upload, with the outbox in the SQLite store: the send's row holds the
 * upload's state, and the next client on the same store resumes the upload (HEAD) and sends the message once.
 */
class FileSendRestartTest {
  private static final int CHUNK = 1024 * 1024;
  private static final int SIZE = 5 * CHUNK / 2;

  @TempDir File dir;
  private final FakeGateway gateway;
  private final FakeTus tus = new FakeTus();

  FileSendRestartTest() throws Exception {
    gateway = new FakeGateway();
    gateway.rest = request -> {
      MockResponse files = tus.apply(request);
      return files != null ? files : answer(request);
    };
  }

  @AfterEach
  void tearDown() throws Exception {
    if (tus.hold != null) tus.hold.countDown();
    gateway.close();
  }

  private static MockResponse answer(RecordedRequest request) {
    String path = request.getRequestUrl().encodedPath();
    if (path.equals("/v1/chat/rooms")) return json("{\"rooms\":[]}");
    return new MockResponse().setResponseCode(404).setBody("{\"error\":{\"code\":\"not_found\",\"message\":\"no\"}}");
  }

  private static MockResponse json(String body) {
    return new MockResponse().setHeader("Content-Type", "application/json").setBody(body);
  }

  private ChatClient connected() throws Exception {
    ChatClient client = Svc.init(SvcOptions.builder(gateway.apiUrl()).recoverMissedEvents(false)
        .store(SqliteChatStore.provider(new File(dir, "store"))).build());
    CompletableFuture<Void> connected = client.connect("alice", "good-jwt");
    gateway.nextSession().awaitConnect();
    Await.value(connected);
    return client;
  }

  @Test
  void theNextClientOnTheStoreResumesTheUploadAndSendsTheMessageOnce() throws Exception {
    byte[] bytes = new byte[SIZE];
    new Random(3).nextBytes(bytes);
    File file = new File(dir, "report.pdf");
    Files.write(file.toPath(), bytes);
    ChatClient first = connected();
    tus.hold = new CountDownLatch(1);
    tus.holdPatch = 1; // the one PATCH that streams the whole file
    CompletableFuture<Message> sent = first.sendMessage("r1",
        Collections.singletonList(MessagePart.file(FileSource.of(file))), "c1");
    assertTrue(tus.held.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the PATCH arrived");
    first.close();
    assertEquals(0, Await.value(sent).seq(), "kept by the store for the next start");
    tus.cutNextPatchAfter.set(CHUNK + 1_000); // what the service had stored when the process ended
    tus.releaseHeldPatch();

    ChatClient next = connected();
    try {
      Await.until("the message is sent", () -> tus.messagesMade() == 1);
      assertEquals(1, tus.uploads.size(), "the same upload was resumed");
      assertEquals(ByteString.of(bytes).sha256().hex(), tus.uploads.values().iterator().next().sha256());
      assertTrue(tus.heads.get() >= 1);
      assertEquals(SIZE - CHUNK - 1_000, tus.patchBytes.get() - SIZE, "sent again: the rest, from the offset");
      assertEquals(1, tus.sendsOf("c1"));
      Await.until("the store's outbox is empty", () -> next.pendingSends().isEmpty());
    } finally {
      next.close();
    }
  }
}
