package dev.svc.chat.transport.jdk;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A peer on loopback that never answers: it accepts one TCP connection and reads the upgrade request, then either
 * stays silent ({@code upgrade} false) or answers the upgrade and reads the client's frames, a Close among them,
 * without ever answering one. It counts down {@link #eof} when the client closes the TCP connection.
 */
final class SilentServer implements AutoCloseable {
  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  private static final Pattern KEY = Pattern.compile("(?im)^Sec-WebSocket-Key:\\s*(\\S+)\\s*$");

  /** Counted down once the upgrade request was read. */
  final CountDownLatch requested = new CountDownLatch(1);
  /** Counted down once the client closed the connection (EOF or reset). */
  final CountDownLatch eof = new CountDownLatch(1);
  private final ServerSocket server = new ServerSocket(0, 10, InetAddress.getByName("127.0.0.1"));
  private final Thread acceptor = new Thread(this::serve, "silent-server");
  private final boolean upgrade;
  private volatile Socket accepted;

  SilentServer(boolean upgrade) throws IOException {
    this.upgrade = upgrade;
    acceptor.setDaemon(true);
    acceptor.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getLocalPort() + "/socket.io/?EIO=4&transport=websocket";
  }

  private void serve() {
    try (Socket s = server.accept()) {
      accepted = s;
      InputStream in = s.getInputStream();
      String request = readHeaders(in);
      requested.countDown();
      if (upgrade) {
        Matcher m = KEY.matcher(request);
        if (!m.find()) return;
        String accept = Base64.getEncoder().encodeToString(sha1(m.group(1) + GUID));
        OutputStream out = s.getOutputStream();
        out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      }
      while (in.read() >= 0) {
        // swallowed: frames, a Close among them
      }
    } catch (IOException e) {
      // a reset is an end too; or the server closed
    }
    eof.countDown();
  }

  private static String readHeaders(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 4 || !sb.substring(sb.length() - 4).equals("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) throw new IOException("the client closed before its headers ended");
      sb.append((char) b);
    }
    return sb.toString();
  }

  private static byte[] sha1(String s) {
    try {
      return MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.ISO_8859_1));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() throws Exception {
    server.close();
    Socket s = accepted;
    if (s != null) s.close();
    acceptor.join(10_000);
  }
}
