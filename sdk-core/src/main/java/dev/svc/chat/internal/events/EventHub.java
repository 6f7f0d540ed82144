package dev.svc.chat.internal.events;

import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import dev.svc.chat.EventHandler;
import dev.svc.chat.EventType;
import dev.svc.chat.Subscription;

/**
 * The handlers registered with {@code ChatClient.on}, and their delivery on the callback executor, in
 * arrival order; a handler removed before its turn is skipped. Each event is one small task (its handlers
 * as they were at publication, and the payload); during an inbound batch ({@link #beginBatch}) the tasks
 * reach the callback executor together, as one. Events published and not yet handled are counted, for
 * the backpressure of the socket's reader.
 */
public final class EventHub {
  /** Created by the first {@link #on} (safely published: volatile); null while no handler was ever registered. */
  private volatile ConcurrentMap<EventType<?>, CopyOnWriteArrayList<Registration<?>>> handlers;
  private final CallbackExecutor callbacks;
  private final Log log;
  /** Events published and not yet handled. */
  private volatile int undelivered;
  private static final AtomicIntegerFieldUpdater<EventHub> UNDELIVERED =
      AtomicIntegerFieldUpdater.newUpdater(EventHub.class, "undelivered");

  public EventHub(CallbackExecutor callbacks, Log log) {
    this.callbacks = callbacks;
    this.log = log;
  }

  /** Registers {@code handler} for {@code type}. */
  public <T> Subscription on(EventType<T> type, EventHandler<T> handler) {
    ConcurrentMap<EventType<?>, CopyOnWriteArrayList<Registration<?>>> handlers = handlers();
    CopyOnWriteArrayList<Registration<?>> list = handlers.get(type);
    if (list == null) {
      CopyOnWriteArrayList<Registration<?>> created = new CopyOnWriteArrayList<>();
      list = handlers.putIfAbsent(type, created);
      if (list == null) list = created;
    }
    Registration<T> registration = new Registration<>(type, handler, list);
    list.add(registration);
    return registration;
  }

  private ConcurrentMap<EventType<?>, CopyOnWriteArrayList<Registration<?>>> handlers() {
    ConcurrentMap<EventType<?>, CopyOnWriteArrayList<Registration<?>>> map = handlers;
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
    ConcurrentMap<EventType<?>, CopyOnWriteArrayList<Registration<?>>> handlers = this.handlers;
    CopyOnWriteArrayList<Registration<?>> list = handlers == null ? null : handlers.get(type);
    return list != null && !list.isEmpty();
  }

  /** Delivers {@code payload} to the handlers of {@code type} registered now, on the callback executor. */
  public <T> void publish(final EventType<T> type, final T payload) {
    ConcurrentMap<EventType<?>, CopyOnWriteArrayList<Registration<?>>> handlers = this.handlers;
    CopyOnWriteArrayList<Registration<?>> list = handlers == null ? null : handlers.get(type);
    if (list == null || list.isEmpty()) return;
    UNDELIVERED.incrementAndGet(this);
    callbacks.execute(new Delivery<>(type, list.toArray(), payload));
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

    Delivery(EventType<T> type, Object[] registrations, T payload) {
      this.type = type;
      this.registrations = registrations;
      this.payload = payload;
    }

    @Override
    public void run() {
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
        UNDELIVERED.decrementAndGet(EventHub.this);
      }
    }
  }

  private static final class Registration<T> implements Subscription {
    final EventType<T> type;
    final EventHandler<T> handler;
    private final CopyOnWriteArrayList<Registration<?>> list;
    volatile boolean active = true;

    Registration(EventType<T> type, EventHandler<T> handler, CopyOnWriteArrayList<Registration<?>> list) {
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
