package dev.svc.chat.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Checks, from inside a callback, that the helper calling it does not hold its lock: the calling thread must not
 * hold it, and another thread must be able to call into the helper (which takes the lock) without blocking.
 */
public final class LockProbe {
  /**
   * How long the other thread may take: a loaded machine may hold a thread back for seconds, and a helper that
   * is not locked answers at once, so only a violation waits it out.
   */
  private static final long PATIENCE_MILLIS = TimeUnit.SECONDS.toMillis(FakeGateway.TIMEOUT_SECONDS);

  public final List<String> violations = new CopyOnWriteArrayList<>();
  private int probes;

  /**
   * Records a violation if this thread holds {@code lock}, or if {@code intoHelper} run on another thread has not
   * returned within {@link #PATIENCE_MILLIS}.
   */
  public void check(String where, Object lock, Runnable intoHelper) {
    synchronized (this) {
      probes++;
    }
    if (Thread.holdsLock(lock)) violations.add(where + ": called while holding the helper's lock");
    Thread other = new Thread(intoHelper, "lock-probe");
    other.setDaemon(true);
    other.start();
    try {
      other.join(PATIENCE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (other.isAlive()) violations.add(where + ": another thread blocked calling into the helper");
  }

  /** Returns how many checks ran. */
  public synchronized int probes() {
    return probes;
  }
}
