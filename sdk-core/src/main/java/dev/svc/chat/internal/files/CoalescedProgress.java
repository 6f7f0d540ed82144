package dev.svc.chat.internal.files;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.svc.chat.TransferListener;

/**
 * A download's progress relayed to the app's listener on its callback executor, one task at a time: while a report
 * waits to run, newer figures replace its own instead of queueing a task each (a fast download reports every 64
 * KiB, and a task per report cost a hand-over between threads each). The listener hears the latest figures, in
 * order, and always the last ones.
 */
final class CoalescedProgress implements FileDownload.Progress {
  private final TransferListener listener;
  private final Executor callbacks;
  private final AtomicBoolean queued = new AtomicBoolean();
  private final Object lock = new Object();
  private long done; // guarded by lock
  private long total; // guarded by lock

  CoalescedProgress(TransferListener listener, Executor callbacks) {
    this.listener = listener;
    this.callbacks = callbacks;
  }

  @Override
  public void bytes(long done, long total) {
    synchronized (lock) {
      this.done = done;
      this.total = total;
    }
    // A task that cleared the flag reads the figures after it: set before the flag is tested, they are heard
    if (queued.compareAndSet(false, true)) callbacks.execute(this::report);
  }

  private void report() {
    queued.set(false);
    long d;
    long t;
    synchronized (lock) {
      d = done;
      t = total;
    }
    listener.onProgress(d, t);
  }
}
