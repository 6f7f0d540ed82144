package dev.svc.chat.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Room;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.auth.Credentials;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.util.SharedHttpClients;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Only idempotent requests are sent again when their outcome is unknown: a GET, and a send, which the service
 * deduplicates on its clientMessageId. A reaction (a toggle: twice undoes it) and an edit (an old one could overwrite
 * a newer one) whose connection was lost after the request went out fail with a TransportException that says the
 * outcome is unknown, and the server saw them once. The counts are the requests the server saw.
 */
class RestReplayTest {
  private static final String MESSAGE = "{\"id\":\"m1\",\"roomId\":\"r1\",\"seq\":1,\"rev\":2,\"senderId\":\"alice\","
      + "\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}],\"clientMessageId\":\"c1\",\"createdAt\":\"2026-01-01T00:00:00Z\","
      + "\"reactions\":{}}";

  private final MockWebServer server = new MockWebServer();
  /** The app's own client, as given to SvcOptions.httpClient: OkHttp's default retryOnConnectionFailure (true). */
  private final OkHttpClient appClient = new OkHttpClient();
  private RestApi rest;

  @BeforeEach
  void setUp() throws Exception {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    HttpUrl api = server.url("/v1/");
    Log log = new Log(ChatLogger.NONE);
    Credentials credentials = new Credentials(null, CallbackExecutor.on(Runnable::run, log), log);
    credentials.signIn("alice", "good-jwt", token -> null);
    rest = new RestApi(SharedHttpClients.of(appClient).rest(api), api, credentials, new Immediate(), log);
  }

  @AfterEach
  void tearDown() throws Exception {
    rest.close();
    server.shutdown();
    appClient.dispatcher().executorService().shutdown();
    appClient.connectionPool().evictAll();
  }

  private static MockResponse json(String body) {
    return new MockResponse().setHeader("Content-Type", "application/json").setBody(body);
  }

  /**
   * Puts a connection in the pool (a listing answered on it), makes the next request's connection drop once the
   * request arrived, and queues {@code replayAnswer} for a request sent again.
   */
  private void pooledConnectionThatDropsTheNextRequest(String replayAnswer) throws Exception {
    server.enqueue(json("{\"rooms\":[]}"));
    server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST));
    server.enqueue(json(replayAnswer));
    List<Room> rooms = rest.listRooms().get(30, TimeUnit.SECONDS);
    assertTrue(rooms.isEmpty());
  }

  private static TransportException transportFailure(CompletableFuture<?> future) throws Exception {
    try {
      Object value = future.get(30, TimeUnit.SECONDS);
      throw new AssertionError("expected a TransportException, got " + value);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TransportException)) throw new AssertionError("not a TransportException", e);
      return (TransportException) e.getCause();
    }
  }

  @Test
  void aReactionOnAConnectionResetAfterTheRequestIsNotSentAgain() throws Exception {
    pooledConnectionThatDropsTheNextRequest(MESSAGE);

    TransportException e = transportFailure(rest.toggleReaction("r1", "m1", "+1"));

    assertTrue(e.outcomeUnknown(), e.getMessage());
    assertTrue(e.getMessage().contains("outcome is unknown"), e.getMessage());
    assertEquals(2, server.getRequestCount(), "the listing and the reaction, once");
  }

  @Test
  void anEditOnAConnectionResetAfterTheRequestIsNotSentAgain() throws Exception {
    pooledConnectionThatDropsTheNextRequest(MESSAGE);

    TransportException e = transportFailure(rest.updateMessage("r1", "m1",
        Collections.singletonList(MessagePart.text("newer"))));

    assertTrue(e.outcomeUnknown(), e.getMessage());
    assertEquals(2, server.getRequestCount(), "the listing and the edit, once");
  }

  @Test
  void anEditWhoseSuccessfulAnswerIsCutIsNotSentAgain() throws Exception {
    server.enqueue(json(MESSAGE).setSocketPolicy(SocketPolicy.DISCONNECT_DURING_RESPONSE_BODY));
    server.enqueue(json(MESSAGE));
    server.enqueue(json(MESSAGE));

    TransportException e = transportFailure(rest.updateMessage("r1", "m1",
        Collections.singletonList(MessagePart.text("old"))));

    assertTrue(e.outcomeUnknown(), e.getMessage());
    assertEquals(1, server.getRequestCount(), "the edit, once");
  }

  @Test
  void aSendOnAConnectionResetAfterTheRequestIsSentAgainWithItsClientMessageId() throws Exception {
    pooledConnectionThatDropsTheNextRequest(MESSAGE);

    Message sent = rest.sendMessage("r1", Collections.singletonList(MessagePart.text("hi")), "c1", "alice")
        .get(30, TimeUnit.SECONDS);

    assertEquals("m1", sent.id());
    assertEquals(3, server.getRequestCount(), "the listing, the send and the send again");
    server.takeRequest();
    String first = server.takeRequest().getBody().readUtf8();
    String again = server.takeRequest().getBody().readUtf8();
    assertEquals(first, again, "the same body, with the same clientMessageId");
    assertTrue(appClient.retryOnConnectionFailure(), "the app's client is left as it was");
  }

  @Test
  void aListingOnAConnectionResetIsSentAgain() throws Exception {
    pooledConnectionThatDropsTheNextRequest("{\"rooms\":[]}");

    assertTrue(rest.listRooms().get(30, TimeUnit.SECONDS).isEmpty());
    assertEquals(3, server.getRequestCount(), "the listing, the listing and the listing again");
  }

  /** Runs tasks and timers at once, on the calling thread: the retries' delays do not matter here. */
  private static final class Immediate implements Scheduler {
    @Override
    public boolean execute(Runnable task) {
      task.run();
      return true;
    }

    @Override
    public Timer schedule(Runnable task, long delayMillis) {
      task.run();
      return () -> { };
    }

    @Override
    public long nowMillis() {
      return 0;
    }

    @Override
    public boolean inActor() {
      return false;
    }

    @Override
    public void shutdown() {
    }
  }
}
