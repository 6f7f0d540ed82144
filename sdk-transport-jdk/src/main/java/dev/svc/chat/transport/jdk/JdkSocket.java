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

import dev.svc.chat.transport.TransportListener;
import dev.svc.chat.transport.TransportSocket;
import org.jspecify.annotations.Nullable;

/**
 * One socket of the {@link JdkTransport}: the JDK's {@link WebSocket} and its listener, adapted to the SPI.
 *
 * <p>Inbound: the JDK calls back on its selector thread (or its executor), one message part at a time as asked
 * for. A whole text message is queued here as it came (one part: the JDK's {@code CharBuffer}, decoded fresh for
 * each part and never reused, handed on without a copy) or assembled (several parts: one
 * {@link StringBuilder}, handed on as it is); the queue is drained in order by the readers' executor, one task
 * per socket at a time ({@link #run}). At most {@value #WINDOW} messages are asked for ahead of the listener: a
 * listener that blocks stops its own socket's reading, never the selector's.
 *
 * <p>Outbound: the JDK allows one send in flight per socket, so messages (and the Close after them) wait in a
 * queue of their own, counted in UTF-8 bytes for {@link #queueSize}; past {@value #MAX_QUEUE_BYTES} bytes the
 * socket fails, as OkHttp's does. A send is written by the thread that found the queue idle, or by the
 * completion of the write before it.
 */
final class JdkSocket implements TransportSocket, WebSocket.Listener, Runnable {
  /** Messages asked for ahead of the listener. */
  static final int WINDOW = 16;
  /** The most a send queue holds, as OkHttp's: past it the socket fails. */
  static final long MAX_QUEUE_BYTES = 16L * 1024 * 1024;
  /** The close marker in the send queue. */
  private static final Object CLOSE = new Object();
  /** A whole binary message in the inbound queue. */
  private static final Object BINARY = new Object();
  /** The open in the inbound queue. */
  private static final Object OPEN = new Object();

  private final TransportListener listener;
  private final Executor readers;
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
  private @Nullable ArrayDeque<Object> inbound;
  private boolean draining;

  /** The parts of a fragmented text message so far; the JDK's thread only (it calls back one at a time). */
  private @Nullable StringBuilder parts;
  /** Whether the listener had its last call; the drain only (drains follow each other under the monitor). */
  private boolean ended;

  JdkSocket(TransportListener listener, Executor readers) {
    this.listener = listener;
    this.readers = readers;
  }

  // ---------------------------------------------------------------- TransportSocket (any thread)

  @Override
  public boolean send(String text) {
    long size = utf8Size(text);
    boolean write;
    boolean overflow;
    synchronized (this) {
      if (cancelled || closeQueued) return false;
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

  /** Queues {@code item} to send; returns whether the caller is to write it (the queue was idle and open). */
  private boolean queue(Object item) {
    if (outbound == null) outbound = new ArrayDeque<>(4);
    outbound.add(item);
    if (writing || webSocket == null) return false;
    writing = true;
    return true;
  }

  /** Ends the socket as failed with {@code error}, once: the JDK's socket is aborted, the listener told. */
  private void fail(Throwable error) {
    WebSocket w;
    synchronized (this) {
      if (cancelled) return;
      cancelled = true;
      outbound = null;
      queuedBytes = 0;
      w = webSocket;
    }
    if (w != null) w.abort();
    deliver(new Signal(error, -1));
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
      if (item != CLOSE) queuedBytes -= utf8Size((String) item);
    }
    if (error == null || item == CLOSE) return true; // a Close the JDK sent already (echoing the peer's) is fine
    fail(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
    return false;
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

  // ---------------------------------------------------------------- the JDK's callbacks

  /** The upgrade's outcome (the JDK's thread). */
  void opened(@Nullable WebSocket w, @Nullable Throwable error) {
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
    deliver(new Signal(cause, status));
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
    w.request(WINDOW);
    deliver(OPEN);
    if (write) pump();
  }

  @Override
  public @Nullable CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
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
    deliver(message);
    return null;
  }

  @Override
  public @Nullable CompletionStage<?> onBinary(WebSocket w, ByteBuffer data, boolean last) {
    if (last) {
      deliver(BINARY);
    } else {
      w.request(1);
    }
    return null;
  }

  @Override
  public @Nullable CompletionStage<?> onPing(WebSocket w, ByteBuffer message) {
    w.request(1); // the JDK answers with a Pong itself
    return null;
  }

  @Override
  public @Nullable CompletionStage<?> onPong(WebSocket w, ByteBuffer message) {
    w.request(1);
    return null;
  }

  @Override
  public @Nullable CompletionStage<?> onClose(WebSocket w, int statusCode, String reason) {
    deliver(new Signal(statusCode, reason));
    return null; // the JDK closes the output now unless a Close was sent already
  }

  @Override
  public void onError(WebSocket w, Throwable error) {
    synchronized (this) {
      if (cancelled) return;
      cancelled = true;
      outbound = null;
      queuedBytes = 0;
    }
    deliver(new Signal(error, -1));
  }

  // ---------------------------------------------------------------- the hand-off to the listener

  /** Queues an event for the listener; starts a drain on the readers' executor when none runs. */
  private void deliver(Object item) {
    boolean post;
    synchronized (this) {
      if (inbound == null) inbound = new ArrayDeque<>(4);
      inbound.add(item);
      post = !draining;
      draining = true;
    }
    if (post) readers.execute(this);
  }

  /** The drain, on the readers' executor: the queued events to the listener in order, then more asked for. */
  @Override
  public void run() {
    int taken = 0;
    while (true) {
      Object item;
      synchronized (this) {
        item = inbound.poll();
        if (item == null) {
          draining = false;
          break;
        }
      }
      if (ended) continue;
      try {
        if (item instanceof CharSequence) {
          taken++;
          listener.onText(this, (CharSequence) item);
        } else if (item == BINARY) {
          taken++;
          listener.onBinary(this);
        } else if (item == OPEN) {
          listener.onOpen(this);
        } else {
          ended = true;
          ((Signal) item).tell(this, listener);
        }
      } catch (RuntimeException e) {
        fail(e); // a listener that threw cannot be trusted with the rest of the stream: its failure comes next
      }
      if (taken == WINDOW / 2) {
        ask(taken);
        taken = 0;
      }
    }
    if (taken > 0) ask(taken);
  }

  private void ask(int messages) {
    WebSocket w = webSocket;
    if (w != null && !ended) w.request(messages);
  }

  /** The end of the socket, for the listener: the peer's close, or a failure. */
  private static final class Signal {
    private final @Nullable Throwable error;
    private final int code;
    private final String reason;

    Signal(int code, String reason) {
      this.error = null;
      this.code = code;
      this.reason = reason;
    }

    Signal(Throwable error, int httpStatus) {
      this.error = error;
      this.code = httpStatus;
      this.reason = "";
    }

    void tell(JdkSocket socket, TransportListener listener) {
      if (error != null) {
        listener.onFailure(socket, error, code);
      } else {
        listener.onClosing(socket, code, reason);
        listener.onClosed(socket, code, reason);
      }
    }
  }

  /** Returns the size of {@code s} in UTF-8. */
  static long utf8Size(String s) {
    long size = 0;
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        size++;
      } else if (c < 0x800) {
        size += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        size += 4;
        i++;
      } else {
        size += 3;
      }
    }
    return size;
  }
}
