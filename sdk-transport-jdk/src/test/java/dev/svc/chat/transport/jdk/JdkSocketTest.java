package dev.svc.chat.transport.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.svc.chat.transport.TransportListener;
import dev.svc.chat.transport.TransportSocket;
import org.junit.jupiter.api.Test;

/**
 * The JDK socket's adaptation on a fake {@link WebSocket} and a direct executor: message assembly, the
 * one-write-at-a-time send queue and its byte count, the close after queued text, and the end of the socket
 * (the hand-off to the listener and the demand: {@link InboundQueueTest}).
 */
class JdkSocketTest {
  private final Recorder listener = new Recorder();
  private final FakeWebSocket ws = new FakeWebSocket();
  private final JdkSocket socket =
      new JdkSocket(listener, Runnable::run, JdkTransport.Timer.INSTANCE, JdkSocket.CLOSE_TIMEOUT_MILLIS,
          JdkTransport.SILENCE_MILLIS, System::nanoTime);

  @Test
  void aWholeMessageIsHandedOnAsTheJdkDecodedItAndPartsAreAssembled() {
    socket.onOpen(ws);
    CharBuffer whole = CharBuffer.wrap("42[\"e\",{}]");
    socket.onText(ws, whole, true);
    assertSame(whole, listener.texts.get(0), "a one-part message is not copied");
    socket.onText(ws, "42[\"big\",", false);
    socket.onText(ws, "{\"a\":1}", false);
    socket.onText(ws, "]", true);
    assertEquals("42[\"big\",{\"a\":1}]", listener.texts.get(1).toString());
    socket.onText(ws, "next", true);
    assertEquals("next", listener.texts.get(2).toString(), "the parts of the message before are not kept");
    assertEquals("42[\"big\",{\"a\":1}]", listener.texts.get(1).toString(), "a message handed on never changes");
  }

  @Test
  void sendsOneAtATimeCountingTheQueuedBytes() {
    socket.onOpen(ws);
    assertTrue(socket.send("héllo")); // 6 bytes in UTF-8
    assertTrue(socket.send("abc"));
    assertEquals(List.of("héllo"), ws.sent, "the JDK allows one send in flight");
    assertEquals(9, socket.queueSize());
    ws.completeNext();
    assertEquals(List.of("héllo", "abc"), ws.sent);
    assertEquals(3, socket.queueSize());
    ws.completeNext();
    assertEquals(0, socket.queueSize());
  }

  @Test
  void textSentBeforeTheOpenGoesOutAtTheOpen() {
    assertTrue(socket.send("early"));
    assertEquals(5, socket.queueSize());
    socket.onOpen(ws);
    assertEquals(List.of("early"), ws.sent);
  }

  @Test
  void theCloseGoesAfterTheQueuedTextAndEndsSending() {
    socket.onOpen(ws);
    socket.send("one");
    assertTrue(socket.close(1000, null));
    assertFalse(socket.close(1000, null), "a second close starts nothing");
    assertFalse(socket.send("late"), "no text after the close");
    ws.completeNext();
    assertEquals(List.of("one", "close 1000"), ws.sent);
  }

  @Test
  void aFailedWriteFailsTheSocketOnce() {
    socket.onOpen(ws);
    socket.send("one");
    socket.send("two");
    ws.failNext(new java.io.IOException("broken pipe"));
    assertEquals(List.of("open", "failure java.io.IOException: broken pipe -1"), listener.events);
    assertTrue(ws.aborted);
    assertFalse(socket.send("three"));
    socket.onError(ws, new java.io.IOException("again"));
    assertEquals(2, listener.events.size(), "nothing after the failure");
  }

  @Test
  void cancelAbortsAndReportsAFailure() {
    socket.onOpen(ws);
    socket.send("queued");
    socket.cancel();
    socket.cancel();
    assertTrue(ws.aborted);
    assertEquals(0, socket.queueSize());
    assertEquals(List.of("open", "failure java.io.IOException: canceled -1"), listener.events);
  }

  @Test
  void aSendQueueOverTheLimitFailsTheSocket() {
    socket.onOpen(ws);
    char[] big = new char[(int) (JdkSocket.MAX_QUEUE_BYTES / 2)];
    java.util.Arrays.fill(big, 'x');
    String half = new String(big);
    assertTrue(socket.send(half)); // in flight
    assertTrue(socket.send(half));
    assertFalse(socket.send("x"), "past 16 MiB queued");
    assertTrue(ws.aborted);
    assertTrue(listener.events.get(1).startsWith("failure java.io.IOException: the send queue passed"));
  }

  @Test
  void mapsHttpSchemesToWebSocketSchemes() {
    assertEquals("ws://h:1/socket.io/?EIO=4", JdkTransport.webSocketUri("http://h:1/socket.io/?EIO=4").toString());
    assertEquals("wss://h/x", JdkTransport.webSocketUri("https://h/x").toString());
    assertEquals("ws://h/x", JdkTransport.webSocketUri("ws://h/x").toString());
  }

  @Test
  void afterThePeersCloseNothingIsSentButTheAnsweringClose() {
    socket.onOpen(ws);
    socket.onClose(ws, 1001, "going away");
    assertFalse(socket.send("late"), "the peer closed");
    assertTrue(socket.close(1000, null));
  }

  /** Records the listener's calls. */
  static final class Recorder extends TransportListener {
    final List<String> events = new CopyOnWriteArrayList<>();
    final List<CharSequence> texts = new CopyOnWriteArrayList<>();
    /** Thrown by the next onText, when set. */
    volatile Error error;
    /** The next onText calls that defer their message. */
    volatile int defers;

    @Override
    public void onOpen(TransportSocket socket) {
      events.add("open");
    }

    @Override
    public void onText(TransportSocket socket, CharSequence text) {
      Error e = error;
      error = null;
      if (e != null) throw e;
      if (defers > 0 && socket.deferText(0)) {
        defers--;
        return;
      }
      texts.add(text);
    }

    @Override
    public void onClosing(TransportSocket socket, int code, String reason) {
      events.add("closing " + code);
    }

    @Override
    public void onClosed(TransportSocket socket, int code, String reason) {
      events.add("closed " + code);
    }

    @Override
    public void onFailure(TransportSocket socket, Throwable error, int httpStatus) {
      events.add("failure " + error + " " + httpStatus);
    }
  }

  /** A WebSocket whose writes complete when the test says. */
  static final class FakeWebSocket implements WebSocket {
    final List<Long> requests = new ArrayList<>();
    final List<String> sent = new ArrayList<>();
    final List<CompletableFuture<WebSocket>> writes = new ArrayList<>();
    boolean aborted;

    void completeNext() {
      writes.remove(0).complete(this);
    }

    void failNext(Throwable t) {
      writes.remove(0).completeExceptionally(t);
    }

    private CompletableFuture<WebSocket> write(String what) {
      sent.add(what);
      CompletableFuture<WebSocket> f = new CompletableFuture<>();
      writes.add(f);
      return f;
    }

    @Override
    public CompletableFuture<WebSocket> sendText(CharSequence data, boolean last) {
      return write(data.toString());
    }

    @Override
    public CompletableFuture<WebSocket> sendBinary(ByteBuffer data, boolean last) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<WebSocket> sendPing(ByteBuffer message) {
      sent.add("ping");
      return CompletableFuture.completedFuture(this);
    }

    @Override
    public CompletableFuture<WebSocket> sendPong(ByteBuffer message) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<WebSocket> sendClose(int statusCode, String reason) {
      return write("close " + statusCode);
    }

    @Override
    public void request(long n) {
      requests.add(n);
    }

    @Override
    public String getSubprotocol() {
      return "";
    }

    @Override
    public boolean isOutputClosed() {
      return false;
    }

    @Override
    public boolean isInputClosed() {
      return false;
    }

    @Override
    public void abort() {
      aborted = true;
    }
  }
}
