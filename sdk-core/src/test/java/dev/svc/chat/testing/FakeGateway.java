package dev.svc.chat.testing;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * A fake of the service on MockWebServer: a Socket.IO v4 gateway that speaks the frames of the official
 * npm server (see notes/socketio-transcript.txt), plus scripted REST answers.
 */
public final class FakeGateway implements AutoCloseable {
  /**
   * How long a test waits for something that must happen: generous, because a loaded machine (a busy CI
   * runner, {@code build-tools/busy-verify}) stalls a thread for seconds; a passing test never waits it out.
   */
  public static final long TIMEOUT_SECONDS = 30;

  private final MockWebServer server = new MockWebServer();
  private final BlockingQueue<GatewaySession> sessions = new LinkedBlockingQueue<>();
  private final BlockingQueue<MockResponse> restResponses = new LinkedBlockingQueue<>();
  private final BlockingQueue<RecordedRequest> restRequests = new LinkedBlockingQueue<>();
  private final AtomicInteger sessionCount = new AtomicInteger();

  /** The OPEN packet sent on every new socket; null sends nothing (a gateway that never answers). */
  public volatile String openPacket = openPacket(25_000, 20_000);
  /** Whether a session answers the client's close frame; false leaves the client waiting for the close. */
  public volatile boolean answerClose = true;
  /** The answer to the client's CONNECT, from its auth JSON; null answers nothing. */
  public volatile Function<String, String> onConnect = auth -> "40{\"sid\":\"sio-" + sessionCount.get() + "\"}";
  /** When set, the answer to every WebSocket upgrade instead of the upgrade (a refusal with an HTTP status). */
  public volatile MockResponse upgradeAnswer;
  /** Answers REST requests before the scripted queue when set; a null answer falls back to the queue. */
  public volatile Function<RecordedRequest, MockResponse> rest;

  private final java.util.Set<java.net.Socket> accepted = java.util.concurrent.ConcurrentHashMap.newKeySet();

  public FakeGateway() throws IOException {
    server.setServerSocketFactory(new javax.net.ServerSocketFactory() {
      @Override
      public java.net.ServerSocket createServerSocket() throws IOException {
        return new java.net.ServerSocket() {
          @Override
          public java.net.Socket accept() throws IOException {
            java.net.Socket s = super.accept();
            accepted.add(s);
            return s;
          }
        };
      }

      @Override
      public java.net.ServerSocket createServerSocket(int port) {
        throw new UnsupportedOperationException();
      }

      @Override
      public java.net.ServerSocket createServerSocket(int port, int backlog) {
        throw new UnsupportedOperationException();
      }

      @Override
      public java.net.ServerSocket createServerSocket(int port, int backlog, InetAddress address) {
        throw new UnsupportedOperationException();
      }
    });
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        if (request.getPath() != null && request.getPath().startsWith("/socket.io/")) {
          MockResponse refusal = upgradeAnswer;
          if (refusal != null) return refusal;
          GatewaySession session = new GatewaySession(sessionCount.incrementAndGet(), request, FakeGateway.this);
          sessions.add(session);
          return new MockResponse().withWebSocketUpgrade(session);
        }
        restRequests.add(request);
        Function<RecordedRequest, MockResponse> handler = rest;
        MockResponse response = handler == null ? null : handler.apply(request);
        if (response == null) response = restResponses.poll();
        return response != null ? response
            : new MockResponse().setResponseCode(404)
                .setBody("{\"error\":{\"code\":\"not_found\",\"message\":\"no scripted answer\"}}");
      }
    });
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  public static String openPacket(long pingInterval, long pingTimeout) {
    return "0{\"sid\":\"eio\",\"upgrades\":[],\"pingInterval\":" + pingInterval + ",\"pingTimeout\":" + pingTimeout
        + ",\"maxPayload\":1000000}";
  }

  public String apiUrl() {
    return "http://127.0.0.1:" + server.getPort() + "/v1";
  }

  public int port() {
    return server.getPort();
  }

  /** Returns the next socket a client opened, waiting up to {@link #TIMEOUT_SECONDS}. */
  public GatewaySession nextSession() throws InterruptedException {
    GatewaySession s = sessions.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertNotNull(s, "no WebSocket was opened within " + TIMEOUT_SECONDS + " s");
    s.awaitOpen();
    return s;
  }

  /** Returns the next socket a client opened within {@code millis}, open, or null. */
  public GatewaySession pollSession(long millis) throws InterruptedException {
    GatewaySession s = sessions.poll(millis, TimeUnit.MILLISECONDS);
    if (s != null) s.awaitOpen();
    return s;
  }

  /**
   * Asserts no further socket was opened so far, without waiting: call it after a marker that a socket opened
   * before would have preceded (waiting a while for nothing proves nothing on a loaded machine).
   */
  public void assertNoSession() {
    GatewaySession s = sessions.poll();
    if (s != null) fail("unexpected reconnect: socket #" + s.id + " was opened");
  }

  public void enqueueRest(MockResponse response) {
    restResponses.add(response);
  }

  public RecordedRequest takeRest() throws InterruptedException {
    RecordedRequest r = restRequests.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertNotNull(r, "no REST request within " + TIMEOUT_SECONDS + " s");
    return r;
  }

  /** Drops every open TCP connection without a close frame, as a failed network does. */
  public void dropConnections() {
    for (java.net.Socket s : accepted) {
      try {
        s.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
    accepted.clear();
  }

  @Override
  public void close() throws IOException {
    dropConnections();
    server.shutdown();
  }
}
