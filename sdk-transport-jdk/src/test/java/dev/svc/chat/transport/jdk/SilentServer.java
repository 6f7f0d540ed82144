package dev.svc.chat.transport.jdk;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;

/**
 * A peer on loopback that never answers: it accepts one TCP connection and reads the upgrade request, then either
 * stays silent ({@code upgrade} false) or answers the upgrade and reads the client's frames, a Close among them,
 * without ever answering one. It counts down {@link #eof} when the client closes the TCP connection.
 */
final class SilentServer implements AutoCloseable {

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
      String request = RawHandshake.readHeaders(in);
      requested.countDown();
      if (upgrade && !RawHandshake.accept(request, s.getOutputStream())) return;
      while (in.read() >= 0) {
        // swallowed: frames, a Close among them
      }
    } catch (IOException e) {
      // a reset is an end too; or the server closed
    }
    eof.countDown();
  }



  @Override
  public void close() throws Exception {
    server.close();
    Socket s = accepted;
    if (s != null) s.close();
    acceptor.join(10_000);
  }
}
