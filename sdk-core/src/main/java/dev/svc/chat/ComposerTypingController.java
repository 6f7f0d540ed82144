package dev.svc.chat;

import java.util.ArrayDeque;

import dev.svc.chat.internal.util.ClientLoggers;
import dev.svc.chat.internal.util.SharedTimer;
import dev.svc.chat.internal.util.Inputs;
import dev.svc.chat.internal.util.Log;
import org.jspecify.annotations.Nullable;

/**
 * Sends the user's typing indicator for one room while they compose, like the JS SDK's
 * {@code ComposerTypingController}. Call {@link #onInput(String)} on every change of the composer's text
 * and {@link #onSend()} when the message is sent.
 *
 * <ul>
 *   <li>The first input sends {@code typing=true}; while input goes on, {@code typing=true} is sent again at
 *       most once per {@linkplain Builder#throttleMillis throttle interval} (default 3 s), which keeps other
 *       users' indicators alive without flooding the gateway.</li>
 *   <li>After {@linkplain Builder#idleMillis an idle delay} without input (default 3 s), on send, when the
 *       text becomes empty, on {@link #stop()} and on {@link #close()}, {@code typing=false} is sent once,
 *       and only if {@code typing=true} was sent before.</li>
 * </ul>
 *
 * <p>Typing is best effort: a failed {@link ChatClient#setTyping} (for example while disconnected) is
 * ignored and the next input tries again. Thread-safe; timers run on the {@link TaskScheduler} given to the
 * builder (by default a shared daemon thread).
 *
 * <p>The controller never calls out (to {@link ChatClient#setTyping}, which may be the app's own client, or to
 * the {@link TaskScheduler}) while it holds its lock; its calls keep the order in which it decided them. A
 * {@code setTyping} or scheduler that throws is logged through the {@linkplain Builder#logger logger} (by
 * default the client's) instead of being swallowed.
 */
public final class ComposerTypingController implements AutoCloseable {
  /** The default minimum interval between two {@code typing=true}, in milliseconds. */
  public static final long DEFAULT_THROTTLE_MILLIS = 3000;
  /** The default delay without input after which typing stops, in milliseconds. */
  public static final long DEFAULT_IDLE_MILLIS = 3000;

  private final ChatClient client;
  private final String roomId;
  private final long throttleMillis;
  private final long idleMillis;
  private final TaskScheduler scheduler;
  private final Log log;

  // guarded by this
  private boolean typing;
  private long lastTrueAt;
  private long lastInputAt;
  private boolean closed;
  // the idle timer: armSeq names the current one; a timer or a scheduling of an older seq is stale
  private boolean armed;
  private long armSeq;
  private TaskScheduler.@Nullable Cancellable idleTimer;
  // calls decided under the lock, made outside it in order by one thread at a time
  private final ArrayDeque<Runnable> calls = new ArrayDeque<>();
  private boolean calling;

  private ComposerTypingController(Builder b) {
    this.client = b.client;
    this.roomId = b.roomId;
    this.throttleMillis = b.throttleMillis;
    this.idleMillis = b.idleMillis;
    this.scheduler = b.scheduler != null ? b.scheduler : SharedTimer.get();
    this.log = new Log(b.logger != null ? b.logger : ClientLoggers.of(b.client));
  }

  /**
   * Returns a controller with the default timing.
   *
   * @param client the client whose joined room is {@code roomId}
   * @param roomId the room being composed in
   * @return a new controller
   */
  public static ComposerTypingController create(ChatClient client, String roomId) {
    return builder(client, roomId).build();
  }

  /**
   * Returns a builder.
   *
   * @param client the client whose joined room is {@code roomId}
   * @param roomId the room being composed in
   * @return a new builder
   */
  public static Builder builder(ChatClient client, String roomId) {
    return new Builder(client, roomId);
  }

  /**
   * Reports a change of the composer's text: non-empty text counts as typing, empty text stops it.
   *
   * @param text the composer's text now
   */
  public void onInput(String text) {
    Inputs.nonNull(text, "text");
    if (text.isEmpty()) {
      stop();
    } else {
      onInput();
    }
  }

  /** Reports a keystroke (or any sign of composing) without giving the text. */
  public void onInput() {
    long now = scheduler.nowMillis(); // the scheduler may be the app's: never called under the lock
    synchronized (this) {
      if (closed) return;
      lastInputAt = Math.max(lastInputAt, now); // racing inputs may read the clock in either order
      if (!typing || now - lastTrueAt >= throttleMillis) {
        typing = true;
        lastTrueAt = now;
        queueSend(true);
      }
      if (!armed) queueArm(idleMillis);
    }
    makeCalls();
  }

  /** Reports that the message was sent: typing stops at once. */
  public void onSend() {
    stop();
  }

  /** Stops typing now: sends {@code typing=false} if {@code typing=true} was sent. */
  public void stop() {
    synchronized (this) {
      stopLocked();
    }
    makeCalls();
  }

  /**
   * Returns whether the controller considers the user typing ({@code typing=true} sent and not yet ended).
   *
   * @return true while typing
   */
  public synchronized boolean isTyping() {
    return typing;
  }

  /** Stops typing and ignores later input. Calling it again does nothing. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) return;
      stopLocked();
      closed = true;
    }
    makeCalls();
  }

  private void stopLocked() {
    if (armed) {
      armed = false;
      armSeq++; // a timer already running or being scheduled is now stale
      final TaskScheduler.Cancellable timer = idleTimer;
      idleTimer = null;
      if (timer != null) {
        calls.add(new Runnable() {
          @Override
          public void run() {
            cancel(timer);
          }
        });
      }
    }
    if (typing) {
      typing = false;
      queueSend(false);
    }
  }

  private void onIdleTimer(long seq) {
    long now = scheduler.nowMillis();
    synchronized (this) {
      if (closed || !armed || seq != armSeq) return;
      armed = false;
      idleTimer = null;
      if (!typing) return;
      // one timer per idle period: re-arm for what is left since the latest input instead of per keystroke
      long left = lastInputAt + idleMillis - now;
      if (left > 0) {
        queueArm(left);
      } else {
        typing = false;
        queueSend(false);
      }
    }
    makeCalls();
  }

  private void queueArm(final long delay) {
    armed = true;
    final long seq = ++armSeq;
    idleTimer = null;
    calls.add(new Runnable() {
      @Override
      public void run() {
        arm(seq, delay);
      }
    });
  }

  private void arm(final long seq, long delay) {
    TaskScheduler.Cancellable timer;
    try {
      timer = scheduler.schedule(new Runnable() {
        @Override
        public void run() {
          onIdleTimer(seq);
        }
      }, delay);
    } catch (RuntimeException e) {
      log.warn("the TaskScheduler threw; typing stops at the next input or stop() instead of after the idle delay", e);
      synchronized (this) {
        if (armed && seq == armSeq) armed = false; // the next input tries again
      }
      return;
    }
    synchronized (this) {
      if (armed && seq == armSeq && idleTimer == null) {
        idleTimer = timer;
        return;
      }
    }
    cancel(timer); // stopped (or fired) while it was being scheduled
  }

  private void cancel(TaskScheduler.Cancellable timer) {
    try {
      timer.cancel();
    } catch (RuntimeException e) {
      log.warn("cancelling the idle timer threw", e);
    }
  }

  private void queueSend(final boolean isTyping) {
    calls.add(new Runnable() {
      @Override
      public void run() {
        send(isTyping);
      }
    });
  }

  private void send(boolean isTyping) {
    try {
      client.setTyping(roomId, isTyping);
    } catch (RuntimeException e) {
      // best effort (the client may be closed), but not silent: a throwing client is a bug worth seeing
      log.warn("setTyping(" + roomId + ", " + isTyping + ") threw; typing is best effort", e);
    }
  }

  /**
   * Makes the queued calls, without the lock: the thread that finds nobody calling does it for all, so the
   * calls keep the order in which they were decided even when input, timers and stop() race.
   */
  private void makeCalls() {
    synchronized (this) {
      if (calling) return;
      calling = true;
    }
    while (true) {
      Runnable next;
      synchronized (this) {
        next = calls.poll();
        if (next == null) {
          calling = false;
          return;
        }
      }
      next.run();
    }
  }

  /** Builds a {@link ComposerTypingController}. */
  public static final class Builder {
    private final ChatClient client;
    private final String roomId;
    private long throttleMillis = DEFAULT_THROTTLE_MILLIS;
    private long idleMillis = DEFAULT_IDLE_MILLIS;
    private @Nullable TaskScheduler scheduler;
    private @Nullable ChatLogger logger;

    Builder(ChatClient client, String roomId) {
      this.client = Inputs.nonNull(client, "client");
      this.roomId = Inputs.roomId(roomId);
    }

    /**
     * Sets the minimum interval between two {@code typing=true} while the user keeps typing.
     *
     * @param millis at least 1
     * @return this builder
     */
    public Builder throttleMillis(long millis) {
      if (millis < 1) throw new IllegalArgumentException("throttleMillis < 1: " + millis);
      this.throttleMillis = millis;
      return this;
    }

    /**
     * Sets how long without input ends typing.
     *
     * @param millis at least 1
     * @return this builder
     */
    public Builder idleMillis(long millis) {
      if (millis < 1) throw new IllegalArgumentException("idleMillis < 1: " + millis);
      this.idleMillis = millis;
      return this;
    }

    /**
     * Sets the time source and timers (tests pass a virtual one).
     *
     * @param scheduler the scheduler
     * @return this builder
     */
    public Builder scheduler(TaskScheduler scheduler) {
      this.scheduler = Inputs.nonNull(scheduler, "scheduler");
      return this;
    }

    /**
     * Sets the logger for a {@code setTyping} or scheduler that throws. By default the client's own (the one in
     * the {@link SvcOptions} it was made with), or none for a client not made by {@link Svc#init}.
     *
     * @param logger the logger
     * @return this builder
     */
    public Builder logger(ChatLogger logger) {
      this.logger = Inputs.nonNull(logger, "logger");
      return this;
    }

    /**
     * Returns the controller.
     *
     * @return a new controller
     */
    public ComposerTypingController build() {
      return new ComposerTypingController(this);
    }
  }
}
