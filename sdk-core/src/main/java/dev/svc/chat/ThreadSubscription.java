package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import dev.svc.chat.internal.util.ClientLoggers;
import dev.svc.chat.internal.util.Inputs;
import dev.svc.chat.internal.util.Log;

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
  private final ThreadSubscriptionListener listener;
  private final Log log;
  private final List<Subscription> subscriptions = new ArrayList<>();

  // guarded by this
  private boolean destroyed;
  private boolean failed;
  private boolean started;
  private boolean live;
  private long lastSeq;
  /** The root's revision delivered last (-1: none yet). */
  private long rootRev = -1;
  private final List<Message> held = new ArrayList<>();
  /** Whether each held event was an update (else a new message), by position in {@link #held}. */
  private final List<Boolean> heldUpdates = new ArrayList<>();
  /** The loaded replies' versions, until the held events are delivered. */
  private final Map<String, Message> loaded = new HashMap<>();

  ThreadSubscription(ChatClient client, String roomId, String rootId, int historyLimit,
      ThreadSubscriptionListener listener) {
    this.client = Inputs.nonNull(client, "client");
    this.roomId = Inputs.roomId(roomId);
    this.rootId = Inputs.messageId(rootId);
    if (historyLimit < 1 || historyLimit > MessageQuery.MAX_LIMIT) {
      throw new IllegalArgumentException("historyLimit must be 1 to " + MessageQuery.MAX_LIMIT + ": " + historyLimit);
    }
    this.historyLimit = historyLimit;
    this.listener = Inputs.nonNull(listener, "listener");
    this.log = new Log(ClientLoggers.of(client));
  }

  void start() {
    synchronized (this) {
      subscriptions.add(client.on(EventType.NEW_MESSAGE, m -> onLive(m, false)));
      subscriptions.add(client.on(EventType.MESSAGE_UPDATED, m -> onLive(m, true)));
      subscriptions.add(client.on(EventType.CONNECTION_STATE, change -> {
        if (change.current() == ConnectionState.CONNECTED) begin(); // nothing once started
      }));
    }
    ConnectionState state = client.state();
    if (state == ConnectionState.CLOSED) {
      fail(new ChatStateException("the client is closed"));
    } else if (state != ConnectionState.DISCONNECTED) {
      begin();
    }
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
      heldUpdates.clear();
      loaded.clear();
    }
    for (Subscription s : toRemove) s.remove();
  }

  private void begin() {
    synchronized (this) {
      if (started || destroyed || failed) return;
      started = true;
    }
    client.joinRoom(roomId).whenComplete((room, joinError) -> {
      if (joinError != null) {
        initialFailed(joinError);
        return;
      }
      client.getMessage(roomId, rootId).whenComplete((root, rootError) -> {
        if (rootError != null) {
          initialFailed(rootError);
          return;
        }
        client.getMessages(roomId, MessageQuery.latest(historyLimit).inThread(rootId)).whenComplete((page, error) -> {
          if (error != null) {
            initialFailed(error);
          } else {
            onHistory(root, page.messages());
          }
        });
      });
    });
  }

  /** A refusal by the service ends the subscription; a lost connection starts the load again once connected. */
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
    }
  }

  private void onHistory(final Message root, List<Message> replies) {
    List<Call> calls = new ArrayList<>();
    synchronized (this) {
      if (destroyed || failed || live) return;
      final List<Message> sorted = MessageLists.mergeMessagesById(Collections.<Message>emptyList(), replies);
      for (Message m : sorted) {
        loaded.put(m.id(), m);
        lastSeq = Math.max(lastSeq, m.seq());
      }
      rootRev = root.rev();
      calls.add(l -> l.onInitialReplies(root, sorted));
      live = true;
      for (int i = 0; i < held.size(); i++) deliver(held.get(i), heldUpdates.get(i), calls);
      held.clear();
      heldUpdates.clear();
      loaded.clear();
    }
    run(calls);
  }

  private void onLive(Message m, boolean update) {
    if (!m.roomId().equals(roomId) || !(rootId.equals(m.id()) || rootId.equals(m.threadId()))) return;
    List<Call> calls = new ArrayList<>(1);
    synchronized (this) {
      if (destroyed || failed) return;
      if (!live) {
        held.add(m);
        heldUpdates.add(update);
        return;
      }
      deliver(m, update, calls);
    }
    run(calls);
  }

  /**
   * Delivers a live version: the root when newer than the one delivered; a new reply above the last seq (one at or
   * below it was delivered); an updated reply unless the loaded page holds this version or a later one.
   */
  private void deliver(final Message m, boolean update, List<Call> calls) {
    if (m.id().equals(rootId)) {
      if (m.rev() <= rootRev && m.rev() > 0) return; // the loaded root, or a later one, was delivered
      rootRev = Math.max(rootRev, m.rev());
      calls.add(l -> l.onRootUpdated(m));
    } else if (!update) {
      if (m.seq() <= lastSeq) return;
      lastSeq = m.seq();
      calls.add(l -> l.onReply(m));
    } else {
      Message known = loaded.get(m.id());
      if (known != null && known.rev() >= m.rev() && (m.rev() > 0 || known.equals(m))) return;
      calls.add(l -> l.onReplyUpdated(m));
    }
  }

  private void fail(Throwable error) {
    final Throwable cause = unwrap(error);
    synchronized (this) {
      if (destroyed || failed) return;
      failed = true;
      held.clear();
      heldUpdates.clear();
    }
    run(Collections.<Call>singletonList(l -> l.onError(cause)));
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
  }

  private interface Call {
    void run(ThreadSubscriptionListener l);
  }

  private void run(List<Call> calls) {
    for (Call call : calls) {
      try {
        call.run(listener);
      } catch (RuntimeException e) {
        log.warn("a ThreadSubscriptionListener of thread " + rootId + " threw; delivery goes on", e);
      }
    }
  }
}
