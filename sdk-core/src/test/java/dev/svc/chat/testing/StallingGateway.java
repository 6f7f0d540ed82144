package dev.svc.chat.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A gateway on a plain socket whose first connection stalls inside a frame: it answers the WebSocket upgrade,
 * opens Engine.IO with the given heartbeat, accepts the Socket.IO CONNECT, then writes the head of a frame of
 * 100,000 bytes and 10 of its bytes and nothing more, never a ping, keeping the TCP connection open. It
 * records when the client closed that socket and when the client opened another.
 */
public final class StallingGateway implements AutoCloseable {
  private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
  private final String open;
  private final CountDownLatch stalled = new CountDownLatch(1);
  private final CountDownLatch stalledSocketClosed = new CountDownLatch(1);
  private final CountDownLatch reconnected = new CountDownLatch(1);
  private final Thread thread;
  private volatile long stalledAtNanos;
  private volatile long closedAtNanos;
  private volatile Socket current;

  public StallingGateway(long pingIntervalMillis, long pingTimeoutMillis) throws IOException {
    open = FakeGateway.openPacket(pingIntervalMillis, pingTimeoutMillis);
    thread = new Thread(this::serve, "stalling-gateway");
    thread.setDaemon(true);
    thread.start();
  }

  public String apiUrl() {
    return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
  }

  /** Waits until the first connection stalled mid-frame. */
  public boolean awaitStall() throws InterruptedException {
    return stalled.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /** Waits until the client closed the stalled socket (its reader would otherwise wait for ever). */
  public boolean awaitStalledSocketClosed() throws InterruptedException {
    return stalledSocketClosed.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /** Waits until the client opened a second connection. */
  public boolean awaitReconnect() throws InterruptedException {
    return reconnected.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /** Returns the milliseconds from the stall to the client's close of that socket. */
  public long millisToClose() {
    return TimeUnit.NANOSECONDS.toMillis(closedAtNanos - stalledAtNanos);
  }

  private void serve() {
    try (Socket first = server.accept()) {
      current = first;
      InputStream in = first.getInputStream();
      OutputStream out = first.getOutputStream();
      handshake(in, out);
      out.write(new byte[] {(byte) 0x81, 127, 0, 0, 0, 0, 0, 1, (byte) 0x86, (byte) 0xA0});
      out.write("42[\"new-m".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      stalledAtNanos = System.nanoTime();
      stalled.countDown();
      try {
        while (in.read() >= 0) {
          // whatever the client still writes (a close frame) is ignored; the end of the stream is the signal
        }
      } catch (IOException reset) {
        // a reset ends the stream too
      }
      closedAtNanos = System.nanoTime();
      stalledSocketClosed.countDown();
      try (Socket second = server.accept()) {
        current = second;
        reconnected.countDown();
        while (second.getInputStream().read() >= 0) {
          // held open until the client closes it or the test closes the server
        }
      }
    } catch (Exception e) {
      // the test sees the outcome on the client side
    }
  }

  private void handshake(InputStream in, OutputStream out) throws Exception {
    String request = RawGateway.readHeaders(in);
    String key = null;
    for (String line : request.split("\r\n")) {
      if (line.toLowerCase().startsWith("sec-websocket-key:")) key = line.substring(18).trim();
    }
    String accept = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
        .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII)));
    out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    RawGateway.text(out, open);
    RawGateway.readFrame(in); // the client's CONNECT
    RawGateway.text(out, "40{\"sid\":\"stall\"}");
  }

  @Override
  public void close() throws IOException {
    server.close();
    Socket s = current;
    if (s != null) s.close();
  }
}
