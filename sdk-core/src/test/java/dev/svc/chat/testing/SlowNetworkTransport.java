package dev.svc.chat.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.transport.Transport;
import dev.svc.chat.transport.TransportListener;
import dev.svc.chat.transport.TransportSocket;

/**
 * A transport over another whose sockets count their outgoing queue as a network the test drains: a frame stays
 * queued until the test says the gateway read it ({@link #read}), and a send that would take the queue past
 * {@link #LIMIT} fails the socket, as OkHttp and the JDK transport do at 16 MiB. The frames still go through the
 * delegate at once; only the count models a slow network, deterministically (a real queue drains at a speed a
 * loaded machine decides).
 */
public final class SlowNetworkTransport implements Transport {
  /** OkHttp's limit of queued bytes: past it the socket is failed. */
  public static final long LIMIT = 16L * 1024 * 1024;

  private final Transport delegate;
  private final AtomicInteger opened = new AtomicInteger();
  // guarded by this
  private final ArrayDeque<Integer> queue = new ArrayDeque<>();
  private long queued;
  private long maxQueued;
  private int overflows;
  /** The frames of under 1,000 characters sent (not those refused), for {@link #sent}. */
  private final java.util.List<String> small = new java.util.ArrayList<>();

  public SlowNetworkTransport(Transport delegate) {
    this.delegate = delegate;
  }

  @Override
  public TransportSocket open(String url, Map<String, String> headers, TransportListener listener) {
    opened.incrementAndGet();
    final TransportSocket socket = delegate.open(url, headers, listener);
    return new ForwardingSocket(socket) {
      @Override
      public boolean send(String text) {
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        synchronized (SlowNetworkTransport.this) {
          if (queued + bytes <= LIMIT && text.length() < 1_000) small.add(text);
          if (queued + bytes > LIMIT) {
            overflows++;
          } else {
            queue.add(bytes);
            queued += bytes;
            maxQueued = Math.max(maxQueued, queued);
            return socket.send(text);
          }
        }
        socket.cancel();
        return false;
      }

      @Override
      public long queueSize() {
        synchronized (SlowNetworkTransport.this) {
          return queued;
        }
      }

    };
  }

  /** The gateway read the oldest frame still queued: it leaves the queue. */
  public synchronized void read() {
    Integer bytes = queue.poll();
    if (bytes != null) queued -= bytes;
  }

  /** The gateway read every frame sent so far. */
  public synchronized void readAll() {
    queue.clear();
    queued = 0;
  }

  /** Returns whether a frame of under 1,000 characters containing {@code fragment} was sent. */
  public synchronized boolean sent(String fragment) {
    for (String frame : small) if (frame.contains(fragment)) return true;
    return false;
  }

  /** Returns how many sends found the queue full (each failed its socket). */
  public synchronized int overflows() {
    return overflows;
  }

  /** Returns the most bytes queued at once. */
  public synchronized long maxQueued() {
    return maxQueued;
  }

  /** Returns how many sockets were opened. */
  public int opened() {
    return opened.get();
  }
}
