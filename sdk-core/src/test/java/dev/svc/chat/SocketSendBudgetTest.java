package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.svc.chat.internal.outbox.SocketSendBudget;
import dev.svc.chat.internal.transport.OkHttpTransport;
import dev.svc.chat.testing.Await;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.Frames;
import dev.svc.chat.testing.GatewaySession;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.SlowNetworkTransport;
import dev.svc.chat.testing.TestTransport;
import dev.svc.chat.testing.VirtualTaskScheduler;
import dev.svc.chat.transport.Transport;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The socket sends of all rooms share one budget of bytes in flight per connection, so the socket's queue of
 * outgoing frames (failed past 16 MiB) never overflows however many rooms have a backlog, and rooms take turns.
 * The network is {@link SlowNetworkTransport}: a frame leaves the socket's queue only when the gateway read it.
 */
class SocketSendBudgetTest {
  private static final String OFFER = "40{\"sid\":\"s\",\"svc\":{\"sendMessage\":true}}";
  private static final Pattern SEND = Pattern.compile("\"text\":\"r(\\d+) m(\\d+) ");
  private static final Pattern EMIT = Pattern.compile("^42(\\d+)\\[\"([^\"]+)\",(.*)\\]$", Pattern.DOTALL);
  private static final Pattern CLIENT_MESSAGE_ID = Pattern.compile("\"clientMessageId\":\"([^\"]+)\"");

  private FakeGateway gateway;
  private OkHttpClient okHttp;
  private SlowNetworkTransport network;
  private final VirtualTaskScheduler time = new VirtualTaskScheduler();
  private ChatClient client;
  private long ackTimeoutMillis = SvcOptions.DEFAULT_ACK_TIMEOUT_MILLIS;

  @BeforeEach
  void setUp() throws Exception {
    gateway = new FakeGateway();
    Transport chosen = TestTransport.on(SvcOptions.builder(gateway.apiUrl())).build().transport();
    if (chosen == null) okHttp = new OkHttpClient();
    network = new SlowNetworkTransport(chosen != null ? chosen : new OkHttpTransport(okHttp));
  }

  @AfterEach
  void tearDown() throws Exception {
    if (client != null) client.close();
    gateway.close();
    if (okHttp != null) {
      okHttp.dispatcher().executorService().shutdown();
      okHttp.connectionPool().evictAll();
      okHttp.dispatcher().executorService().awaitTermination(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
  }

  /** Connects with the CONNECT left unanswered: sends made now wait in the outbox, as an offline backlog. */
  private GatewaySession connecting() throws Exception {
    gateway.onConnect = auth -> null;
    client = Svc.init(SvcOptions.builder(gateway.apiUrl()).transport(network).recoverMissedEvents(false)
        .engineExecutor(Runnable::run).scheduler(time).reconnectDelay(100, 1_000).logger(new RecordingLogger())
        .ackTimeoutMillis(ackTimeoutMillis).socketSends(true).build());
    client.connect("alice", "good-jwt");
    GatewaySession session = gateway.nextSession();
    session.awaitConnect();
    network.readAll();
    return session;
  }

  /** Accepts the connection, offering socket sends. */
  private void accept(GatewaySession session) throws Exception {
    session.send(OFFER);
    Await.until("connected", () -> client.state() == ConnectionState.CONNECTED);
  }

  /**
   * Waits until the client sent what the connection started, the gateway reading nothing meanwhile (as a slow
   * network): a typing emit goes through the client's actor after those sends, and is the next frame after them.
   */
  private CompletableFuture<Void> settle() throws Exception {
    CompletableFuture<Void> typing = client.setTyping("r9", true);
    Await.until("the typing emit was sent", () -> network.sent("\"typing\"") || network.overflows() > 0);
    assertEquals(0, network.overflows(), "a send overflowed the socket's queue (" + network.maxQueued() + " bytes)");
    return typing;
  }

  /** Queues a send of 10 parts of 4,000 ASCII characters (40 KB of JSON) to room {@code r}, the {@code i}th. */
  private CompletableFuture<Message> sendLarge(int r, int i) {
    List<MessagePart> parts = new ArrayList<>();
    StringBuilder text = new StringBuilder("r" + r + " m" + i + " ");
    while (text.length() < 4_000) text.append('x');
    for (int p = 0; p < 10; p++) parts.add(MessagePart.text(text.toString()));
    return client.sendMessage("r" + r, parts);
  }

  /**
   * The review's livelock: 17 rooms of 30 large sends queued offline, 20 MB in all. Each room's own window let
   * 27 of them go at once when the connection was accepted, 18 MB: the socket's queue overflowed, the socket
   * failed, and the next connection did the same. Now every send goes once, in order per room, on one socket.
   */
  @Test
  void anOfflineBacklogInSeventeenRoomsGoesOutOnOneSocketWithoutOverflowingItsQueue() throws Exception {
    int rooms = 17;
    int perRoom = 30;
    GatewaySession session = connecting();
    List<List<CompletableFuture<Message>>> sent = new ArrayList<>();
    for (int r = 0; r < rooms; r++) {
      List<CompletableFuture<Message>> room = new ArrayList<>();
      for (int i = 0; i < perRoom; i++) room.add(sendLarge(r, i));
      sent.add(room);
    }
    Await.until("all queued", () -> client.pendingSends().size() == rooms * perRoom);
    accept(session);
    settle();
    int[] next = new int[rooms];
    for (int n = 0; n < rooms * perRoom; n++) {
      String[] send = nextFrame(session);
      if (send[1].equals("typing")) {
        session.send("43" + send[0] + "[{\"ok\":true}]");
        send = nextFrame(session);
      }
      Matcher m = SEND.matcher(send[2]);
      assertTrue(m.find(), send[2].substring(0, Math.min(200, send[2].length())));
      int r = Integer.parseInt(m.group(1));
      assertEquals(next[r], Integer.parseInt(m.group(2)), "room r" + r + " sends each once, in order");
      next[r]++;
      ackFrame(session, send, r, next[r]);
    }
    for (int r = 0; r < rooms; r++) {
      for (int i = 0; i < perRoom; i++) assertEquals(i + 1, Await.value(sent.get(r).get(i)).seq());
    }
    Await.until("the outbox is empty", () -> client.pendingSends().isEmpty());
    assertTrue(network.maxQueued() < SlowNetworkTransport.LIMIT / 3, "at most " + network.maxQueued() + " bytes");
    assertEquals(ConnectionState.CONNECTED, client.state());
    assertEquals(1, network.opened(), "sockets opened");
    gateway.assertNoSession();
  }

  /**
   * A room's backlog fills the connection's budget; a send of another room made then waits for the turn of the
   * room at the head of the line (which kept its place, so that no smaller send overtakes its next), then goes
   * before the rest of the backlog: rooms take turns.
   */
  @Test
  void aRoomsBacklogHoldsAnotherRoomsSendBackForOneTurnOnly() throws Exception {
    GatewaySession session = connecting();
    List<CompletableFuture<Message>> backlog = new ArrayList<>();
    for (int i = 0; i < 200; i++) backlog.add(sendLarge(0, i));
    Await.until("all queued", () -> client.pendingSends().size() == 200);
    accept(session);
    CompletableFuture<Void> typing = settle();
    List<String[]> sends = new ArrayList<>();
    String[] frame;
    while (!(frame = nextFrame(session))[1].equals("typing")) sends.add(frame);
    session.send("43" + frame[0] + "[{\"ok\":true}]");
    Await.value(typing);
    int inFlight = sends.size();
    assertTrue(inFlight > 1 && inFlight < 200, inFlight + " in flight");
    for (String[] send : sends) assertTrue(send[2].contains("\"text\":\"r0 m"), "the backlog's");
    CompletableFuture<Message> other = sendLarge(1, 0);
    Await.until("the other room's send is queued", () -> client.pendingSends().size() == 201);
    int answered = 0;
    String[] next;
    do {
      assertTrue(answered < 2, "the other room's send waits for more than one turn of the backlog");
      ackFrame(session, sends.get(answered), 0, answered + 1);
      assertEquals(answered + 1, Await.value(backlog.get(answered)).seq());
      answered++;
      next = nextFrame(session);
    } while (next[2].contains("\"text\":\"r0 m"));
    assertTrue(next[2].contains("\"text\":\"r1 m0 "), next[2].substring(0, 100));
    ackFrame(session, next, 1, 1);
    assertEquals(1, Await.value(other).seq());
  }

  /**
   * A link too slow for the acknowledgements: 20 rooms of 11 large sends (8.8 MB) start 4 MiB, the gateway reads
   * nothing for several acknowledgement timeouts and backoffs. A send whose acknowledgement timed out is still in
   * the socket's queue, so its bytes stay counted: the rooms' retries, and the rooms that had not started yet, do
   * not add to the queue (before, each timeout gave the bytes back and the retries queued the same frames again:
   * 4 MiB more per round, an overflow in the fourth). Once the gateway reads and acknowledges, the late
   * acknowledgements give the bytes back and every send completes once, in order per room.
   */
  @Test
  void sendsWhoseAcknowledgementTimedOutStillCountUntilTheGatewayAnswersThem() throws Exception {
    int rooms = 20;
    int perRoom = 11;
    ackTimeoutMillis = 200;
    GatewaySession session = connecting();
    List<List<CompletableFuture<Message>>> sent = new ArrayList<>();
    for (int r = 0; r < rooms; r++) {
      List<CompletableFuture<Message>> room = new ArrayList<>();
      for (int i = 0; i < perRoom; i++) room.add(sendLarge(r, i));
      sent.add(room);
    }
    Await.until("all queued", () -> client.pendingSends().size() == rooms * perRoom);
    accept(session);
    settle();
    long bound = SocketSendBudget.BYTES + 66 * 1024; // the budget, the one send beyond it, and the typing emit
    for (int round = 0; round < 6; round++) {
      time.advance(ackTimeoutMillis); // every acknowledgement times out (the actor runs on this thread)
      time.advance(1_000); // the rooms' backoffs end: they retry
      assertEquals(0, network.overflows(), "round " + round + ": a send overflowed the socket's queue ("
          + network.maxQueued() + " bytes)");
      assertTrue(network.maxQueued() <= bound, "round " + round + ": " + network.maxQueued() + " bytes queued");
    }
    assertEquals(1, network.opened(), "sockets opened");
    java.util.Map<String, Long> seqOf = new java.util.HashMap<>(); // the gateway stores each send once
    int[] stored = new int[rooms];
    while (seqOf.size() < rooms * perRoom) { // a room's retries come before its later sends: then nothing more
      String[] frame = nextFrame(session);
      Matcher m = SEND.matcher(frame[2]);
      if (!m.find()) {
        session.send("43" + frame[0] + "[{\"ok\":true}]");
        continue;
      }
      int r = Integer.parseInt(m.group(1));
      Matcher id = CLIENT_MESSAGE_ID.matcher(frame[2]);
      assertTrue(id.find());
      Long seq = seqOf.get(id.group(1));
      if (seq == null) seqOf.put(id.group(1), seq = (long) ++stored[r]);
      ackFrame(session, frame, r, seq);
    }
    for (int r = 0; r < rooms; r++) {
      for (int i = 0; i < perRoom; i++) assertEquals(i + 1, Await.value(sent.get(r).get(i)).seq(), "r" + r + " m" + i);
    }
    assertTrue(network.maxQueued() <= bound, network.maxQueued() + " bytes queued");
    assertEquals(ConnectionState.CONNECTED, client.state());
    assertEquals(1, network.opened(), "sockets opened");
  }

  /** Returns the next emit the gateway reads, out of the socket's queue: its ack id, event and payload. */
  private String[] nextFrame(GatewaySession session) throws Exception {
    String frame;
    try {
      frame = session.nextNonPong();
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + " (" + network.overflows() + " sends overflowed the socket's queue; "
          + "at most " + network.maxQueued() + " bytes were queued)", e);
    }
    network.read();
    assertEquals(0, network.overflows(), "a send overflowed the socket's queue (" + network.maxQueued() + " bytes)");
    Matcher m = EMIT.matcher(frame);
    assertTrue(m.matches(), frame.substring(0, Math.min(200, frame.length())));
    return new String[] {m.group(1), m.group(2), m.group(3)};
  }

  private static void ackFrame(GatewaySession session, String[] frame, int room, long seq) {
    Matcher m = CLIENT_MESSAGE_ID.matcher(frame[2]);
    assertTrue(m.find());
    session.send("43" + frame[0] + "[{\"ok\":true,\"message\":" + Frames.messageJson("m" + seq, "r" + room, seq, "t")
        .replace("\"c-m" + seq + "\"", "\"" + m.group(1) + "\"") + "}]");
  }
}
