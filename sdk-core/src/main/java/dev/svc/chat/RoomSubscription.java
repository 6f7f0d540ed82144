package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import dev.svc.chat.internal.RealChatClient;
import dev.svc.chat.internal.util.ClientLoggers;
import dev.svc.chat.internal.util.Inputs;
import dev.svc.chat.internal.util.Log;

/**
 * A live view of one room, made by {@link Svc#createRoomSubscription}: it joins the room (waiting for the
 * connection if it is still connecting, or not yet asked to connect), loads the latest history, hands it over
 * oldest first, and then hands over that room's messages and updates as the client delivers them. Live events
 * that arrive while history loads are held back and delivered after it, without duplicates. With an offline
 * store ({@link SvcOptions.Builder#store}) it is cache-first: the history comes from the store when it holds the
 * page (at once, even offline), and what the store lacks arrives as the events recovery delivers.
 *
 * <p>It keeps no recovery of its own: the client's recovery (on by default, see
 * {@link SvcOptions.Builder#recoverMissedEvents}) already delivers every message of every room once and in
 * order, including those missed while reconnecting, and retries a failed back-fill until it succeeds. So a
 * message is never skipped here either. The listener is called on the client's callback executor, never while
 * the subscription holds its lock; a listener that throws is logged and delivery goes on.
 * {@link #destroy()} removes every handler it added; the room stays joined (call {@link ChatClient#leaveRoom}
 * to leave it).
 */
public final class RoomSubscription {
  /** The number of messages of history loaded when none is given. */
  public static final int DEFAULT_HISTORY_LIMIT = 50;

  private final ChatClient client;
  private final String roomId;
  private final String userId;
  private final int historyLimit;
  private final RoomSubscriptionListener listener;
  private final Log log;
  private final List<Subscription> subscriptions = new ArrayList<>();

  // guarded by this
  private boolean destroyed;
  private boolean failed;
  private boolean started;
  private boolean live;
  private long lastSeq;
  private final List<Pending> held = new ArrayList<>();
  private final Map<String, Message> loaded = new HashMap<>();

  RoomSubscription(ChatClient client, String roomId, String userId, int historyLimit,
      RoomSubscriptionListener listener) {
    this.client = Inputs.nonNull(client, "client");
    this.roomId = Inputs.roomId(roomId);
    this.userId = Inputs.userId(userId);
    if (historyLimit < 1 || historyLimit > MessageQuery.MAX_LIMIT) {
      throw new IllegalArgumentException("historyLimit must be 1 to " + MessageQuery.MAX_LIMIT + ": " + historyLimit);
    }
    this.historyLimit = historyLimit;
    this.listener = Inputs.nonNull(listener, "listener");
    this.log = new Log(ClientLoggers.of(client));
  }

  void start() {
    synchronized (this) {
      subscriptions.add(client.on(EventType.NEW_MESSAGE, m -> {
        if (m.roomId().equals(roomId)) onLive(m, false);
      }));
      subscriptions.add(client.on(EventType.MESSAGE_UPDATED, m -> {
        if (m.roomId().equals(roomId)) onLive(m, true);
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

  /**
   * Returns the room id.
   *
   * @return the room id
   */
  public String roomId() {
    return roomId;
  }

  /**
   * Returns the user the subscription was made for.
   *
   * @return the user id
   */
  public String userId() {
    return userId;
  }

  /**
   * Returns whether history was delivered and live messages flow now.
   *
   * @return true when live
   */
  public synchronized boolean isLive() {
    return live;
  }

  /** Removes every handler the subscription added; nothing is delivered after it returns. Idempotent. */
  public void destroy() {
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

  private void begin() {
    synchronized (this) {
      if (started || destroyed || failed) return;
      started = true;
    }
    if (client instanceof RealChatClient) {
      // cache-first: the store's page at once, even offline; recovery's events fill the gap to the service
      ((RealChatClient) client).storedPage(roomId, MessageQuery.latest(historyLimit)).thenAccept(page -> {
        if (page != null) onHistory(page.messages());
      });
    }
    client.joinRoom(roomId).whenComplete((room, joinError) -> {
      if (joinError != null) {
        initialFailed(joinError);
        return;
      }
      if (isLive()) return; // the store's page was shown
      client.getMessages(roomId, MessageQuery.latest(historyLimit)).whenComplete((page, error) -> {
        if (error != null) {
          initialFailed(error);
        } else {
          onHistory(page.messages());
        }
      });
    });
  }

  /**
   * A refusal by the service ends the subscription; a lost connection does not: the join and the history
   * are tried again once the client is connected (joinRoom itself waits while it reconnects).
   */
  private void initialFailed(Throwable error) {
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

  private void onHistory(List<Message> messages) {
    List<Call> calls = new ArrayList<>();
    synchronized (this) {
      if (destroyed || failed || live) return; // once: the store's page, or the first page after the join
      final List<Message> sorted = MessageLists.mergeMessagesById(Collections.<Message>emptyList(), messages);
      for (Message m : sorted) {
        loaded.put(m.id(), m);
        lastSeq = Math.max(lastSeq, m.seq());
      }
      calls.add(l -> l.onInitialMessages(sorted));
      // what arrived while loading, without what the loaded page already holds
      live = true;
      for (Pending p : held) deliver(p.message, p.update, calls);
      held.clear();
      loaded.clear();
    }
    run(calls);
  }

  private void onLive(Message m, boolean update) {
    List<Call> calls = new ArrayList<>(1);
    synchronized (this) {
      if (destroyed || failed) return;
      if (!live) {
        held.add(new Pending(m, update));
        return;
      }
      deliver(m, update, calls);
    }
    run(calls);
  }

  private void deliver(final Message m, boolean update, List<Call> calls) {
    if (update) {
      Message known = loaded.get(m.id());
      if (known != null && known.rev() >= m.rev() && (m.rev() > 0 || known.equals(m))) {
        return; // the loaded page already holds this version, or a later one
      }
      calls.add(l -> l.onMessageUpdated(m));
    } else {
      if (m.seq() <= lastSeq) return; // in the loaded history already
      lastSeq = m.seq();
      calls.add(l -> l.onMessage(m));
    }
  }

  private void fail(Throwable error) {
    final Throwable cause = unwrap(error);
    synchronized (this) {
      if (destroyed || failed) return;
      failed = true;
      held.clear();
    }
    run(Collections.<Call>singletonList(l -> l.onError(cause)));
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
  }

  private interface Call {
    void run(RoomSubscriptionListener l);
  }

  /** Runs listener calls in order, outside the lock; one that throws is logged and the next one runs. */
  private void run(List<Call> calls) {
    for (Call call : calls) {
      try {
        call.run(listener);
      } catch (RuntimeException e) {
        log.warn("a RoomSubscriptionListener of room " + roomId + " threw; delivery goes on", e);
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
