package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bot fleets: many clients on one OkHttpClient with OkHttp's default Dispatcher (64 request slots) all connect
 * and keep REST working, and pipelined sends keep each room's order.
 */
class FleetTest {
  private static final int CLIENTS = 200; // well over the Dispatcher's 64 slots

  private ReferenceServer server;
  private Admin admin;
  private final Set<Thread> before = new HashSet<>();

  @BeforeEach
  void start() {
    before.addAll(Thread.getAllStackTraces().keySet());
    server = ReferenceServer.builder().port(0).sendRateLimit(100_000, 100_000).build().start();
    admin = new Admin(server.apiUrl(), server.apiKey());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void manyClientsOnOneDefaultOkHttpClientConnectAndCallRestThenCloseCleanly() throws Exception {
    OkHttpClient shared = new OkHttpClient(); // as a bot fleet writes it: default Dispatcher
    List<ChatClient> clients = new ArrayList<>();
    try {
      List<String> tokens = java.util.stream.IntStream.range(0, CLIENTS).parallel().mapToObj(i -> mint("bot-" + i))
          .collect(java.util.stream.Collectors.toList());
      List<CompletableFuture<Void>> connected = new ArrayList<>();
      for (int i = 0; i < CLIENTS; i++) {
        ChatClient c = Svc.init(SvcOptions.builder(server.apiUrl()).okHttpClient(shared).build());
        clients.add(c);
        connected.add(c.connect("bot-" + i, tokens.get(i)));
      }
      CompletableFuture.allOf(connected.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
      for (ChatClient c : clients) assertEquals(ConnectionState.CONNECTED, c.state());

      // every socket is open, and REST still has the user's Dispatcher to itself
      List<CompletableFuture<?>> rest = new ArrayList<>();
      for (ChatClient c : clients) rest.add(c.listRooms());
      CompletableFuture.allOf(rest.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
      // REST calls of the clients' recovery may still run there; no socket may
      List<String> socketCalls = new ArrayList<>();
      for (okhttp3.Call call : shared.dispatcher().runningCalls()) {
        if (call.request().url().encodedPath().contains("/socket.io")) socketCalls.add(call.request().url().encodedPath());
      }
      assertEquals(List.of(), socketCalls, "no socket holds one of the user's slots");
      for (ChatClient c : clients) assertEquals(ConnectionState.CONNECTED, c.state());
    } finally {
      clients.parallelStream().forEach(ChatClient::close); // each close waits for its socket's close handshake
    }
    try {
      for (ChatClient c : clients) assertEquals(ConnectionState.CLOSED, c.state());
      Await.until("every socket's reader thread to end and no non-daemon thread to be left",
          () -> leftovers().isEmpty(), () -> leftovers());
      assertTrue(!shared.dispatcher().executorService().isShutdown(), "the user's client is not shut down");
    } finally {
      shared.dispatcher().executorService().shutdown();
      shared.connectionPool().evictAll();
    }
  }

  @Test
  void pipelinedSendsKeepEachRoomsOrder() throws Exception {
    int rooms = 8;
    int perRoom = 40;
    List<String> roomIds = new ArrayList<>();
    for (int r = 0; r < rooms; r++) roomIds.add(admin.createRoom("order-" + r, "sender"));
    ChatClient sender = Svc.init(SvcOptions.builder(server.apiUrl()).build());
    try {
      await(sender.connect("sender", admin.mint("sender")));
      // all sends are issued at once, interleaved across rooms: the rooms' requests are in flight together
      List<List<CompletableFuture<Message>>> sends = new ArrayList<>();
      for (int r = 0; r < rooms; r++) sends.add(new ArrayList<>());
      for (int i = 0; i < perRoom; i++) {
        for (int r = 0; r < rooms; r++) {
          sends.get(r).add(sender.sendMessage(roomIds.get(r), List.of(MessagePart.text("m" + i))));
        }
      }
      for (int r = 0; r < rooms; r++) {
        long lastSeq = 0;
        for (int i = 0; i < perRoom; i++) {
          Message m = sends.get(r).get(i).get(30, TimeUnit.SECONDS);
          assertEquals("m" + i, m.text());
          assertTrue(m.seq() > lastSeq, "room " + r + ": send " + i + " got seq " + m.seq() + " after " + lastSeq);
          lastSeq = m.seq();
        }
        // and the server's own order agrees
        List<Message> stored = await(sender.getMessages(roomIds.get(r))).messages();
        List<String> texts = new ArrayList<>();
        for (Message m : stored) texts.add(m.text());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < perRoom; i++) expected.add("m" + i);
        assertTrue(texts.containsAll(expected), "stored: " + texts);
        List<String> sortedBySeq = new ArrayList<>();
        stored.stream().sorted((a, b) -> Long.compare(a.seq(), b.seq())).forEach(m -> sortedBySeq.add(m.text()));
        assertEquals(expected, sortedBySeq.subList(sortedBySeq.size() - perRoom, sortedBySeq.size()));
      }
    } finally {
      sender.close();
    }
  }

  private String mint(String user) {
    try {
      return admin.mint(user);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The SDK's threads this test left that must not outlive close(): non-daemon ones, socket readers. */
  private List<String> leftovers() {
    List<String> names = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (!t.isAlive() || before.contains(t)) continue;
      String n = t.getName();
      // the app's own Dispatcher threads ("OkHttp Dispatcher") are the app's to end
      boolean ours = n.startsWith("svc-chat-") || (n.startsWith("OkHttp") && !n.equals("OkHttp Dispatcher"));
      if (ours && (!t.isDaemon() || n.startsWith("svc-chat-ws"))) {
        StackTraceElement[] stack = t.getStackTrace();
        names.add(n + (names.isEmpty() ? " " + t.getState() + " " + java.util.Arrays.toString(stack) : ""));
      }
    }
    return names;
  }
}
