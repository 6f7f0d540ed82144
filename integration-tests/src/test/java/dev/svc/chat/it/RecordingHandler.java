package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertNull;

import dev.svc.chat.EventHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Records the events a handler receives, for tests to take one by one with a deadline. */
final class RecordingHandler<T> implements EventHandler<T> {
  private final BlockingQueue<T> events = new LinkedBlockingQueue<>();
  final BlockingQueue<Thread> threads = new LinkedBlockingQueue<>();
  private final List<T> seen = new CopyOnWriteArrayList<>();

  @Override
  public void onEvent(T event) {
    threads.add(Thread.currentThread());
    seen.add(event);
    events.add(event);
  }

  /** Returns every event received so far, taken or not. */
  List<T> all() {
    return new ArrayList<>(seen);
  }

  /** Returns the next event, failing if none comes within {@code timeout}. */
  T next(Duration timeout) throws InterruptedException {
    T e = events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (e == null) throw new AssertionError("no event within " + timeout);
    return e;
  }

  T next() throws InterruptedException {
    return next(Duration.ofSeconds(10));
  }

  /** Returns the next event that matches, skipping others. */
  T next(Predicate<T> matcher) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      T e = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (e == null) throw new AssertionError("no matching event within 10s");
      if (matcher.test(e)) return e;
    }
  }

  /** Asserts that no event is waiting now (call after a later event proved delivery caught up). */
  void assertNoMore() {
    assertNull(events.poll(), "unexpected extra event");
  }
}
