package dev.svc.chat.internal.events;

import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import dev.svc.chat.EventHandler;
import dev.svc.chat.EventType;
import dev.svc.chat.Subscription;

/**
 * The handlers registered with {@code ChatClient.on}, and their delivery on the callback executor, in
 * arrival order; a handler removed before its turn is skipped. Each event is one small task (its handlers
 * as they were at publication, and the payload); during an inbound batch ({@link #beginBatch}) the tasks
 * reach the callback executor together, as one. Events published and not yet handled are counted, for
 * the backpressure of the socket's reader, and {@link #whenCaughtUp} waits for that count to fall.
 *
 * <p>{@link #publishAhead} (connection state changes) delivers on the callback executor's lane ahead
 * ({@link CallbackExecutor#executeAhead}): such an event may overtake events published before it, never one
 * published after it.
 */
public final class EventHub {
  /** Created by the first {@link #on} (safely published: volatile); null while no handler was ever registered. */
  private volatile ConcurrentMap<EventType<?>, Handlers> handlers;
  private final CallbackExecutor callbacks;
  private final Log log;
  /** Events published and not yet handled. */
  private volatile int undelivered;
  private static final AtomicIntegerFieldUpdater<EventHub> UNDELIVERED =
      AtomicIntegerFieldUpdater.newUpdater(EventHub.class, "undelivered");
  /** {@link #whenCaughtUp} runs its tasks once fewer events than this wait for their handlers. */
  private final int caughtUpMark;
  /** Tasks waiting for the handlers to catch up; guarded by itself. */
  private final ArrayList<Runnable> waiters = new ArrayList<>(0);
  /** Whether {@link #waiters} may hold a task: read once per handled event. */
  private volatile boolean waiting;

  /** Creates a hub whose {@link #whenCaughtUp} never waits (tests). */
  public EventHub(CallbackExecutor callbacks, Log log) {
    this(callbacks, log, Integer.MAX_VALUE);
  }

  /** Creates a hub; {@link #whenCaughtUp} waits until fewer than {@code caughtUpMark} events wait. */
  public EventHub(CallbackExecutor callbacks, Log log, int caughtUpMark) {
    this.callbacks = callbacks;
    this.log = log;
    this.caughtUpMark = caughtUpMark;
  }

  /** Registers {@code handler} for {@code type}. */
  public <T> Subscription on(EventType<T> type, EventHandler<T> handler) {
    ConcurrentMap<EventType<?>, Handlers> handlers = handlers();
    Handlers list = handlers.get(type);
    if (list == null) {
      Handlers created = new Handlers();
      list = handlers.putIfAbsent(type, created);
      if (list == null) list = created;
    }
    Registration<T> registration = new Registration<>(type, handler, list);
    list.add(registration);
    return registration;
  }

  private ConcurrentMap<EventType<?>, Handlers> handlers() {
    ConcurrentMap<EventType<?>, Handlers> map = handlers;
    if (map == null) {
      synchronized (this) {
        map = handlers;
        if (map == null) handlers = map = new ConcurrentHashMap<>(4);
      }
    }
    return map;
  }

  /** Returns whether any handler is registered for {@code type}. */
  public boolean hasHandlers(EventType<?> type) {
    ConcurrentMap<EventType<?>, Handlers> handlers = this.handlers;
    Handlers list = handlers == null ? null : handlers.get(type);
    return list != null && list.registrations.length > 0;
  }

  /** Delivers {@code payload} to the handlers of {@code type} registered now, on the callback executor. */
  public <T> void publish(final EventType<T> type, final T payload) {
    ConcurrentMap<EventType<?>, Handlers> handlers = this.handlers;
    Object[] registrations = handlers == null ? null : registrations(handlers.get(type));
    if (registrations == null) return;
    UNDELIVERED.incrementAndGet(this);
    callbacks.execute(new Delivery<>(type, registrations, payload, false));
  }

  /**
   * Delivers {@code payload} as {@link #publish} does, but ahead of the events still waiting for their handlers
   * (never ahead of one published after it): for connection state changes, which must not wait behind a backlog.
   */
  public <T> void publishAhead(final EventType<T> type, final T payload) {
    ConcurrentMap<EventType<?>, Handlers> handlers = this.handlers;
    Object[] registrations = handlers == null ? null : registrations(handlers.get(type));
    if (registrations == null) return;
    UNDELIVERED.incrementAndGet(this);
    callbacks.executeAhead(new Delivery<>(type, registrations, payload, true));
  }

  /** The handlers registered now, shared by every delivery until the next change (never changed in place). */
  private static Object[] registrations(Handlers list) {
    Object[] now = list == null ? null : list.registrations;
    return now == null || now.length == 0 ? null : now;
  }

  /**
   * Runs {@code task} once fewer events than the hub's mark wait for their handlers: at once on the calling
   * thread if they do already, else on the callback thread that handled the event that brought the count down
   * (so {@code task} must only hand off).
   */
  public void whenCaughtUp(Runnable task) {
    if (!whenCaughtUpLater(task)) task.run();
  }

  /**
   * Runs {@code task} as {@link #whenCaughtUp} does, on the callback thread that brings the count down, but
   * only if the count is at the hub's mark or above now: returns false (and never runs it) when it is below.
   */
  public boolean whenCaughtUpLater(Runnable task) {
    if (undelivered < caughtUpMark) return false;
    synchronized (waiters) {
      waiters.add(task);
      waiting = true;
    }
    if (undelivered < caughtUpMark) runWaiters(); // the count fell while the task was being added
    return true;
  }

  private void runWaiters() {
    Runnable[] tasks;
    synchronized (waiters) {
      if (waiters.isEmpty()) return;
      tasks = waiters.toArray(new Runnable[0]);
      waiters.clear();
      waiting = false;
    }
    for (Runnable task : tasks) task.run();
  }

  /** Returns how many published events wait for their handlers; any thread. */
  public int undelivered() {
    return undelivered;
  }

  /** Starts gathering what the calling thread (the actor) publishes into one hand-off. */
  public void beginBatch() {
    callbacks.beginBatch();
  }

  /** Hands what was published since {@link #beginBatch} to the callback executor, as one task. */
  public void endBatch() {
    callbacks.endBatch();
  }

  /** One event and the handlers it goes to. */
  private final class Delivery<T> implements Runnable {
    private final EventType<T> type;
    private final Object[] registrations;
    private final T payload;
    /** Whether it runs on the lane ahead (else it first lets that lane run what it holds). */
    private final boolean ahead;

    Delivery(EventType<T> type, Object[] registrations, T payload, boolean ahead) {
      this.type = type;
      this.registrations = registrations;
      this.payload = payload;
      this.ahead = ahead;
    }

    @Override
    public void run() {
      if (!ahead) callbacks.runAhead();
      try {
        for (Object o : registrations) {
          @SuppressWarnings("unchecked")
          Registration<T> r = (Registration<T>) o;
          if (!r.active) continue;
          try {
            r.handler.onEvent(payload);
          } catch (Throwable t) {
            log.warn("a handler of " + type.name() + " threw; delivery goes on", t);
          }
        }
      } finally {
        if (UNDELIVERED.decrementAndGet(EventHub.this) < caughtUpMark && waiting) runWaiters();
      }
    }
  }

  /**
   * The handlers of one event type: an array replaced whole at each registration or removal, so that an event
   * published takes the array as it is (a snapshot without a copy per event).
   */
  private static final class Handlers {
    private static final Object[] NONE = new Object[0];
    volatile Object[] registrations = NONE;

    synchronized void add(Registration<?> r) {
      Object[] now = registrations;
      Object[] next = Arrays.copyOf(now, now.length + 1);
      next[now.length] = r;
      registrations = next;
    }

    synchronized void remove(Registration<?> r) {
      Object[] now = registrations;
      for (int k = 0; k < now.length; k++) {
        if (now[k] != r) continue;
        Object[] next = new Object[now.length - 1];
        System.arraycopy(now, 0, next, 0, k);
        System.arraycopy(now, k + 1, next, k, now.length - k - 1);
        registrations = next;
        return;
      }
    }
  }

  private static final class Registration<T> implements Subscription {
    final EventType<T> type;
    final EventHandler<T> handler;
    private final Handlers list;
    volatile boolean active = true;

    Registration(EventType<T> type, EventHandler<T> handler, Handlers list) {
      this.type = type;
      this.handler = handler;
      this.list = list;
    }

    @Override
    public void remove() {
      active = false;
      list.remove(this);
    }

    @Override
    public String toString() {
      return "Subscription{" + type.name() + "}";
    }
  }
}
