package dev.svc.chat.it.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** A loopback TCP echo server for the proxy's tests: writes back every byte it reads; counts them. */
final class EchoServer implements AutoCloseable {
  private final ServerSocket listener;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final AtomicLong received = new AtomicLong();
  private volatile boolean closed;

  EchoServer() throws IOException {
    listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    start("echo-accept", this::acceptLoop);
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Bytes read from all connections so far. */
  long received() {
    return received.get();
  }

  private void start(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket s = listener.accept();
        sockets.add(s);
        start("echo-conn", () -> echo(s));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void echo(Socket s) {
    byte[] buf = new byte[8192];
    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
      for (int n; (n = in.read(buf)) >= 0; ) {
        received.addAndGet(n);
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (IOException ignored) {
      // the peer reset or we closed
    }
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    try {
      listener.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    for (Socket s : sockets) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    for (Thread t : threads) t.join(5000);
  }
}
