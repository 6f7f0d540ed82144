package dev.svc.chat.it.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP proxy in front of several servers, standing in for a load balancer: each new connection goes
 * to the first upstream that accepts it, in the order given, so when the preferred server dies (its port
 * refuses) clients reconnect to the next. It never cuts a connection itself: an upstream that dies ends its
 * connections.
 */
public final class FailoverProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final List<Integer> upstreams;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "failover-proxy");
    t.setDaemon(true);
    return t;
  });
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /** Listens on a free port of 127.0.0.1, forwarding to these ports of 127.0.0.1, the first preferred. */
  public FailoverProxy(List<Integer> upstreamPorts) throws IOException {
    this.upstreams = List.copyOf(upstreamPorts);
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  /** Returns {@code http://127.0.0.1:<port>/v1}: an SDK {@code apiUrl} through this proxy. */
  public String apiUrl() {
    return "http://127.0.0.1:" + listener.getLocalPort() + "/v1";
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        open.add(client);
        threads.execute(() -> connect(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void connect(Socket client) {
    for (int port : upstreams) {
      Socket upstream = new Socket();
      try {
        upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
      } catch (IOException refused) {
        closeQuietly(upstream);
        continue;
      }
      open.add(upstream);
      threads.execute(() -> pump(client, upstream));
      pump(upstream, client);
      return;
    }
    closeQuietly(client);
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException ignored) {
      // one side ended: end both
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private void closeQuietly(Socket s) {
    open.remove(s);
    try {
      s.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
    open.forEach(this::closeQuietly);
    threads.shutdownNow();
    try {
      threads.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
