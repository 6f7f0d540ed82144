package dev.svc.chat;

import java.util.List;

import dev.svc.chat.internal.RealChatClient;
import dev.svc.chat.internal.util.Inputs;

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
  private final LiveSubscription<RoomSubscriptionListener> lifecycle;

  RoomSubscription(ChatClient client, String roomId, String userId, int historyLimit,
      RoomSubscriptionListener listener) {
    this.client = Inputs.nonNull(client, "client");
    this.roomId = Inputs.roomId(roomId);
    this.userId = Inputs.userId(userId);
    if (historyLimit < 1 || historyLimit > MessageQuery.MAX_LIMIT) {
      throw new IllegalArgumentException("historyLimit must be 1 to " + MessageQuery.MAX_LIMIT + ": " + historyLimit);
    }
    this.historyLimit = historyLimit;
    this.lifecycle = new LiveSubscription<>(client, Inputs.nonNull(listener, "listener"),
        RoomSubscriptionListener::onError, "RoomSubscriptionListener of room " + roomId, new RoomFeed());
  }

  void start() {
    lifecycle.start();
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
  public boolean isLive() {
    return lifecycle.isLive();
  }

  /** Removes every handler the subscription added; nothing is delivered after it returns. Idempotent. */
  public void destroy() {
    lifecycle.destroy();
  }

  /** The room's part of the life cycle: its messages, its history, their callbacks. */
  private final class RoomFeed implements LiveSubscription.Owner<RoomSubscriptionListener> {
    @Override
    public boolean concerns(Message m) {
      return m.roomId().equals(roomId);
    }

    @Override
    public void load() {
      if (client instanceof RealChatClient) {
        // cache-first: the store's page at once, even offline; recovery's events fill the gap to the service
        ((RealChatClient) client).storedPage(roomId, MessageQuery.latest(historyLimit)).thenAccept(page -> {
          if (page != null) onHistory(page.messages());
        });
      }
      lifecycle.joinThen(roomId, () -> {
        if (lifecycle.isLive()) return; // the store's page was shown
        client.getMessages(roomId, MessageQuery.latest(historyLimit)).whenComplete((page, error) -> {
          if (error != null) {
            lifecycle.loadFailed(error);
          } else {
            onHistory(page.messages());
          }
        });
      });
    }

    private void onHistory(List<Message> messages) {
      lifecycle.onHistory(messages, sorted -> l -> l.onInitialMessages(sorted));
    }

    @Override
    public void deliver(final Message m, boolean update, List<LiveSubscription.Call<RoomSubscriptionListener>> calls) {
      if (update) {
        if (lifecycle.isNewerVersion(m)) calls.add(l -> l.onMessageUpdated(m));
      } else if (lifecycle.isNewMessage(m)) {
        calls.add(l -> l.onMessage(m));
      }
    }
  }
}
