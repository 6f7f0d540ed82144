package dev.svc.chat.transport.jdk;

import java.io.IOException;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Bounds how long a peer's TCP close can go unreported by the JDK. OpenJDK's WebSocket (17 to 25) reads a
 * connection's EOF whether or not a frame is asked for; when none is (the JDK is handing a message over on a
 * thread other than the selector's, its receive chain having moved to the thread that finished the upgrade or
 * called {@link WebSocket#request}), its {@code acknowledgeReception} throws an {@code InternalError} on the
 * selector thread, its reading stops for good and the listener is never told. Only silence shows then, so a
 * socket whose JDK is reading (a message asked for) and whose peer sent nothing for {@code silenceMillis} is sent
 * a Ping; if nothing at all arrives within {@code silenceMillis} more, the socket fails. A live peer answers
 * (RFC 6455 requires a Pong), so such a socket ends within about three times {@code silenceMillis} of its close.
 *
 * <p>Runs on the transport's one timer thread, every half {@code silenceMillis}; it ends with the socket (a
 * failure, the peer's Close, or a Close of ours, which has its own bound).
 */
final class SilenceCheck implements Runnable {
  /** The Ping's payload. */
  private static final byte[] PAYLOAD = {'s', 'v', 'c'};

  private final JdkSocket socket;
  private final long silenceNanos;
  private final LongSupplier nanoTime;
  private volatile @Nullable Future<?> task;
  /** When the unanswered Ping was sent, if {@link #pinging}; the check's thread only. */
  private long pingSentAt;
  private boolean pinging;

  SilenceCheck(JdkSocket socket, long silenceMillis, LongSupplier nanoTime) {
    this.socket = socket;
    this.silenceNanos = TimeUnit.MILLISECONDS.toNanos(silenceMillis);
    this.nanoTime = nanoTime;
  }

  /** Starts the checks on {@code timer}. */
  void start(ScheduledExecutorService timer) {
    long period = Math.max(1, TimeUnit.NANOSECONDS.toMillis(silenceNanos) / 2);
    task = timer.scheduleWithFixedDelay(this, period, period, TimeUnit.MILLISECONDS);
  }

  @Override
  public void run() {
    WebSocket w = socket.webSocket();
    if (w == null || socket.over()) {
      Future<?> t = task;
      if (t != null) t.cancel(false);
      return;
    }
    long now = nanoTime.getAsLong();
    long heard = socket.lastHeardNanos();
    if (!socket.reading()) {
      pinging = false; // the JDK reads nothing while the listener is a window behind: no answer can be seen
      return;
    }
    if (pinging && heard - pingSentAt < 0) {
      if (now - pingSentAt >= silenceNanos) {
        socket.fail(new IOException("the peer answered nothing within " + (silenceNanos / 1_000_000)
            + " ms of a ping: the connection is gone"));
      }
      return;
    }
    pinging = false;
    if (now - heard < silenceNanos) return;
    pinging = true;
    pingSentAt = now;
    CompletableFuture<WebSocket> ping;
    try {
      ping = w.sendPing(ByteBuffer.wrap(PAYLOAD));
    } catch (RuntimeException e) {
      ping = CompletableFuture.failedFuture(e);
    }
    ping.whenComplete((ws, e) -> {
      Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
      if (cause instanceof IOException) socket.fail(cause); // a write that failed: the connection is gone
    });
  }
}
