package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

import dev.svc.chat.internal.Inputs;

/**
 * The set of online users of the tenant, made by {@link Svc#createTenantPresenceTracker}: a snapshot from
 * {@link ChatClient#getPresence()} plus the live {@link EventType#TENANT_PRESENCE} events. Events that arrive
 * while a snapshot is on its way are applied on top of it in arrival order, so an event racing the snapshot
 * is never lost (applying an event the snapshot already reflects changes nothing). After every (re)connect
 * a new snapshot is taken, since events are missed while disconnected. Thread-safe.
 */
public final class TenantPresenceTracker {
  private final ChatClient client;
  private final TenantPresenceListener listener;
  private final List<Subscription> subscriptions = new ArrayList<>();

  // guarded by this
  private Set<String> online = Collections.emptySet();
  private boolean loading;
  private boolean hasSnapshot;
  private int generation;
  private final List<PresenceEvent> held = new ArrayList<>();
  private boolean destroyed;

  TenantPresenceTracker(ChatClient client, TenantPresenceListener listener) {
    this.client = Inputs.nonNull(client, "client");
    this.listener = Inputs.nonNull(listener, "listener");
  }

  void start() {
    synchronized (this) {
      subscriptions.add(client.on(EventType.TENANT_PRESENCE, new EventHandler<PresenceEvent>() {
        @Override
        public void onEvent(PresenceEvent event) {
          onPresence(event);
        }
      }));
      subscriptions.add(client.on(EventType.CONNECTION_STATE, new EventHandler<ConnectionStateChange>() {
        @Override
        public void onEvent(ConnectionStateChange change) {
          if (change.current() == ConnectionState.CONNECTED) snapshot();
        }
      }));
    }
    if (client.state() == ConnectionState.CONNECTED) snapshot();
  }

  /**
   * Returns the online users now.
   *
   * @return an unmodifiable copy
   */
  public synchronized Set<String> online() {
    return online;
  }

  /**
   * Returns whether a user is online now.
   *
   * @param userId the user
   * @return true when online
   */
  public synchronized boolean isOnline(String userId) {
    return online.contains(userId);
  }

  /**
   * Returns whether a snapshot arrived, so that {@link #online()} is meaningful.
   *
   * @return true after the first snapshot
   */
  public synchronized boolean isReady() {
    return hasSnapshot;
  }

  /** Removes every handler the tracker added; no change is reported after it returns. Idempotent. */
  public void destroy() {
    List<Subscription> toRemove;
    synchronized (this) {
      if (destroyed) return;
      destroyed = true;
      toRemove = new ArrayList<>(subscriptions);
      subscriptions.clear();
      held.clear();
    }
    for (Subscription s : toRemove) s.remove();
  }

  private void snapshot() {
    final int mine;
    synchronized (this) {
      if (destroyed) return;
      loading = true;
      mine = ++generation;
    }
    client.getPresence().whenComplete(new BiConsumer<List<String>, Throwable>() {
      @Override
      public void accept(List<String> users, Throwable error) {
        onSnapshot(mine, users, error);
      }
    });
  }

  private synchronized void onSnapshot(int mine, List<String> users, Throwable error) {
    if (destroyed || mine != generation) return; // a newer snapshot is on its way
    loading = false;
    if (error != null) {
      // live events keep being applied on top of the last known set
      List<PresenceEvent> events = new ArrayList<>(held);
      held.clear();
      Set<String> next = new LinkedHashSet<>(online);
      for (PresenceEvent e : events) apply(next, e);
      publish(next, false);
      Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
      try {
        listener.onError(cause);
      } catch (RuntimeException ignored) {
        // the app's bug
      }
      return;
    }
    Set<String> next = new LinkedHashSet<>(users);
    for (PresenceEvent e : held) apply(next, e);
    held.clear();
    boolean first = !hasSnapshot;
    hasSnapshot = true;
    publish(next, first);
  }

  private synchronized void onPresence(PresenceEvent event) {
    if (destroyed) return;
    if (loading) {
      held.add(event);
      return;
    }
    Set<String> next = new LinkedHashSet<>(online);
    apply(next, event);
    publish(next, false);
  }

  private static void apply(Set<String> set, PresenceEvent e) {
    if (e.isOnline()) {
      set.add(e.userId());
    } else {
      set.remove(e.userId());
    }
  }

  private void publish(Set<String> next, boolean always) {
    if (!always && next.equals(online)) return;
    online = Collections.unmodifiableSet(next);
    try {
      listener.onChange(online);
    } catch (RuntimeException e) {
      // the app's bug; tracking goes on
    }
  }
}
