package dev.svc.chat.testing;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okhttp3.mockwebserver.RecordedRequest;
import okio.ByteString;

/** The server side of one client WebSocket on the {@link FakeGateway}: records what the client sends. */
public final class GatewaySession extends WebSocketListener {
  private static final Pattern EMIT = Pattern.compile("^42(\\d+)\\[\"([^\"]+)\",?(.*)\\]$", Pattern.DOTALL);

  public final int id;
  public final RecordedRequest upgradeRequest;
  private final FakeGateway gateway;
  private final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
  private final CountDownLatch opened = new CountDownLatch(1);
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile WebSocket webSocket;
  /** The auth JSON of the client's CONNECT. */
  public volatile String connectAuth;

  GatewaySession(int id, RecordedRequest upgradeRequest, FakeGateway gateway) {
    this.id = id;
    this.upgradeRequest = upgradeRequest;
    this.gateway = gateway;
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    this.webSocket = webSocket;
    opened.countDown();
    String open = gateway.openPacket;
    if (open != null) webSocket.send(open);
  }

  @Override
  public void onMessage(WebSocket webSocket, String text) {
    if (text.startsWith("40") && connectAuth == null) {
      connectAuth = text.substring(2);
      String answer = gateway.onConnect.apply(connectAuth);
      if (answer != null) webSocket.send(answer);
    }
    frames.add(text);
  }

  @Override
  public void onMessage(WebSocket webSocket, ByteString bytes) {
    frames.add("<binary " + bytes.hex() + ">");
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    frames.add("<close " + code + ">");
    if (gateway.answerClose) webSocket.close(1000, null);
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    closed.countDown();
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable t, Response response) {
    frames.add("<failure>");
    closed.countDown();
  }

  void awaitOpen() throws InterruptedException {
    assertTrue(opened.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS), "socket not opened");
  }

  /** Sends a raw frame to the client. */
  public void send(String frame) {
    webSocket.send(frame);
  }

  /** Sends a binary frame to the client. */
  public void sendBinary(byte... bytes) {
    webSocket.send(ByteString.of(bytes));
  }

  /** Closes the socket with a close frame, as the official server does after {@code 41}. */
  public void close() {
    webSocket.close(1000, null);
  }

  /** Drops the TCP connection without a close frame (every open connection of the gateway, in fact). */
  public void cancel() {
    gateway.dropConnections();
  }

  public boolean awaitClosed() throws InterruptedException {
    return closed.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /** Returns the next frame the client sent, waiting up to {@link FakeGateway#TIMEOUT_SECONDS}. */
  public String nextFrame() throws InterruptedException {
    String f = frames.poll(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertNotNull(f, "the client sent nothing within " + FakeGateway.TIMEOUT_SECONDS + " s");
    return f;
  }

  /** Waits up to {@code millis} for a pong ({@code 3}), skipping other frames; returns whether one came. */
  public boolean awaitPong(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) return false;
      String f = frames.poll(left, TimeUnit.NANOSECONDS);
      if (f == null) return false;
      if (f.equals("3")) return true;
    }
  }

  /** Returns the next frame that is not a pong. */
  public String nextNonPong() throws InterruptedException {
    while (true) {
      String f = nextFrame();
      if (!f.equals("3")) return f;
    }
  }

  /** Waits for the client's CONNECT and returns its auth JSON. */
  public String awaitConnect() throws InterruptedException {
    String f = nextNonPong();
    if (!f.startsWith("40")) fail("expected CONNECT, got " + f);
    return f.substring(2);
  }

  /** Waits for an emit of {@code event} with an ack id; returns it. */
  public Emit nextEmit(String event) throws InterruptedException {
    String f = nextNonPong();
    Matcher m = EMIT.matcher(f);
    if (!m.matches() || !m.group(2).equals(event)) fail("expected an acked emit of " + event + ", got " + f);
    return new Emit(Integer.parseInt(m.group(1)), m.group(2), m.group(3));
  }

  /** Answers an emit: {@code 43<id>[<json>]}. */
  public void ack(Emit emit, String json) {
    send("43" + emit.ackId + "[" + json + "]");
  }

  /** An emit the client sent with an ack id. */
  public static final class Emit {
    public final int ackId;
    public final String event;
    public final String payload;

    Emit(int ackId, String event, String payload) {
      this.ackId = ackId;
      this.event = event;
      this.payload = payload;
    }
  }
}
