package dev.svc.chat.transport.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.svc.chat.transport.TransportListener;
import dev.svc.chat.transport.TransportSocket;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sockets whose listeners wait (as the engine's inbound gate does while the handlers are behind) on two shared
 * reader threads: they defer their message instead of holding a thread, so a third socket still gets its own.
 */
class JdkSharedReadersTest {
  private static final long TIMEOUT_SECONDS = 30;
  private final MockWebServer server = new MockWebServer();
  private final ExecutorService readers = Executors.newFixedThreadPool(2);
  private final List<TransportSocket> sockets = Collections.synchronizedList(new ArrayList<>());
  /** Whether the waiting listeners' gate is open. */
  private volatile boolean open;

  @BeforeEach
  void start() throws Exception {
    for (int i = 0; i < 3; i++) {
      server.enqueue(new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
        @Override
        public void onMessage(WebSocket webSocket, String text) {
          webSocket.send(text); // echo
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable t, Response response) {
        }
      }));
    }
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void stop() throws Exception {
    open = true;
    for (TransportSocket s : sockets) s.cancel();
    readers.shutdownNow();
    readers.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    server.shutdown();
  }

  @Test
  void listenersThatWaitHoldNoSharedThread() throws Exception {
    JdkTransport shared = JdkTransport.shared();
    JdkTransport transport = shared.with(readers, JdkTransport.CONNECT_TIMEOUT, JdkSocket.CLOSE_TIMEOUT_MILLIS);
    Waiting first = open(transport, new Waiting());
    Waiting second = open(transport, new Waiting());
    Waiting third = open(transport, new Waiting());
    third.waits = false;
    first.socket.send("to the first");
    second.socket.send("to the second");
    assertEquals("to the first", first.waited.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    assertEquals("to the second", second.waited.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    third.socket.send("to the third");
    assertEquals("text to the third", third.next(), "the waiting sockets held both reader threads");
    first.socket.send("after");
    open = true;
    assertEquals("text to the first", first.next(), "the waited-for message comes once the gate opens");
    assertEquals("text after", first.next(), "then the rest, in order");
    assertEquals("text to the second", second.next());
  }

  private <T extends Recorder> T open(JdkTransport transport, T r) throws InterruptedException {
    String url = "http://127.0.0.1:" + server.getPort() + "/socket.io/?EIO=4&transport=websocket";
    sockets.add(transport.open(url, Collections.emptyMap(), r));
    assertEquals("open", r.next());
    return r;
  }

  /** Records a socket's events; onText waits while the gate is closed, as the engine's inbound gate does. */
  class Waiting extends Recorder {
    volatile boolean waits = true;
    /** The messages it began to wait for (once each). */
    final BlockingQueue<String> waited = new LinkedBlockingQueue<>();
    private String waitingFor;

    @Override
    public void onText(TransportSocket socket, CharSequence text) {
      if (waits && !open) {
        String message = text.toString();
        if (!message.equals(waitingFor)) waited.add(message);
        waitingFor = message;
        // InboundGate.admit's way: defer where the transport can, else park
        if (socket.deferText(10)) return;
        while (!open) LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
      }
      super.onText(socket, text);
    }
  }

  /** Records a socket's events as strings. */
  static class Recorder extends TransportListener {
    final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    volatile TransportSocket socket;

    String next() throws InterruptedException {
      String e = events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      assertNotNull(e, "no event within " + TIMEOUT_SECONDS + " s");
      return e;
    }

    @Override
    public void onOpen(TransportSocket socket) {
      this.socket = socket;
      events.add("open");
    }

    @Override
    public void onText(TransportSocket socket, CharSequence text) {
      events.add("text " + text);
    }

    @Override
    public void onFailure(TransportSocket socket, Throwable error, int httpStatus) {
      events.add("failure " + httpStatus);
    }
  }
}
