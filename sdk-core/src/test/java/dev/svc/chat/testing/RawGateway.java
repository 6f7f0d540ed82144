package dev.svc.chat.testing;

import java.io.ByteArrayOutputStream;
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
 * A gateway written byte by byte on a plain socket, for what MockWebServer cannot do: it answers one
 * WebSocket upgrade, opens Engine.IO, accepts the Socket.IO CONNECT, then starts a frame it never finishes and
 * closes the socket mid-frame.
 */
public final class RawGateway implements AutoCloseable {
  private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
  private final CountDownLatch cut = new CountDownLatch(1);
  private final Thread thread;

  public RawGateway() throws IOException {
    thread = new Thread(this::serveOne, "raw-gateway");
    thread.setDaemon(true);
    thread.start();
  }

  public String apiUrl() {
    return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
  }

  /** Waits until the socket was closed mid-frame. */
  public boolean awaitCut() throws InterruptedException {
    return cut.await(FakeGateway.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  private void serveOne() {
    try (Socket s = server.accept()) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      String request = readHeaders(in);
      String key = null;
      for (String line : request.split("\r\n")) {
        if (line.toLowerCase().startsWith("sec-websocket-key:")) key = line.substring(18).trim();
      }
      String accept = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
          .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII)));
      out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      text(out, FakeGateway.openPacket(25_000, 20_000));
      readFrame(in); // the client's CONNECT
      text(out, "40{\"sid\":\"raw\"}");
      readFrame(in); // the client's join-room, pending when the socket dies
      // a frame of 100,000 bytes of which only 10 are ever sent
      out.write(new byte[] {(byte) 0x81, 127, 0, 0, 0, 0, 0, 1, (byte) 0x86, (byte) 0xA0});
      out.write("42[\"new-m".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      s.setSoLinger(true, 0);
    } catch (Exception e) {
      // the test sees the outcome on the client side
    } finally {
      cut.countDown();
    }
  }

  static String readHeaders(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    while (!b.toString("ISO-8859-1").endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) throw new IOException("closed");
      b.write(c);
    }
    return b.toString("ISO-8859-1");
  }

  static void text(OutputStream out, String text) throws IOException {
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    out.write(0x81);
    if (payload.length < 126) {
      out.write(payload.length);
    } else {
      out.write(126);
      out.write(payload.length >> 8);
      out.write(payload.length & 0xff);
    }
    out.write(payload);
    out.flush();
  }

  /** Reads one masked client frame (short ones only) and ignores it. */
  static void readFrame(InputStream in) throws IOException {
    in.read();
    int len = in.read() & 0x7f;
    if (len == 126) len = (in.read() << 8) | in.read();
    for (int i = 0; i < 4 + len; i++) {
      if (in.read() < 0) throw new IOException("closed");
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
