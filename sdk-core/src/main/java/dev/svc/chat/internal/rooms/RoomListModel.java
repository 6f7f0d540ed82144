package dev.svc.chat.internal.rooms;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.svc.chat.EventHandler;
import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.RoomList;
import dev.svc.chat.RoomSummary;
import dev.svc.chat.Subscription;
import dev.svc.chat.internal.recovery.RecoveryJournal;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;

/**
 * The live room list: a {@link RoomTally} per room, fed on the actor by what recovery delivers (as its
 * {@link RecoveryJournal}), the app's own sends and reads, and the store's digest at start; each change marks
 * the list dirty, and one snapshot per actor turn goes to the handlers on the callback executor (a burst of
 * events gives one snapshot). A handler never gets a snapshot equal to the one it got last: the listings of a
 * connect and of each reconnect mark every listed room changed, though the service's rooms may be as they were. It follows the rooms only while a handler is subscribed, or when the client has a
 * store (whose digest starts it), so a bot that never asks for the list pays nothing.
 */
public final class RoomListModel implements RecoveryJournal {
  /** Most recently active first; ties by room id, so the order is stable. */
  private static final Comparator<RoomSummary> ORDER = new Comparator<RoomSummary>() {
    @Override
    public int compare(RoomSummary a, RoomSummary b) {
      int c = Long.compare(b.lastActivityAt(), a.lastActivityAt());
      return c != 0 ? c : a.room().id().compareTo(b.room().id());
    }
  };

  private final Scheduler actor;
  private final CallbackExecutor callbacks;
  private final int cap;
  private final Log log;
  private final CopyOnWriteArrayList<Handler> handlers = new CopyOnWriteArrayList<>();

  // actor-confined
  private final Map<String, RoomTally> rooms = new HashMap<>();
  private String me;
  /** Written on the actor, read anywhere: a client whose list nobody follows skips the hand-overs. */
  private volatile boolean following;
  /** Whether the rooms were listed (or read from the store) at least once: snapshots start then. */
  private boolean known;
  private boolean fromStore;
  private boolean emitPosted;
  private RoomList last;
  private UnreadFill fill;

  public RoomListModel(Scheduler actor, CallbackExecutor callbacks, int cap, Log log) {
    this.actor = actor;
    this.callbacks = callbacks;
    this.cap = cap;
    this.log = log;
  }

  /** Sets what reads the receipts and messages a count needs (actor, before the first connect). */
  public void fill(UnreadFill fill) {
    this.fill = fill;
  }

  /** The user the client is signed in as (actor): their own messages are never unread. */
  public void user(String userId) {
    me = userId;
  }

  /** Follows the rooms from now on, whatever the handlers (a client with a store). */
  public void follow() {
    following = true;
  }

  /**
   * Subscribes {@code handler} (any thread): it receives the current snapshot at once when the rooms are known,
   * then one per change. The first subscription starts the following; {@code startListing} is then run on the
   * actor to list the rooms when nothing was listed yet.
   */
  public Subscription subscribe(EventHandler<RoomList> handler, final Runnable startListing) {
    final Handler h = new Handler(handler);
    handlers.add(h);
    actor.execute(() -> {
      if (!following) {
        following = true;
        if (!known) startListing.run();
      }
      if (known) h.offer(snapshot());
    });
    return h;
  }

  // ---------------------------------------------------------------- what recovery delivers (actor)

  @Override
  public void delivered(Message m, long seq, long rev) {
    message(m);
  }

  @Override
  public void receipt(Receipt receipt) {
    if (!following || me == null || !receipt.userId().equals(me)) return;
    RoomTally t = rooms.get(receipt.roomId());
    if (t != null && t.read(receipt.seq())) changed(t);
  }

  @Override
  public void listed(Room room) {
    if (!following) return;
    RoomTally t = tally(room.id(), room);
    t.listed(room);
    changed(t);
  }

  @Override
  public void listingDone() {
    listingDone(false);
  }

  /**
   * Starts from what the offline store kept (actor, at the first connect, after {@link #user}): its rooms and the
   * user's receipts; the first snapshot follows at once, marked {@link RoomList#fromStore()}.
   */
  public void restore(dev.svc.chat.store.StoredState state, Map<String, dev.svc.chat.store.RoomDigest> digests) {
    if (!following || me == null) return;
    Map<String, Long> ownRead = new HashMap<>();
    for (Receipt r : state.receipts()) {
      if (r.userId().equals(me)) ownRead.put(r.roomId(), r.seq());
    }
    for (dev.svc.chat.store.StoredRoom stored : state.rooms()) {
      RoomTally t = tally(stored.room().id(), stored.room());
      Long read = ownRead.get(stored.room().id());
      if (read != null) t.read(read);
      t.restore(stored.room(), digests.get(stored.room().id()), me, cap);
      changed(t);
    }
    listingDone(true);
  }

  /** Every listed room was handed over: snapshots start (the first listing, or the store's digest). */
  public void listingDone(boolean fromStore) {
    if (!following) return;
    this.fromStore = fromStore;
    known = true;
    dirty();
  }

  @Override
  public void forgotten(String roomId) {
    if (rooms.remove(roomId) != null) dirty();
  }

  /** A message the user sent, as stored by the service (its own, so never unread). */
  public void message(Message m) {
    if (!following || me == null) return;
    RoomTally t = tally(m.roomId(), null);
    t.message(m, me, cap);
    changed(t);
  }

  /**
   * The app marked {@code messageId} read: the count drops at once, before (or without) the service's answer.
   * Returns the message's seq when the list knows it (so the read can be kept), else -1.
   */
  public long markedRead(String roomId, String messageId) {
    RoomTally t = rooms.get(roomId);
    if (t == null) return -1;
    long seq = t.seqOf(messageId);
    if (seq >= 0 && t.read(seq)) changed(t);
    return seq;
  }

  /** A fill read what a count needed (called by {@link UnreadFill}). */
  void filled(RoomTally t) {
    t.fillEnded();
    if (rooms.get(t.room.id()) == t) changed(t);
  }

  /** Returns the tally of a room (tests and the fill). */
  RoomTally tally(String roomId) {
    return rooms.get(roomId);
  }

  /** Returns whether the list follows the rooms (any thread): without it, nothing needs to be handed over. */
  public boolean following() {
    return following;
  }

  String user() {
    return me;
  }

  int cap() {
    return cap;
  }

  private RoomTally tally(String roomId, Room room) {
    RoomTally t = rooms.get(roomId);
    if (t == null) {
      t = new RoomTally(room != null ? room : Room.builder().id(roomId).build());
      rooms.put(roomId, t);
    }
    return t;
  }

  private void changed(RoomTally t) {
    if (fill != null && !t.filling && !t.unfillable && !t.exact() && t.unread.size() <= cap) fill.start(t);
    dirty();
  }

  private void dirty() {
    last = null;
    if (emitPosted || !known || handlers.isEmpty()) return;
    emitPosted = true;
    if (!actor.execute(this::emit)) emitPosted = false;
  }

  private void emit() {
    emitPosted = false;
    RoomList snapshot = snapshot();
    for (Handler h : handlers) h.offer(snapshot);
  }

  /** Builds the snapshot: the summaries of unchanged rooms are reused, so one message costs one summary and a sort. */
  RoomList snapshot() {
    if (last != null) return last;
    List<RoomSummary> list = new ArrayList<>(rooms.size());
    int total = 0;
    boolean capped = false;
    for (RoomTally t : rooms.values()) {
      RoomSummary s = t.summary(cap);
      list.add(s);
      total += s.unreadCount();
      capped |= s.unreadCapped();
    }
    Collections.sort(list, ORDER);
    last = new RoomList(list, total, capped, fromStore);
    return last;
  }

  /** A subscribed handler: snapshots reach it on the callback executor until it is removed. */
  private final class Handler implements Subscription {
    private final EventHandler<RoomList> handler;
    private volatile boolean removed;
    /** The snapshot handed to it last (actor-confined). */
    private RoomList offered;

    Handler(EventHandler<RoomList> handler) {
      this.handler = handler;
    }

    /** Hands {@code snapshot} over (actor) unless it equals the one handed over last. */
    void offer(final RoomList snapshot) {
      if (snapshot.equals(offered)) return;
      offered = snapshot;
      callbacks.execute(() -> {
        if (removed) return;
        try {
          handler.onEvent(snapshot);
        } catch (RuntimeException e) {
          log.error("a room list handler threw", e);
        }
      });
    }

    @Override
    public void remove() {
      removed = true;
      handlers.remove(this);
    }
  }
}
