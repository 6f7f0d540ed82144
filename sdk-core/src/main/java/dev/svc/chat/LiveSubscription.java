package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import dev.svc.chat.internal.util.ClientLoggers;
import dev.svc.chat.internal.util.Log;

/**
 * The life cycle that {@link RoomSubscription} and {@link ThreadSubscription} share. It listens to the client's new
 * and updated messages and to its connection, starts the owner's first load when the client is (or becomes)
 * connected, starts it again after a lost connection and ends on a refusal by the service. Live events that arrive
 * while the first load is under way are held back and delivered after it, without what the loaded page holds. The
 * listener is called in order outside the lock; one that throws is logged and the next call runs.
 *
 * <p>What differs between the subscriptions is the {@link Owner}'s: which messages concern it, how the first load
 * goes, and how a live version is handed to the listener. Every field marked "guarded" below, and whatever the owner
 * reads or writes in {@link Owner#deliver} and {@link Initial#loaded}, is guarded by this object's lock.
 *
 * @param <L> the listener's type
 */
final class LiveSubscription<L> {

  /** What one kind of subscription adds to the shared life cycle. */
  interface Owner<L> {
    /** Returns whether a new or updated message is the subscription's. */
    boolean concerns(Message m);

    /**
     * Starts the first load (at most one at a time); it ends in {@link #onHistory} or {@link #loadFailed}, and
     * may hand over a page before the join (the store's) with {@link #onHistory}: the first one delivered wins.
     */
    void load();

    /**
     * Adds the listener's call for a live version, called under the lock once live; {@link #isNewMessage} and
     * {@link #isNewerVersion} say whether the loaded page holds it already.
     */
    void deliver(Message m, boolean update, List<Call<L>> calls);
  }

  /** Calls the listener's error callback (each listener type declares its own). */
  interface ErrorCall<L> {
    void run(L listener, Throwable cause);
  }

  /** One call of the listener, run outside the lock. */
  interface Call<L> {
    void run(L listener);
  }

  /** Makes the listener's call for the loaded page (sorted oldest first), under the lock. */
  interface Initial<L> {
    Call<L> loaded(List<Message> sorted);
  }

  private final ChatClient client;
  private final L listener;
  /** Names the listener in the log, e.g. "RoomSubscriptionListener of room r1". */
  private final String listenerName;
  private final Log log;
  private final Owner<L> owner;
  private final ErrorCall<L> onError;
  private final List<Subscription> subscriptions = new ArrayList<>();

  // guarded by this
  private boolean destroyed;
  private boolean failed;
  private boolean started;
  private boolean live;
  private long lastSeq;
  private final List<Pending> held = new ArrayList<>();
  /** The loaded page's versions, until the held events are delivered. */
  private final Map<String, Message> loaded = new HashMap<>();

  LiveSubscription(ChatClient client, L listener, ErrorCall<L> onError, String listenerName, Owner<L> owner) {
    this.client = client;
    this.listener = listener;
    this.onError = onError;
    this.listenerName = listenerName;
    this.owner = owner;
    this.log = new Log(ClientLoggers.of(client));
  }

  /** Adds the handlers and starts the first load when the client is connected or connecting. */
  void start() {
    synchronized (this) {
      subscriptions.add(client.on(EventType.NEW_MESSAGE, m -> {
        if (owner.concerns(m)) onLive(m, false);
      }));
      subscriptions.add(client.on(EventType.MESSAGE_UPDATED, m -> {
        if (owner.concerns(m)) onLive(m, true);
      }));
      subscriptions.add(client.on(EventType.CONNECTION_STATE, change -> {
        if (change.current() == ConnectionState.CONNECTED) begin(); // nothing once started
      }));
    }
    ConnectionState state = client.state();
    if (state == ConnectionState.CLOSED) {
      fail(new ChatStateException("the client is closed"));
    } else if (state != ConnectionState.DISCONNECTED) {
      begin(); // joinRoom waits while connecting
    } // else: begins at the first CONNECTED
  }

  synchronized boolean isLive() {
    return live;
  }

  /** Removes every handler; nothing is delivered after it returns. Idempotent. */
  void destroy() {
    List<Subscription> toRemove;
    synchronized (this) {
      if (destroyed) return;
      destroyed = true;
      toRemove = new ArrayList<>(subscriptions);
      subscriptions.clear();
      held.clear();
      loaded.clear();
    }
    for (Subscription s : toRemove) s.remove();
  }

  /** Joins the room, then runs the load's next step; a failed join is a failed load. */
  void joinThen(String roomId, Runnable next) {
    client.joinRoom(roomId).whenComplete((room, joinError) -> {
      if (joinError != null) {
        loadFailed(joinError);
      } else {
        next.run();
      }
    });
  }

  private void begin() {
    synchronized (this) {
      if (started || destroyed || failed) return;
      started = true;
    }
    owner.load();
  }

  /**
   * A refusal by the service ends the subscription; a lost connection does not: the load starts again once the
   * client is connected (joinRoom itself waits while it reconnects).
   */
  void loadFailed(Throwable error) {
    Throwable cause = unwrap(error);
    ConnectionState state = client.state();
    if (cause instanceof ApiException || state == ConnectionState.CLOSED) {
      fail(cause);
      return;
    }
    synchronized (this) {
      if (destroyed || failed) return;
      started = false;
    }
    if (state == ConnectionState.CONNECTING || state == ConnectionState.RECONNECTING
        || state == ConnectionState.CONNECTED) {
      begin();
    } // else: disconnected by the app; begins again at the next CONNECTED
  }

  /** Hands over the loaded page, then what arrived while loading; only the first page delivered counts. */
  void onHistory(List<Message> messages, Initial<L> initial) {
    List<Call<L>> calls = new ArrayList<>();
    synchronized (this) {
      if (destroyed || failed || live) return;
      List<Message> sorted = MessageLists.mergeMessagesById(Collections.<Message>emptyList(), messages);
      for (Message m : sorted) {
        loaded.put(m.id(), m);
        lastSeq = Math.max(lastSeq, m.seq());
      }
      calls.add(initial.loaded(sorted));
      live = true;
      for (Pending p : held) owner.deliver(p.message, p.update, calls);
      held.clear();
      loaded.clear();
    }
    run(calls);
  }

  /**
   * Returns whether a new message comes after the last one delivered (one at or below it was, in the loaded page
   * or live), and makes it the last. Called under the lock.
   */
  boolean isNewMessage(Message m) {
    if (m.seq() <= lastSeq) return false;
    lastSeq = m.seq();
    return true;
  }

  /** Returns whether an updated message is newer than the loaded page's version of it. Called under the lock. */
  boolean isNewerVersion(Message m) {
    Message known = loaded.get(m.id());
    return !(known != null && known.rev() >= m.rev() && (m.rev() > 0 || known.equals(m)));
  }

  private void onLive(Message m, boolean update) {
    List<Call<L>> calls = new ArrayList<>(1);
    synchronized (this) {
      if (destroyed || failed) return;
      if (!live) {
        held.add(new Pending(m, update));
        return;
      }
      owner.deliver(m, update, calls);
    }
    run(calls);
  }

  private void fail(Throwable error) {
    final Throwable cause = unwrap(error);
    synchronized (this) {
      if (destroyed || failed) return;
      failed = true;
      held.clear();
    }
    run(Collections.<Call<L>>singletonList(l -> onError.run(l, cause)));
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
  }

  /** Runs listener calls in order, outside the lock; one that throws is logged and the next one runs. */
  private void run(List<Call<L>> calls) {
    for (Call<L> call : calls) {
      try {
        call.run(listener);
      } catch (RuntimeException e) {
        log.warn("a " + listenerName + " threw; delivery goes on", e);
      }
    }
  }

  private static final class Pending {
    final Message message;
    final boolean update;

    Pending(Message message, boolean update) {
      this.message = message;
      this.update = update;
    }
  }
}
