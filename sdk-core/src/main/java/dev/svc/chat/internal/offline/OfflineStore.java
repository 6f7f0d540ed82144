package dev.svc.chat.internal.offline;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ClientError;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.store.RoomDigest;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.util.SerialQueue;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.ChatStoreProvider;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredSend;
import dev.svc.chat.store.StoredState;

/**
 * A client's offline store: opens the store of the client's user once, and runs every call to it on the
 * client's I/O queue, one at a time and in the order asked, never on the actor, a callback thread or Android's
 * main thread. A store that is corrupt or from a newer schema is reported ({@link ClientError.Kind#STORE_CORRUPT}),
 * deleted and opened again empty, so recovery rebuilds it from the service; one that cannot be opened or
 * written is reported ({@link ClientError.Kind#STORE_IO}) and the client goes on without it. Problems are
 * reported on the actor.
 */
public final class OfflineStore {
  /** Visible messages read per room for the room list's last-message column. */
  static final int RECENT = 4;

  private final ChatStoreProvider provider;
  private final SerialQueue io;
  private final Scheduler actor;
  private final Consumer<ClientError> errors;
  private final Log log;
  private final int unreadCap;

  // confined to the I/O queue
  private ChatStore store;
  private String userId;
  private List<StoredSend> loadedSends;
  private Map<String, RoomDigest> digests;

  /** The open of the client's user, once; null before the first connect. Guarded by this. */
  private CompletableFuture<StoredState> opened;
  /** Whether the store is in use: false before it opened, after a failure that left none, and after close. */
  private volatile boolean active;
  /** Held by each write of the journal while it commits and posts its events; guards {@link #sealed}. */
  private final Object commits = new Object();
  /** Whether close() sealed the journal's writes (see {@link #seal()}). Guarded by {@link #commits}. */
  private boolean sealed;

  public OfflineStore(ChatStoreProvider provider, SerialQueue io, Scheduler actor, Consumer<ClientError> errors,
      int unreadCap, Log log) {
    this.unreadCap = unreadCap;
    this.provider = provider;
    this.io = io;
    this.actor = actor;
    this.errors = errors;
    this.log = log;
  }

  /** Returns the client's I/O queue, which the outbox shares so that its writes keep their order with these. */
  public SerialQueue io() {
    return io;
  }

  /**
   * Opens the store of {@code user} and reads it, once per client (later calls answer the first open); the
   * future completes on the I/O queue with the stored state, empty when there is no usable store.
   */
  public synchronized CompletableFuture<StoredState> open(final String user) {
    if (opened != null) return opened;
    final CompletableFuture<StoredState> result = new CompletableFuture<>();
    opened = result;
    if (!io.execute(() -> result.complete(openNow(user)))) result.complete(StoredState.empty());
    return result;
  }

  /** Returns whether the store is in use (opened and not failed): writes are gathered only then. */
  public boolean active() {
    return active;
  }

  private StoredState openNow(String user) {
    userId = user;
    try {
      return openAndLoad(user);
    } catch (StoreException e) {
      if (e.kind() == StoreException.Kind.IO) {
        report(ClientError.Kind.STORE_IO, "could not open the offline store (" + e.getMessage()
            + "); the client goes on without it", e);
        return StoredState.empty();
      }
      report(ClientError.Kind.STORE_CORRUPT, "the offline store could not be read (" + e.getMessage()
          + "); it was deleted and is rebuilt from the service", e);
      closeStore();
      try {
        provider.delete(user);
        return openAndLoad(user);
      } catch (StoreException again) {
        closeStore();
        report(ClientError.Kind.STORE_IO, "could not rebuild the offline store (" + again.getMessage()
            + "); the client goes on without it", again);
        return StoredState.empty();
      }
    }
  }

  private StoredState openAndLoad(String user) throws StoreException {
    store = provider.open(user);
    StoredState state = store.load();
    loadedSends = state.sends();
    digests = digests(state, user);
    active = true;
    if (!state.isEmpty()) {
      log.info("the offline store holds " + state.rooms().size() + " rooms and " + state.sends().size()
          + " pending sends");
    }
    return state;
  }

  /** Reads the room list's digest of every stored room, each from the user's own receipt. */
  private Map<String, RoomDigest> digests(StoredState state, String user) throws StoreException {
    Map<String, Long> readSeq = new HashMap<>();
    for (Receipt r : state.receipts()) {
      if (r.userId().equals(user)) readSeq.put(r.roomId(), r.seq());
    }
    Map<String, RoomDigest> out = new HashMap<>();
    for (StoredRoom room : state.rooms()) {
      Long read = readSeq.get(room.room().id());
      RoomDigest d = store.digest(room.room().id(), user, read == null ? 0 : read, RECENT, unreadCap + 1);
      if (d != null) out.put(room.room().id(), d);
    }
    return out;
  }

  /** Returns the room list's digests the open read, once (I/O queue, just after the open). */
  public Map<String, RoomDigest> takeDigests() {
    Map<String, RoomDigest> d = digests;
    digests = null;
    return d == null ? Collections.<String, RoomDigest>emptyMap() : d;
  }

  /** Returns the sends the open loaded, once (I/O queue): the outbox queues them before any new one. */
  public List<StoredSend> takeLoadedSends() {
    List<StoredSend> sends = loadedSends;
    loadedSends = null;
    return sends;
  }

  /** Returns the open store (I/O queue), or null when there is none. */
  public ChatStore store() {
    return active ? store : null;
  }

  /**
   * Applies {@code write} on the I/O queue, then runs {@code then} on the actor whether it committed or not (a
   * failure is reported: what it held is delivered all the same, and may be delivered again after a restart).
   */
  void write(final StoreWrite write, final Runnable then) {
    boolean queued = io.execute(() -> {
      synchronized (commits) {
        // once sealed the actor may stop before it runs `then`: a write stored without its events reaching the
        // handlers would take them as delivered at the next start, which would never deliver them
        if (sealed) return;
        ChatStore s = store();
        if (s != null) {
          try {
            s.write(write);
          } catch (StoreException e) {
            report(e.kind() == StoreException.Kind.IO ? ClientError.Kind.STORE_IO : ClientError.Kind.STORE_CORRUPT,
                "could not write to the offline store (" + e.getMessage() + "): " + write, e);
          }
        }
        actor.execute(then); // before seal() returns, so ahead of the task that stops the engine
      }
    });
    if (!queued) actor.execute(then);
  }

  /**
   * Keeps messages the service answered to a read (a page of history, the messages a count needed), so that the
   * store holds them for the next read and the next start; no event goes with them. A message older than the
   * stored one is ignored by the store. They are kept as {@linkplain StoreWrite#keptMessage not delivered}: no
   * event delivered them, so a restart does not take their revisions as delivered. A failure is logged: the store
   * only misses a page.
   */
  public void keep(List<Message> messages) {
    if (!active || messages.isEmpty()) return;
    StoreWrite w = new StoreWrite();
    for (Message m : messages) w.keptMessage(m);
    writeQuietly(w);
  }

  /**
   * Applies a small write of the app's own (a read kept until the service confirms it) on the I/O queue, with no
   * event to hold; a failure is logged.
   */
  public void writeQuietly(final StoreWrite write) {
    if (!active) return;
    io.execute(() -> {
      ChatStore s = store();
      if (s == null) return;
      try {
        s.write(write);
      } catch (StoreException e) {
        log.warn("could not write to the offline store: " + write, e);
      }
    });
  }

  /**
   * From {@code close()}, before the engine stops: no write of {@link #write} commits from now on, so what the
   * handlers did not receive is not stored either and the next start delivers it. Waits for a write committing
   * now, whose events are then posted to the actor ahead of the engine's stop.
   */
  void seal() {
    synchronized (commits) {
      sealed = true;
    }
  }

  /**
   * Answers {@code query} from the store when it holds the whole page; the future completes on the I/O queue
   * with the page, or null when the service must answer.
   */
  public CompletableFuture<MessagePage> messages(final String roomId, final MessageQuery query) {
    final CompletableFuture<MessagePage> result = new CompletableFuture<>();
    boolean asked;
    synchronized (this) {
      asked = opened != null; // queued behind the open: a read right after connect waits for it
    }
    if (!asked || !io.execute(() -> result.complete(readPage(roomId, query)))) result.complete(null);
    return result;
  }

  /**
   * Searches the store on the I/O queue, behind its open: fails with {@link ApiException} {@code bad_request}
   * for a query the store refuses (as the service would answer it), with {@link ChatStateException} when no
   * store is in use or it keeps no index, with the {@link StoreException} of a failed read.
   */
  public CompletableFuture<SearchPage> search(final SearchQuery query) {
    final CompletableFuture<SearchPage> result = new CompletableFuture<>();
    boolean asked;
    synchronized (this) {
      asked = opened != null;
    }
    if (!asked || !io.execute(() -> search(query, result))) {
      result.completeExceptionally(new ChatStateException(
          "the offline store is not open: connect() or openOffline() opens it"));
    }
    return result;
  }

  private void search(SearchQuery query, CompletableFuture<SearchPage> result) {
    ChatStore s = store();
    try {
      SearchPage page = s == null ? null : s.search(query, userId);
      if (page == null) {
        result.completeExceptionally(new ChatStateException(s == null ? "the offline store is not in use"
            : "the offline store keeps no search index"));
      } else {
        result.complete(page);
      }
    } catch (IllegalArgumentException e) {
      result.completeExceptionally(new ApiException(400, "bad_request", e.getMessage()));
    } catch (StoreException | RuntimeException e) {
      log.warn("could not search the offline store", e);
      result.completeExceptionally(e);
    }
  }

  /**
   * Reads the rooms stored, most recently active first; the future completes on the I/O queue, with null when
   * they cannot be read.
   */
  public CompletableFuture<List<dev.svc.chat.store.StoredRoom>> rooms() {
    final CompletableFuture<List<dev.svc.chat.store.StoredRoom>> result = new CompletableFuture<>();
    if (!io.execute(() -> {
      ChatStore s = store();
      try {
        result.complete(s == null ? null : s.rooms());
      } catch (StoreException e) {
        log.warn("could not read the rooms from the offline store", e);
        result.complete(null);
      }
    })) {
      result.complete(null);
    }
    return result;
  }

  private MessagePage readPage(String roomId, MessageQuery query) {
    ChatStore s = store();
    if (s == null) return null;
    try {
      return s.messages(roomId, query);
    } catch (StoreException e) {
      log.warn("could not read room " + roomId + " from the offline store; asking the service", e);
      return null;
    }
  }

  /**
   * Closes the store once the writes queued before ran, and deletes everything kept of the user (logout). The
   * future completes on the I/O queue.
   */
  public CompletableFuture<Void> wipe() {
    final CompletableFuture<Void> result = new CompletableFuture<>();
    active = false;
    boolean queued = io.execute(() -> {
      closeStore();
      try {
        if (userId != null) provider.delete(userId);
        result.complete(null);
      } catch (StoreException e) {
        result.completeExceptionally(e);
      }
    });
    if (!queued) result.completeExceptionally(new StoreException(StoreException.Kind.IO,
        "the client's I/O queue is shut down", null));
    return result;
  }

  /**
   * Closes the store once the writes queued before ran; the future completes when it is closed (at once when the
   * I/O queue takes no more work).
   */
  public CompletableFuture<Void> close() {
    final CompletableFuture<Void> closed = new CompletableFuture<>();
    boolean queued = io.execute(() -> {
      try {
        closeStore();
      } finally {
        closed.complete(null);
      }
    });
    if (!queued) {
      active = false;
      closed.complete(null);
    }
    return closed;
  }

  private void closeStore() {
    active = false;
    if (store != null) store.close();
    store = null;
  }

  private void report(final ClientError.Kind kind, String message, Throwable cause) {
    log.warn("offline store: " + message, cause);
    final ClientError error = new ClientError(kind, message, null, cause);
    actor.execute(() -> errors.accept(error));
  }
}
