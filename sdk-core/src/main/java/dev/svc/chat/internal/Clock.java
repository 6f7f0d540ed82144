package dev.svc.chat.internal;

/** The time source of a client, injected so tests can use a virtual one. */
public interface Clock {
  /** The system clock. */
  Clock SYSTEM = new Clock() {
    @Override
    public long nowMillis() {
      return System.currentTimeMillis();
    }

    @Override
    public long nanoTime() {
      return System.nanoTime();
    }
  };

  /** Returns the wall-clock time in epoch milliseconds (for token expiry). */
  long nowMillis();

  /** Returns a monotonic time in nanoseconds (for durations). */
  long nanoTime();
}
