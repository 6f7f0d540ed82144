package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

import dev.svc.chat.internal.Inputs;

/**
 * A live view of one room, made by {@link Svc#createRoomSubscription}: it joins the room (waiting for the
 * connection if it is still connecting, or not yet asked to connect), loads the latest history, hands it over
 * oldest first, and then hands over that room's live messages and updates. Live events that arrive while
 * history loads are held back and delivered after it, without duplicates. After a reconnect it fetches the
 * messages it missed (by seq) before delivering live ones again. {@link #destroy()} removes every handler
 * it added; the room stays joined (call {@link ChatClient#leaveRoom} to leave it).
 */
public final class RoomSubscription {
  /** The number of messages of history loaded when none is given. */
  public static final int DEFAULT_HISTORY_LIMIT = 50;

  private final ChatClient client;
  private final String roomId;
  private final String userId;
  private final int historyLimit;
  private final RoomSubscriptionListener listener;
  private final List<Subscription> subscriptions = new ArrayList<>();

  // guarded by this
  private boolean destroyed;
  private boolean failed;
  private boolean started;
  private boolean live;
  private boolean backfilling;
  private boolean backfillAgain;
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
  }

  void start() {
    synchronized (this) {
      subscriptions.add(client.on(EventType.NEW_MESSAGE, new EventHandler<Message>() {
        @Override
        public void onEvent(Message m) {
          if (m.roomId().equals(roomId)) onLive(m, false);
        }
      }));
      subscriptions.add(client.on(EventType.MESSAGE_UPDATED, new EventHandler<Message>() {
        @Override
        public void onEvent(Message m) {
          if (m.roomId().equals(roomId)) onLive(m, true);
        }
      }));
      subscriptions.add(client.on(EventType.CONNECTION_STATE, new EventHandler<ConnectionStateChange>() {
        @Override
        public void onEvent(ConnectionStateChange change) {
          onConnectionState(change);
        }
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
      if (started || destroyed) return;
      started = true;
    }
    client.joinRoom(roomId).whenComplete(new BiConsumer<Room, Throwable>() {
      @Override
      public void accept(Room room, Throwable error) {
        if (error != null) {
          initialFailed(error);
        } else {
          client.getMessages(roomId, MessageQuery.latest(historyLimit)).whenComplete(
              new BiConsumer<MessagePage, Throwable>() {
                @Override
                public void accept(MessagePage page, Throwable error) {
                  if (error != null) {
                    initialFailed(error);
                  } else {
                    onHistory(page.messages());
                  }
                }
              });
        }
      }
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

  private synchronized void onHistory(List<Message> messages) {
    if (destroyed || failed) return;
    List<Message> sorted = MessageLists.mergeMessagesById(Collections.<Message>emptyList(), messages);
    for (Message m : sorted) {
      loaded.put(m.id(), m);
      lastSeq = Math.max(lastSeq, m.seq());
    }
    call(new Call() {
      @Override
      public void run(RoomSubscriptionListener l) {
        l.onInitialMessages(sorted);
      }
    });
    goLive();
  }

  /** Delivers what was held back while loading, dropping what the loaded messages already hold. */
  private void goLive() {
    List<Pending> pending = new ArrayList<>(held);
    held.clear();
    live = true;
    for (Pending p : pending) deliver(p.message, p.update);
    loaded.clear();
  }

  private synchronized void onLive(Message m, boolean update) {
    if (destroyed || failed) return;
    if (live) {
      deliver(m, update);
    } else {
      held.add(new Pending(m, update));
    }
  }

  private void deliver(final Message m, boolean update) {
    if (update) {
      Message known = loaded.get(m.id());
      if (known != null && known.equals(m)) return; // the loaded page already holds this version
      call(new Call() {
        @Override
        public void run(RoomSubscriptionListener l) {
          l.onMessageUpdated(m);
        }
      });
    } else {
      if (m.seq() <= lastSeq) return; // already handed over (history, back-fill or a repeat)
      lastSeq = m.seq();
      call(new Call() {
        @Override
        public void run(RoomSubscriptionListener l) {
          l.onMessage(m);
        }
      });
    }
  }

  private void onConnectionState(ConnectionStateChange change) {
    if (change.current() != ConnectionState.CONNECTED) return;
    boolean backfill;
    synchronized (this) {
      if (destroyed || failed) return;
      if (backfilling) {
        backfillAgain = true; // reconnected again while fetching: fetch once more before going live
        return;
      }
      backfill = live; // back from a reconnect, or from disconnect() and connect() again
      if (backfill) {
        live = false; // hold live events back until the missed ones are delivered
        backfilling = true;
      }
    }
    if (backfill) {
      backfill();
    } else {
      begin();
    }
  }

  /** Fetches the messages after the last delivered seq, page by page, then goes live again. */
  private void backfill() {
    final long after;
    synchronized (this) {
      after = lastSeq;
    }
    client.getMessages(roomId, MessageQuery.after(after, MessageQuery.MAX_LIMIT)).whenComplete(
        new BiConsumer<MessagePage, Throwable>() {
          @Override
          public void accept(MessagePage page, Throwable error) {
            boolean more;
            synchronized (RoomSubscription.this) {
              if (destroyed || failed) return;
              if (error != null && !backfillAgain) {
                // missed messages stay missed until the next reconnect, but live ones must flow again
                final Throwable cause = unwrap(error);
                call(new Call() {
                  @Override
                  public void run(RoomSubscriptionListener l) {
                    l.onError(cause);
                  }
                });
                endBackfill();
                return;
              }
              if (error == null) {
                for (Message m : page.messages()) deliver(m, false);
              }
              more = error == null && page.hasMore() && !page.messages().isEmpty();
              if (!more && backfillAgain) {
                backfillAgain = false;
                more = true;
              }
              if (!more) endBackfill();
            }
            if (more) backfill();
          }
        });
  }

  private void endBackfill() {
    backfilling = false;
    backfillAgain = false;
    goLive();
  }

  private void fail(Throwable error) {
    final Throwable cause = unwrap(error);
    synchronized (this) {
      if (destroyed || failed) return;
      failed = true;
      held.clear();
      call(new Call() {
        @Override
        public void run(RoomSubscriptionListener l) {
          l.onError(cause);
        }
      });
    }
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
  }

  private interface Call {
    void run(RoomSubscriptionListener l);
  }

  /** Runs a listener method; a listener that throws does not break the subscription. */
  private void call(Call call) {
    try {
      call.run(listener);
    } catch (RuntimeException e) {
      // the app's bug; delivery goes on (the client's own handlers are isolated the same way)
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
