package dev.svc.chat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

import dev.svc.chat.internal.util.ClientLoggers;
import dev.svc.chat.internal.util.Inputs;
import dev.svc.chat.internal.util.Log;

/**
 * The set of online users of the tenant, made by {@link Svc#createTenantPresenceTracker}: a snapshot from
 * {@link ChatClient#getPresence()} plus the live {@link EventType#TENANT_PRESENCE} events. Events that arrive
 * while a snapshot is on its way are applied on top of it in arrival order, so an event racing the snapshot
 * is never lost (applying an event the snapshot already reflects changes nothing). After every (re)connect
 * a new snapshot is taken, since events are missed while disconnected. Thread-safe.
 *
 * <p>The listener is never called while the tracker holds its lock, so it may call the tracker (or anything
 * else) from any thread; its calls stay in the order of the changes. An exception it throws is logged through
 * the client's {@link ChatLogger} (the one in the {@link SvcOptions} the client was made with) and tracking
 * goes on.
 */
public final class TenantPresenceTracker {
  private final ChatClient client;
  private final TenantPresenceListener listener;
  private final Log log;
  private final List<Subscription> subscriptions = new ArrayList<>();

  // guarded by this
  private Set<String> online = Collections.emptySet();
  private boolean loading;
  private boolean hasSnapshot;
  private int generation;
  private final List<PresenceEvent> held = new ArrayList<>();
  private boolean destroyed;
  // listener calls decided under the lock, made outside it in order by one thread at a time
  private final ArrayDeque<Runnable> notifications = new ArrayDeque<>();
  private boolean notifying;

  TenantPresenceTracker(ChatClient client, TenantPresenceListener listener) {
    this.client = Inputs.nonNull(client, "client");
    this.listener = Inputs.nonNull(listener, "listener");
    this.log = new Log(ClientLoggers.of(client));
  }

  void start() {
    // the client may be the app's own decorator: register outside the lock
    Subscription presence = client.on(EventType.TENANT_PRESENCE, new EventHandler<PresenceEvent>() {
      @Override
      public void onEvent(PresenceEvent event) {
        onPresence(event);
      }
    });
    Subscription states = client.on(EventType.CONNECTION_STATE, new EventHandler<ConnectionStateChange>() {
      @Override
      public void onEvent(ConnectionStateChange change) {
        if (change.current() == ConnectionState.CONNECTED) snapshot();
      }
    });
    boolean keep;
    synchronized (this) {
      keep = !destroyed;
      if (keep) {
        subscriptions.add(presence);
        subscriptions.add(states);
      }
    }
    if (!keep) {
      presence.remove();
      states.remove();
      return;
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
      notifications.clear();
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

  private void onSnapshot(int mine, List<String> users, Throwable error) {
    synchronized (this) {
      if (destroyed || mine != generation) return; // a newer snapshot is on its way
      loading = false;
      if (error != null) {
        // live events keep being applied on top of the last known set
        List<PresenceEvent> events = new ArrayList<>(held);
        held.clear();
        Set<String> next = new LinkedHashSet<>(online);
        for (PresenceEvent e : events) apply(next, e);
        publish(next, false);
        final Throwable cause =
            error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        notifications.add(new Runnable() {
          @Override
          public void run() {
            listener.onError(cause);
          }
        });
      } else {
        Set<String> next = new LinkedHashSet<>(users);
        for (PresenceEvent e : held) apply(next, e);
        held.clear();
        boolean first = !hasSnapshot;
        hasSnapshot = true;
        publish(next, first);
      }
    }
    notifyListener();
  }

  private void onPresence(PresenceEvent event) {
    synchronized (this) {
      if (destroyed) return;
      if (loading) {
        held.add(event);
        return;
      }
      Set<String> next = new LinkedHashSet<>(online);
      apply(next, event);
      publish(next, false);
    }
    notifyListener();
  }

  private static void apply(Set<String> set, PresenceEvent e) {
    if (e.isOnline()) {
      set.add(e.userId());
    } else {
      set.remove(e.userId());
    }
  }

  /** Makes {@code next} current and queues its report; call with the lock held, then {@link #notifyListener()}. */
  private void publish(Set<String> next, boolean always) {
    if (!always && next.equals(online)) return;
    final Set<String> current = Collections.unmodifiableSet(next);
    online = current;
    notifications.add(new Runnable() {
      @Override
      public void run() {
        listener.onChange(current);
      }
    });
  }

  /**
   * Makes the queued listener calls, without the lock: the thread that finds nobody notifying does it for all,
   * so calls keep their order even when changes come from several threads.
   */
  private void notifyListener() {
    synchronized (this) {
      if (notifying) return;
      notifying = true;
    }
    while (true) {
      Runnable next;
      synchronized (this) {
        next = destroyed ? null : notifications.poll();
        if (next == null) {
          notifying = false;
          return;
        }
      }
      try {
        next.run();
      } catch (RuntimeException e) {
        log.warn("a TenantPresenceListener threw; tracking goes on", e);
      }
    }
  }
}
