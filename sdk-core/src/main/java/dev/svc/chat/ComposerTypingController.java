package dev.svc.chat;

import dev.svc.chat.internal.SharedTimer;
import dev.svc.chat.internal.Inputs;

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

  // guarded by this
  private boolean typing;
  private long lastTrueAt;
  private long lastInputAt;
  private TaskScheduler.Cancellable idleTimer;
  private boolean closed;

  private ComposerTypingController(Builder b) {
    this.client = b.client;
    this.roomId = b.roomId;
    this.throttleMillis = b.throttleMillis;
    this.idleMillis = b.idleMillis;
    this.scheduler = b.scheduler != null ? b.scheduler : SharedTimer.get();
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
  public synchronized void onInput() {
    if (closed) return;
    long now = scheduler.nowMillis();
    lastInputAt = now;
    if (!typing || now - lastTrueAt >= throttleMillis) {
      typing = true;
      lastTrueAt = now;
      send(true);
    }
    if (idleTimer == null) armIdleTimer(idleMillis);
  }

  /** Reports that the message was sent: typing stops at once. */
  public void onSend() {
    stop();
  }

  /** Stops typing now: sends {@code typing=false} if {@code typing=true} was sent. */
  public synchronized void stop() {
    cancelIdleTimer();
    if (typing) {
      typing = false;
      send(false);
    }
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
  public synchronized void close() {
    if (closed) return;
    stop();
    closed = true;
  }

  private void armIdleTimer(long delay) {
    idleTimer = scheduler.schedule(new Runnable() {
      @Override
      public void run() {
        onIdleTimer();
      }
    }, delay);
  }

  private synchronized void onIdleTimer() {
    idleTimer = null;
    if (closed || !typing) return;
    // one timer per idle period: re-arm for what is left since the latest input instead of per keystroke
    long left = lastInputAt + idleMillis - scheduler.nowMillis();
    if (left > 0) {
      armIdleTimer(left);
    } else {
      typing = false;
      send(false);
    }
  }

  private void cancelIdleTimer() {
    if (idleTimer != null) {
      idleTimer.cancel();
      idleTimer = null;
    }
  }

  private void send(boolean isTyping) {
    try {
      client.setTyping(roomId, isTyping);
    } catch (RuntimeException e) {
      // best effort: the client may be closed; the indicator simply does not show
    }
  }

  /** Builds a {@link ComposerTypingController}. */
  public static final class Builder {
    private final ChatClient client;
    private final String roomId;
    private long throttleMillis = DEFAULT_THROTTLE_MILLIS;
    private long idleMillis = DEFAULT_IDLE_MILLIS;
    private TaskScheduler scheduler;

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
     * Returns the controller.
     *
     * @return a new controller
     */
    public ComposerTypingController build() {
      return new ComposerTypingController(this);
    }
  }
}
