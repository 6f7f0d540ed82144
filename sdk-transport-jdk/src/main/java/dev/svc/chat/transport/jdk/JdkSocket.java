package dev.svc.chat.transport.jdk;

import java.io.IOException;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import dev.svc.chat.transport.TransportListener;
import dev.svc.chat.transport.TransportSocket;
import org.jspecify.annotations.Nullable;

/**
 * One socket of the {@link JdkTransport}: the JDK's {@link WebSocket} and its listener, adapted to the SPI.
 *
 * <p>Inbound: the JDK calls back on its selector thread (or its executor), one message part at a time as asked
 * for. A whole text message is handed on as it came (one part: the JDK's {@code CharBuffer}, without a copy: this
 * relies on OpenJDK's WebSocket decoding each part into a fresh buffer it never reuses) or assembled (several
 * parts: one {@link StringBuilder}, handed on as it is) to the socket's {@link InboundQueue}, which drains the
 * events to the listener on the readers' executor and asks the JDK for more as the listener takes them.
 *
 * <p>Outbound: the JDK allows one send in flight per socket, so messages (and the Close after them) wait in a
 * queue of their own, counted in UTF-8 bytes for {@link #queueSize}; past {@value #MAX_QUEUE_BYTES} bytes the
 * socket fails, as OkHttp's does. A send is written by the thread that found the queue idle, or by the
 * completion of the write before it. A Close written starts a timer on the transport's shared scheduler: a
 * peer that has not answered it within the transport's bound ({@link #CLOSE_TIMEOUT_MILLIS}) is aborted.
 *
 * <p>A peer's TCP close that the JDK loses is reported within a bound by a {@link SilenceCheck}.
 *
 * <p>Opening: the upgrade's future is kept until it completes, so a cancel before the open cancels the JDK's
 * exchange (and a success that races the cancel is aborted).
 */
final class JdkSocket implements TransportSocket, WebSocket.Listener {
  /** The most a send queue holds, as OkHttp's: past it the socket fails. */
  static final long MAX_QUEUE_BYTES = 16L * 1024 * 1024;
  /**
   * How long a Close written waits for the peer's answer before the socket is aborted (as OkHttp's 60 s: the
   * engine behaves the same on either transport, and a loaded gateway has time to answer).
   */
  static final long CLOSE_TIMEOUT_MILLIS = 60_000;
  /** The close marker in the send queue. */
  private static final Object CLOSE = new Object();

  /** The events on their way to the listener. */
  private final InboundQueue inbound;
  /** The transport's shared scheduler: close timeouts and the silence check. */
  private final ScheduledExecutorService timer;
  private final long closeTimeoutMillis;
  private final SilenceCheck silenceCheck;
  /** The clock of {@link #lastHeard} and the silence check (System.nanoTime but in tests). */
  private final LongSupplier clock;
  /** When the JDK last called back, on {@link #clock}. */
  private volatile long lastHeard;
  /** The upgrade in flight, until it completed; cancelled by a cancel before the open. */
  private volatile @Nullable CompletableFuture<WebSocket> opening;
  /** The JDK's socket once the upgrade succeeded; written under this object's monitor. */
  private volatile @Nullable WebSocket webSocket;

  // guarded by this object's monitor
  private @Nullable ArrayDeque<Object> outbound;
  private long queuedBytes;
  private boolean writing;
  private boolean closeQueued;
  private int closeCode;
  private String closeReason = "";
  /** Cancelled or failed: nothing more is sent, and the failure is queued for the listener. */
  private boolean cancelled;
  /** The peer's Close came: nothing more is sent but our Close. */
  private boolean peerClosed;
  /** Aborts the socket if the peer does not answer our Close in time; null when none is armed. */
  private @Nullable Future<?> closeTimeout;

  /** The parts of a fragmented text message so far; the JDK's thread only (it calls back one at a time). */
  private @Nullable StringBuilder parts;

  JdkSocket(TransportListener listener, Executor readers, ScheduledExecutorService timer, long closeTimeoutMillis,
      long silenceMillis, LongSupplier clock) {
    this.inbound = new InboundQueue(this, listener, readers, timer);
    this.timer = timer;
    this.closeTimeoutMillis = closeTimeoutMillis;
    this.clock = clock;
    this.lastHeard = clock.getAsLong();
    this.silenceCheck = new SilenceCheck(this, silenceMillis, clock);
  }

  /** Keeps the upgrade's future so that a cancel before the open cancels it. */
  void opening(CompletableFuture<WebSocket> upgrade) {
    opening = upgrade;
    upgrade.whenComplete(this::opened);
  }

  // ---------------------------------------------------------------- TransportSocket (any thread)

  @Override
  public boolean send(String text) {
    long size = Utf8.size(text);
    boolean write;
    boolean overflow;
    synchronized (this) {
      if (cancelled || closeQueued || peerClosed) return false;
      overflow = queuedBytes + size > MAX_QUEUE_BYTES;
      if (!overflow) queuedBytes += size;
      write = !overflow && queue(text);
    }
    if (overflow) {
      fail(new IOException("the send queue passed " + MAX_QUEUE_BYTES + " bytes"));
      return false;
    }
    if (write) pump();
    return true;
  }

  @Override
  public synchronized long queueSize() {
    return queuedBytes;
  }

  @Override
  public boolean close(int code, @Nullable String reason) {
    synchronized (this) {
      if (cancelled || closeQueued) return false;
      closeQueued = true;
      closeCode = code;
      closeReason = reason == null ? "" : reason;
      if (!queue(CLOSE)) return true;
    }
    pump();
    return true;
  }

  @Override
  public void cancel() {
    fail(new IOException("canceled"));
  }

  /**
   * Hands the message the listener is given in {@link TransportListener#onText} to it again after about
   * {@code delayMillis}, and nothing else meanwhile; the drain's thread is let go at once. Works from onText only.
   */
  @Override
  public boolean deferText(long delayMillis) {
    return inbound.deferText(delayMillis);
  }

  /** Queues {@code item} to send; returns whether the caller is to write it (the queue was idle and open). */
  private boolean queue(Object item) {
    if (outbound == null) outbound = new ArrayDeque<>(4);
    outbound.add(item);
    if (writing || webSocket == null) return false;
    writing = true;
    return true;
  }

  /** Ends the socket as failed with {@code error}, once: the JDK's socket is aborted, the listener told. */
  void fail(Throwable error) {
    WebSocket w;
    synchronized (this) {
      if (cancelled) return;
      cancelled = true;
      outbound = null;
      queuedBytes = 0;
      w = webSocket;
      stopCloseTimeout();
    }
    if (w != null) {
      w.abort();
    } else {
      CompletableFuture<WebSocket> upgrade = opening;
      if (upgrade != null) upgrade.cancel(true); // the JDK ends the exchange and closes its connection
    }
    inbound.end(new SocketEnd(error, -1));
  }

  private void stopCloseTimeout() {
    if (closeTimeout != null) closeTimeout.cancel(false);
    closeTimeout = null;
  }

  // ---------------------------------------------------------------- writing

  /** Writes the queued messages in order until the queue is empty or a write is still in flight. */
  private void pump() {
    while (true) {
      Object next;
      WebSocket w;
      synchronized (this) {
        ArrayDeque<Object> queue = outbound;
        if (cancelled || queue == null || queue.isEmpty()) {
          writing = false;
          return;
        }
        next = queue.peek();
        w = webSocket;
      }
      CompletableFuture<WebSocket> write;
      try {
        write = next == CLOSE ? w.sendClose(closeCode, closeReason) : w.sendText((String) next, true);
      } catch (RuntimeException e) {
        write = CompletableFuture.failedFuture(e);
      }
      if (!write.isDone()) {
        final Object item = next;
        write.whenComplete((ws, e) -> {
          if (written(item, e)) pump();
        });
        return;
      }
      if (!written(next, failure(write))) return;
    }
  }

  /** The write of {@code item} ended; returns whether to write on (else the socket failed or was cancelled). */
  private boolean written(Object item, @Nullable Throwable error) {
    synchronized (this) {
      if (cancelled || outbound == null) return false;
      outbound.poll();
      if (item != CLOSE) queuedBytes -= Utf8.size((String) item);
      if (item == CLOSE && !peerClosed) {
        closeTimeout = timer.schedule(this::closeTimedOut, closeTimeoutMillis, TimeUnit.MILLISECONDS);
      }
    }
    if (error == null || item == CLOSE) return true; // a Close the JDK sent already (echoing the peer's) is fine
    fail(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
    return false;
  }

  /** The peer did not answer our Close in time: the JDK has no bound of its own, so the socket is aborted. */
  private void closeTimedOut() {
    fail(new IOException("the peer did not answer the close within " + closeTimeoutMillis + " ms"));
  }

  private static @Nullable Throwable failure(CompletableFuture<?> done) {
    if (!done.isCompletedExceptionally()) return null;
    try {
      done.join();
      return null;
    } catch (CompletionException | CancellationException e) {
      return e.getCause() != null ? e.getCause() : e;
    }
  }

  // ---------------------------------------------------------------- for the SilenceCheck

  @Nullable WebSocket webSocket() {
    return webSocket;
  }

  long lastHeardNanos() {
    return lastHeard;
  }

  /** Whether the socket failed or a Close went either way (the JDK's silence is bounded otherwise then). */
  synchronized boolean over() {
    return cancelled || closeQueued || peerClosed;
  }

  /** Whether the JDK has a message asked for, and so reads. */
  boolean reading() {
    return inbound.reading();
  }

  // ---------------------------------------------------------------- the JDK's callbacks

  /** The upgrade's outcome (the JDK's thread). */
  void opened(@Nullable WebSocket w, @Nullable Throwable error) {
    opening = null;
    if (error == null) {
      boolean abort;
      synchronized (this) {
        abort = cancelled;
      }
      if (abort && w != null) w.abort();
      return;
    }
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    int status = cause instanceof WebSocketHandshakeException
        ? ((WebSocketHandshakeException) cause).getResponse().statusCode() : -1;
    synchronized (this) {
      if (cancelled) return;
      cancelled = true;
    }
    inbound.end(new SocketEnd(cause, status));
  }

  @Override
  public void onOpen(WebSocket w) {
    boolean write;
    synchronized (this) {
      if (cancelled) {
        w.abort();
        return;
      }
      webSocket = w;
      write = !writing && outbound != null && !outbound.isEmpty();
      if (write) writing = true;
    }
    inbound.open(w);
    if (write) pump();
    silenceCheck.start(timer);
  }

  @Override
  public @Nullable CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
    lastHeard = clock.getAsLong();
    if (!last) {
      if (parts == null) parts = new StringBuilder(Math.max(256, data.length() * 2));
      parts.append(data);
      w.request(1); // a part is not a message: the next one is asked for at once
      return null;
    }
    CharSequence message = data;
    if (parts != null) {
      message = parts.append(data);
      parts = null;
    }
    inbound.text(message);
    return null;
  }

  @Override
  public @Nullable CompletionStage<?> onBinary(WebSocket w, ByteBuffer data, boolean last) {
    lastHeard = clock.getAsLong();
    if (last) {
      inbound.binary();
    } else {
      w.request(1);
    }
    return null;
  }

  @Override
  public @Nullable CompletionStage<?> onPing(WebSocket w, ByteBuffer message) {
    lastHeard = clock.getAsLong();
    w.request(1); // the JDK answers with a Pong itself
    return null;
  }

  @Override
  public @Nullable CompletionStage<?> onPong(WebSocket w, ByteBuffer message) {
    lastHeard = clock.getAsLong();
    w.request(1);
    return null;
  }

  @Override
  public @Nullable CompletionStage<?> onClose(WebSocket w, int statusCode, String reason) {
    synchronized (this) {
      peerClosed = true;
      stopCloseTimeout();
    }
    inbound.end(new SocketEnd(statusCode, reason));
    return null; // the JDK closes the output now unless a Close was sent already
  }

  @Override
  public void onError(WebSocket w, Throwable error) {
    synchronized (this) {
      if (cancelled) return;
      cancelled = true;
      outbound = null;
      queuedBytes = 0;
      stopCloseTimeout();
    }
    inbound.end(new SocketEnd(error, -1));
  }
}
