package dev.svc.chat.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.svc.chat.EventHandler;
import dev.svc.chat.EventType;
import dev.svc.chat.Subscription;

/**
 * The handlers registered with {@code ChatClient.on}, and their delivery on the callback executor: one task
 * per event, so handlers see events in arrival order; a handler removed before its turn is skipped.
 */
public final class EventHub {
  private final ConcurrentMap<EventType<?>, CopyOnWriteArrayList<Registration<?>>> handlers =
      new ConcurrentHashMap<>();
  private final CallbackExecutor callbacks;
  private final Log log;

  public EventHub(CallbackExecutor callbacks, Log log) {
    this.callbacks = callbacks;
    this.log = log;
  }

  /** Registers {@code handler} for {@code type}. */
  public <T> Subscription on(EventType<T> type, EventHandler<T> handler) {
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

  /** Returns whether any handler is registered for {@code type}. */
  public boolean hasHandlers(EventType<?> type) {
    CopyOnWriteArrayList<Registration<?>> list = handlers.get(type);
    return list != null && !list.isEmpty();
  }

  /** Delivers {@code payload} to the handlers of {@code type} registered now, on the callback executor. */
  public <T> void publish(final EventType<T> type, final T payload) {
    CopyOnWriteArrayList<Registration<?>> list = handlers.get(type);
    if (list == null || list.isEmpty()) return;
    final Object[] snapshot = list.toArray();
    callbacks.execute(new Runnable() {
      @Override
      public void run() {
        for (Object o : snapshot) {
          @SuppressWarnings("unchecked")
          Registration<T> r = (Registration<T>) o;
          if (!r.active) continue;
          try {
            r.handler.onEvent(payload);
          } catch (Throwable t) {
            log.warn("a handler of " + type.name() + " threw; delivery goes on", t);
          }
        }
      }
    });
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
