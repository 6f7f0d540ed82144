package dev.svc.chat.transport.jdk;

import java.net.http.WebSocket;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.transport.TransportListener;

/**
 * The events of one {@link JdkSocket} on their way to its listener, and the JDK's demand that follows them.
 *
 * <p>The JDK's callbacks queue the events (the open, whole messages, the end) in the order they came; the queue is
 * drained in that order by the readers' executor, one task per socket at a time, at most {@value #BATCH} events a
 * turn before the socket goes to the back of the executor's queue ({@link #run}). At most {@value #WINDOW}
 * messages are asked of the JDK ahead of the listener: what the listener took is asked for again. The readers are
 * shared by many sockets, so the listener is not to block: to wait (the engine's inbound gate) it calls
 * {@link #deferText}, and the message is handed to it again later; meanwhile the socket hands over nothing, asks
 * for nothing, and TCP pushes back on the peer. A listener that blocks anyway holds a shared thread and stops the
 * sockets queued behind it. The end (the peer's close or a failure) is the listener's last call.
 *
 * <p>Its state is guarded by its own monitor, never held while the socket's is: the socket queues events outside
 * its monitor, and the drain calls the listener and the socket outside this one.
 */
final class InboundQueue implements Runnable {
  /** Messages asked for ahead of the listener. */
  static final int WINDOW = 16;
  /** The most events one drain hands over before it lets the executor's other sockets have their turn. */
  static final int BATCH = WINDOW;
  /** A whole binary message in the queue. */
  private static final Object BINARY = new Object();
  /** The open in the queue. */
  private static final Object OPEN = new Object();

  private final JdkSocket socket;
  private final TransportListener listener;
  private final Executor readers;
  /** The transport's shared scheduler: deferred messages. */
  private final ScheduledExecutorService timer;

  // guarded by this object's monitor
  private final ArrayDeque<Object> events = new ArrayDeque<>(4);
  private boolean draining;
  /** Whole messages the JDK handed over that were not asked for again: the JDK reads while under the window. */
  private int owed;

  /** Whether the listener had its last call; the drain only (drains follow each other under the monitor). */
  private boolean ended;
  /** Whether the drain is in the listener's onText; the drain only. */
  private boolean inText;
  /** The delay the listener asked for by {@link #deferText} in its current onText, else -1; the drain only. */
  private long deferMillis = -1;

  InboundQueue(JdkSocket socket, TransportListener listener, Executor readers, ScheduledExecutorService timer) {
    this.socket = socket;
    this.listener = listener;
    this.readers = readers;
    this.timer = timer;
  }

  /** The upgrade succeeded: asks {@code w} for a window of messages and queues the open. */
  void open(WebSocket w) {
    w.request(WINDOW);
    add(OPEN);
  }

  /** Queues a whole text message, handed to the listener as it is. */
  void text(CharSequence message) {
    add(message);
  }

  /** Queues a whole binary message (the listener is told only that one came). */
  void binary() {
    add(BINARY);
  }

  /** Queues the socket's end: the listener's last call. */
  void end(SocketEnd end) {
    add(end);
  }

  /** Whether the JDK has a message asked for, and so reads. */
  synchronized boolean reading() {
    return owed < WINDOW;
  }

  /**
   * Hands the message the listener is given in {@link TransportListener#onText} to it again after about
   * {@code delayMillis}, and nothing else meanwhile; the drain's thread is let go at once. Works from onText only.
   */
  boolean deferText(long delayMillis) {
    if (!inText) return false;
    deferMillis = Math.max(0, delayMillis);
    return true;
  }

  /** Queues an event for the listener; starts a drain on the readers' executor when none runs. */
  private void add(Object item) {
    boolean post;
    synchronized (this) {
      events.add(item);
      if (item instanceof CharSequence || item == BINARY) owed++;
      post = !draining;
      draining = true;
    }
    if (post) readers.execute(this);
  }

  /**
   * The drain, on the readers' executor: up to {@value #BATCH} queued events to the listener in order, then more
   * asked for; the rest in a later turn. A deferred message goes back to the queue's head and the drain ends
   * until the deferral's delay passed ({@link #draining} stays set, so events are only queued meanwhile).
   */
  @Override
  public void run() {
    int taken = 0;
    int handed = 0;
    boolean more = false;
    while (true) {
      Object item;
      synchronized (this) {
        item = events.poll();
        if (item == null) {
          draining = false;
          break;
        }
        if (handed == BATCH) {
          events.addFirst(item);
          more = true;
          break;
        }
      }
      handed++;
      if (ended) continue;
      try {
        if (item instanceof CharSequence) {
          if (!handOver((CharSequence) item)) {
            synchronized (this) {
              events.addFirst(item);
            }
            if (taken > 0) ask(taken);
            timer.schedule(() -> readers.execute(this), deferMillis, TimeUnit.MILLISECONDS);
            return;
          }
          taken++;
        } else if (item == BINARY) {
          taken++;
          listener.onBinary(socket);
        } else if (item == OPEN) {
          listener.onOpen(socket);
        } else {
          ended = true;
          ((SocketEnd) item).tell(socket, listener);
        }
      } catch (Throwable e) {
        // a listener that threw cannot be trusted with the rest of the stream: its failure comes next (an Error
        // too: rethrown, it would leave the drain marked running and the socket silent for good)
        socket.fail(e);
      }
      if (taken == WINDOW / 2) {
        ask(taken);
        taken = 0;
      }
    }
    if (taken > 0) ask(taken);
    if (more) readers.execute(this);
  }

  /** Hands a message to the listener; returns false when the listener deferred it ({@link #deferText}). */
  private boolean handOver(CharSequence message) {
    deferMillis = -1;
    inText = true;
    try {
      listener.onText(socket, message);
    } finally {
      inText = false;
    }
    return deferMillis < 0;
  }

  private void ask(int messages) {
    synchronized (this) {
      owed -= messages;
    }
    WebSocket w = socket.webSocket();
    if (w != null && !ended) w.request(messages);
  }
}
