package dev.svc.chat;

import java.util.List;

import dev.svc.chat.internal.util.Inputs;

/**
 * A live view of one thread, made by {@link Svc#createThreadSubscription}: it joins the thread's room (waiting for
 * the connection as {@link RoomSubscription} does), loads the root ({@link ChatClient#getMessage}) and the latest
 * replies ({@link MessageQuery#inThread}), hands them over oldest first, and then hands over the thread's new and
 * changed replies and the root's changes as the client delivers them. Events that arrive while it loads are held
 * back and delivered after, without duplicates or versions older than the loaded ones.
 *
 * <p>It is fed by the client's events, so what recovery delivers after a reconnect reaches it too: a root recovered
 * by {@link ChatClient#getChanges} carries the exact {@link ThreadSummary}. The listener is called on the client's
 * callback executor, never while the subscription holds its lock; one that throws is logged and delivery goes on.
 * {@link #destroy()} removes every handler it added.
 */
public final class ThreadSubscription {
  /** The number of replies loaded first when none is given. */
  public static final int DEFAULT_HISTORY_LIMIT = 50;

  private final ChatClient client;
  private final String roomId;
  private final String rootId;
  private final int historyLimit;
  private final LiveSubscription<ThreadSubscriptionListener> lifecycle;

  /** The root's revision delivered last (-1: none yet); guarded by {@link #lifecycle}'s lock. */
  private long rootRev = -1;

  ThreadSubscription(ChatClient client, String roomId, String rootId, int historyLimit,
      ThreadSubscriptionListener listener) {
    this.client = Inputs.nonNull(client, "client");
    this.roomId = Inputs.roomId(roomId);
    this.rootId = Inputs.messageId(rootId);
    if (historyLimit < 1 || historyLimit > MessageQuery.MAX_LIMIT) {
      throw new IllegalArgumentException("historyLimit must be 1 to " + MessageQuery.MAX_LIMIT + ": " + historyLimit);
    }
    this.historyLimit = historyLimit;
    this.lifecycle = new LiveSubscription<>(client, Inputs.nonNull(listener, "listener"),
        ThreadSubscriptionListener::onError, "ThreadSubscriptionListener of thread " + rootId, new ThreadFeed());
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
   * Returns the id of the thread's root.
   *
   * @return the root's id
   */
  public String rootId() {
    return rootId;
  }

  /**
   * Returns whether the root and the replies were delivered and live changes flow now.
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

  /** The thread's part of the life cycle: its root and replies, their loading, their callbacks. */
  private final class ThreadFeed implements LiveSubscription.Owner<ThreadSubscriptionListener> {
    @Override
    public boolean concerns(Message m) {
      return m.roomId().equals(roomId) && (rootId.equals(m.id()) || rootId.equals(m.threadId()));
    }

    @Override
    public void load() {
      lifecycle.joinThen(roomId, () -> client.getMessage(roomId, rootId).whenComplete((root, rootError) -> {
        if (rootError != null) {
          lifecycle.loadFailed(rootError);
          return;
        }
        client.getMessages(roomId, MessageQuery.latest(historyLimit).inThread(rootId)).whenComplete((page, error) -> {
          if (error != null) {
            lifecycle.loadFailed(error);
          } else {
            lifecycle.onHistory(page.messages(), sorted -> {
              rootRev = root.rev();
              return l -> l.onInitialReplies(root, sorted);
            });
          }
        });
      }));
    }

    /**
     * Delivers a live version: the root when newer than the one delivered; a new reply above the last seq (one at
     * or below it was delivered); an updated reply unless the loaded page holds this version or a later one.
     */
    @Override
    public void deliver(final Message m, boolean update,
        List<LiveSubscription.Call<ThreadSubscriptionListener>> calls) {
      if (m.id().equals(rootId)) {
        if (m.rev() <= rootRev && m.rev() > 0) return; // the loaded root, or a later one, was delivered
        rootRev = Math.max(rootRev, m.rev());
        calls.add(l -> l.onRootUpdated(m));
      } else if (!update) {
        if (lifecycle.isNewMessage(m)) calls.add(l -> l.onReply(m));
      } else if (lifecycle.isNewerVersion(m)) {
        calls.add(l -> l.onReplyUpdated(m));
      }
    }
  }
}
