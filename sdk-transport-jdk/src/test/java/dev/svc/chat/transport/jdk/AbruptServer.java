package dev.svc.chat.transport.jdk;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A WebSocket server on loopback that answers each of a client's first two messages with a text frame, and closes
 * the TCP connection right after the second answer, without a close frame: the EOF arrives while the client is
 * still handing that answer over. (The first exchange lets the client's open end first.)
 */
final class AbruptServer implements AutoCloseable {

  private final ServerSocket server = new ServerSocket(0, 100, InetAddress.getByName("127.0.0.1"));
  private final Thread acceptor = new Thread(this::acceptAll, "abrupt-server");
  private final String frameText;

  AbruptServer(String frameText) throws IOException {
    this.frameText = frameText;
    acceptor.setDaemon(true);
    acceptor.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getLocalPort() + "/socket.io/?EIO=4&transport=websocket";
  }

  private void acceptAll() {
    while (!server.isClosed()) {
      try (Socket s = server.accept()) {
        answer(s);
      } catch (IOException | RuntimeException e) {
        // the server closed, or a client went away: the next one
      }
    }
  }

  /** Answers the upgrade and the client's first two frames, and returns: the caller's close is the drop. */
  private void answer(Socket s) throws IOException {
    OutputStream out = s.getOutputStream();
    if (!RawHandshake.accept(RawHandshake.readHeaders(s.getInputStream()), out)) return;
    byte[] payload = frameText.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    frame.write(0x81); // FIN, text; a server's frames are not masked
    frame.write(payload.length); // under 126 bytes
    frame.write(payload);
    for (int i = 0; i < 2; i++) {
      skipFrame(s.getInputStream());
      out.write(frame.toByteArray());
      out.flush();
    }
  }

  /** Reads past the client's first frame (masked, under 126 bytes of payload). */
  private static void skipFrame(InputStream in) throws IOException {
    in.read();
    int length = in.read() & 0x7f;
    for (int i = 0; i < 4 + length; i++) {
      if (in.read() < 0) throw new IOException("the client closed in its frame");
    }
  }



  @Override
  public void close() throws Exception {
    server.close();
    acceptor.join(10_000);
  }
}
