package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.ApiException;
import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.Room;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The SDK's Socket.IO code against the official npm {@code socket.io} 4.x server. */
class SdkAgainstOfficialServerTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private NodeScript server;
  private ChatClient client;

  private ChatClient start(Map<String, Object> options) throws Exception {
    server = NodeScript.start("official-server.js", Admin.JSON.writeValueAsString(options));
    int port = server.await("listening", WAIT).get("port").asInt();
    // the official socket.io server has the gateway only, no REST routes: nothing to recover from
    client = Svc.init(SvcOptions.builder("http://127.0.0.1:" + port + "/v1").recoverMissedEvents(false).build());
    return client;
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) client.close();
    if (server != null) server.close();
  }

  @Test
  void connectsJoinsWithAckAndReceivesEventsAfterABinaryOne() throws Exception {
    ChatClient c = start(Map.of("burst", 3));
    RecordingHandler<Message> messages = new RecordingHandler<>();
    c.on(EventType.NEW_MESSAGE, messages);

    await(c.connect("alice", "good-token"));
    assertEquals(ConnectionState.CONNECTED, c.state());
    JsonNode handshake = server.await("handshake", WAIT);
    assertEquals("[\"token\"]", handshake.get("auth").toString());

    Room room = await(c.joinRoom("r1"));
    assertEquals("r1", room.id());
    assertEquals("Interop", room.name());
    assertTrue(server.await("join-room", WAIT).get("hasAck").asBoolean());

    // The server sent a binary event (with one attachment frame) before these: it must be skipped whole.
    for (int i = 1; i <= 3; i++) {
      Message m = messages.next(WAIT);
      assertEquals("hello " + i, m.parts().get(0).text());
      assertEquals("r1", m.roomId());
      assertEquals("bob", m.senderId());
    }
    Thread reader = messages.threads.poll();
    assertFalse(reader.getName().startsWith("OkHttp"), "handler ran on " + reader.getName());
  }

  @Test
  void deliversALargeBurstInOrder() throws Exception {
    int burst = 2000;
    ChatClient c = start(Map.of("burst", burst));
    RecordingHandler<Message> messages = new RecordingHandler<>();
    c.on(EventType.NEW_MESSAGE, messages);
    await(c.connect("alice", "good-token"));
    await(c.joinRoom("r1"));
    long last = 0;
    for (int i = 0; i < burst; i++) {
      Message m = messages.next(WAIT);
      assertTrue(m.seq() > last, "out of order: " + m.seq() + " after " + last);
      last = m.seq();
    }
  }

  @Test
  void refusedConnectsFailWithTheContractCodes() throws Exception {
    ChatClient c = start(Map.of());
    ExecutionException expired = assertThrows(ExecutionException.class, () -> await(c.connect("alice", "expired-token")));
    ApiException e = assertInstanceOf(ApiException.class, expired.getCause());
    assertEquals("token_expired", e.code());
    assertTrue(e.isTokenExpired());

    ExecutionException bad = assertThrows(ExecutionException.class, () -> await(c.connect("alice", "forged")));
    assertEquals("unauthorized", assertInstanceOf(ApiException.class, bad.getCause()).code());
    assertEquals(401, ((ApiException) bad.getCause()).status());
  }

  @Test
  void joinRefusedInTheAckFailsWithApiException() throws Exception {
    ChatClient c = start(Map.of());
    await(c.connect("alice", "good-token"));
    ExecutionException refused = assertThrows(ExecutionException.class, () -> await(c.joinRoom("forbidden-room")));
    ApiException e = assertInstanceOf(ApiException.class, refused.getCause());
    assertEquals("forbidden", e.code());
    assertEquals(403, e.status());
  }

  @Test
  void answersServerPingsSoTheConnectionOutlivesSeveralPingTimeouts() throws Exception {
    // each pong has 2 s (a loaded machine may hold the client's thread back that long), and the pings go on
    // for more than two ping intervals plus timeouts: only the pongs kept the connection
    int interval = 200;
    int timeout = 2_000;
    ChatClient c = start(Map.of("pingInterval", interval, "pingTimeout", timeout));
    RecordingHandler<Message> messages = new RecordingHandler<>();
    c.on(EventType.NEW_MESSAGE, messages);
    await(c.connect("alice", "good-token"));
    String sid = server.await("connection", WAIT).get("sid").asText();
    long start = System.nanoTime();
    for (int i = 0; i < 5 || System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(2 * (interval + timeout)); i++) {
      JsonNode pong = server.await(n -> n.path("event").asText().matches("pong|disconnect"), "pong", WAIT);
      assertEquals("pong", pong.get("event").asText(), "server dropped the client after " + i + " pongs: " + pong);
      assertEquals(sid, pong.get("sid").asText());
    }
    // Still the same live connection: a room message arrives.
    await(c.joinRoom("r1"));
    assertEquals("hello 1", messages.next(WAIT).parts().get(0).text());
    assertEquals(ConnectionState.CONNECTED, c.state());
  }

  @Test
  void sessionExpiredFromTheServerEndsInDisconnectedWithTheReason() throws Exception {
    ChatClient c = start(Map.of());
    RecordingHandler<ConnectionStateChange> states = new RecordingHandler<>();
    c.on(EventType.CONNECTION_STATE, states);
    await(c.connect("alice", "good-token"));
    states.next(s -> s.current() == ConnectionState.CONNECTED);

    server.send("expire");
    ConnectionStateChange change = states.next(s -> s.current() != ConnectionState.CONNECTED);
    assertEquals(ConnectionState.DISCONNECTED, change.current());
    assertEquals(ConnectionReason.TOKEN_EXPIRED, change.reason()); // no refresher: the client stays disconnected
  }

  @Test
  void serverKickIsNotFollowedByAReconnect() throws Exception {
    ChatClient c = start(Map.of());
    RecordingHandler<ConnectionStateChange> states = new RecordingHandler<>();
    c.on(EventType.CONNECTION_STATE, states);
    await(c.connect("alice", "good-token"));
    server.await("connection", WAIT);
    server.send("kick");
    assertEquals(ConnectionState.DISCONNECTED, states.next(s -> s.current() != ConnectionState.CONNECTED
        && s.current() != ConnectionState.CONNECTING).current());
    server.await("done", WAIT);
    // A reconnect would show up as a new handshake on the server: the client must stay put.
    assertEquals(ConnectionState.DISCONNECTED, c.state());
    for (JsonNode line : server.drain()) assertFalse(line.get("event").asText().equals("handshake"), line.toString());
  }
}
