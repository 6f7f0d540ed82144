package dev.svc.chat.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.svc.chat.ConnectionState;
import dev.svc.chat.EventType;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Room;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.internal.events.EventHub;
import dev.svc.chat.internal.offline.OfflineStore;
import dev.svc.chat.internal.offline.StoreJournal;
import dev.svc.chat.internal.recovery.DeliverySink;
import dev.svc.chat.internal.recovery.Recovery;
import dev.svc.chat.internal.rooms.RoomListModel;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.util.SerialQueue;
import dev.svc.chat.Receipt;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredState;

/**
 * The client's offline store wired in ({@link SvcOptions#store()}): the first connect opens the user's store
 * and starts recovery from what it kept before the connection is opened; reads answer from it where it holds
 * the answer; close lets the events held for a write reach the handlers; logout deletes it.
 */
final class StoredSession {
  /** How long close() waits for events held for a write to reach the handlers. */
  static final long SETTLE_MILLIS = 500;
  /** How long close() waits for the store to run the writes queued before it and close (a disk, not a network). */
  static final long CLOSE_MILLIS = 2_000;

  final OfflineStore offline;
  final StoreJournal journal;
  private final Scheduler actor;
  private final Log log;
  private Recovery recovery;
  private RoomListModel roomList;
  private dev.svc.chat.internal.rooms.ReadQueue reads;
  /** Whether the stored state was handed to recovery (actor). */
  private boolean restored;

  private StoredSession(OfflineStore offline, StoreJournal journal, Scheduler actor, Log log) {
    this.offline = offline;
    this.journal = journal;
    this.actor = actor;
    this.log = log;
  }

  /** Returns the session of a client whose options name a store, else null. */
  static StoredSession of(SvcOptions options, EventHub hub, DeliverySink router, Scheduler actor, Log log) {
    if (options.store() == null) return null;
    OfflineStore offline = new OfflineStore(options.store(), SerialQueue.io(log), actor,
        e -> hub.publish(EventType.CLIENT_ERROR, e), options.unreadCap(), log);
    return new StoredSession(offline, new StoreJournal(router, hub, offline, actor), actor, log);
  }

  /** Hands the stored state to {@code recovery} at the first connect (recovery delivers through the journal). */
  void attach(Recovery recovery, RoomListModel roomList, dev.svc.chat.internal.rooms.ReadQueue reads) {
    this.recovery = recovery;
    this.roomList = roomList;
    this.reads = reads;
    roomList.follow();
    // a read stays in the store until the service confirmed it, so that it is sent again after a restart
    reads.onConfirmed(r -> offline.writeQuietly(new StoreWrite().readSent(r.roomId(), r.seq())));
  }

  /** The app marked a message read whose seq the room list knew: kept until the service confirms it. */
  void readMade(Receipt read) {
    offline.writeQuietly(new StoreWrite().pendingRead(read));
  }

  /**
   * Opens {@code userId}'s store (once), hands what it kept to recovery on the actor, then runs {@code connect}
   * with the token current by then, unless {@code wanted} says the app disconnected meanwhile.
   */
  CompletableFuture<Void> connect(String userId, final Supplier<String> token, final BooleanSupplier wanted,
      final Function<String, CompletableFuture<Void>> connect) {
    final CompletableFuture<Void> result = new CompletableFuture<>();
    offline.open(userId).thenAccept(state -> {
      final java.util.Map<String, dev.svc.chat.store.RoomDigest> digests = offline.takeDigests(); // on the I/O queue
      boolean posted = actor.execute(() -> {
        restore(state, digests);
        if (!wanted.getAsBoolean()) { // disconnect() or close() came while the store opened: they win
          result.completeExceptionally(new dev.svc.chat.ChatStateException(
              "disconnect() was called before the connection opened"));
          return;
        }
        connect.apply(token.get()).whenComplete((v, e) -> {
          if (e != null) {
            result.completeExceptionally(e);
          } else {
            result.complete(null);
          }
        });
      });
      if (!posted) result.completeExceptionally(new dev.svc.chat.ChatStateException("the client is closed"));
    });
    return result;
  }

  /** Opens {@code userId}'s store (once) and hands what it kept to recovery and the room list, without connecting. */
  CompletableFuture<Void> serve(String userId) {
    final CompletableFuture<Void> result = new CompletableFuture<>();
    offline.open(userId).whenComplete((state, error) -> {
      if (error != null) {
        result.completeExceptionally(error);
        return;
      }
      final java.util.Map<String, dev.svc.chat.store.RoomDigest> digests = offline.takeDigests(); // on the I/O queue
      boolean posted = actor.execute(() -> {
        restore(state, digests);
        result.complete(null);
      });
      if (!posted) result.completeExceptionally(new dev.svc.chat.ChatStateException("the client is closed"));
    });
    return result;
  }

  private void restore(StoredState state, java.util.Map<String, dev.svc.chat.store.RoomDigest> digests) {
    if (restored) return;
    restored = true;
    recovery.restore(state);
    roomList.restore(state, digests);
    if (reads != null) reads.restore(state.pendingReads());
  }

  /** Answers from the store when it holds the whole page, else asks {@code service} and keeps its answer. */
  CompletableFuture<MessagePage> messages(String roomId, MessageQuery query,
      final Supplier<CompletableFuture<MessagePage>> service) {
    return offline.messages(roomId, query).thenCompose(page -> {
      if (page != null) return CompletableFuture.completedFuture(page);
      return askAndKeep(service, offline::keep); // the next read of this page, and the next start, have it
    });
  }

  /**
   * Asks {@code service} for a page; the future it returns completes only after {@code keep} was given the page's
   * messages. So the keeping write is queued on the store before the app sees the page, and a {@code close()}
   * the app makes on seeing it is queued after that write, which then is stored. (A keep registered on the
   * service's own future beside the app's ran after the app's dependents, which run last-registered first: an
   * app that closed on the answer closed the store before the page was queued, and the page was lost.)
   */
  static CompletableFuture<MessagePage> askAndKeep(Supplier<CompletableFuture<MessagePage>> service,
      final java.util.function.Consumer<List<dev.svc.chat.Message>> keep) {
    return service.get().thenApply(p -> {
      keep.accept(p.messages());
      return p;
    });
  }

  /** While not connected, answers from the store's rooms (most recently active first); else asks the service. */
  CompletableFuture<List<Room>> rooms(ConnectionState state, Supplier<CompletableFuture<List<Room>>> service) {
    if (state == ConnectionState.CONNECTED || !offline.active()) return service.get();
    return offline.rooms().thenCompose(stored -> {
      if (stored == null) return service.get();
      List<Room> rooms = new ArrayList<>(stored.size());
      for (StoredRoom r : stored) rooms.add(r.room());
      return CompletableFuture.completedFuture(rooms);
    });
  }

  /** From close(), off the actor: lets the events held for a write reach the handlers, for a short while. */
  void settle() {
    try {
      if (!journal.settle(SETTLE_MILLIS)) log.info("closing with events not yet stored; they are recovered at the next start");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Closes the store once its queued writes ran, and waits for that up to {@link #CLOSE_MILLIS}: what the app did
   * last (a read or a send kept offline) is then in the store when close() returns, for the user's next client in
   * this process (whose open may run on the other shared I/O thread) and for the next process (the I/O threads are
   * daemons). Never waits on the I/O queue itself (a logger called there), which would wait for itself.
   */
  void close() {
    CompletableFuture<Void> closed = offline.close();
    if (offline.io().inQueue()) return;
    try {
      closed.get(CLOSE_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      log.warn("closing with offline store writes still queued; the store closes when they ran", null);
    } catch (ExecutionException e) {
      log.warn("closing the offline store failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Deletes the user's store once its queued writes ran (logout). */
  CompletableFuture<Void> wipe() {
    return offline.wipe();
  }

  /** Says what a wipe's failure means, for the app. */
  static String describe(Throwable error) {
    return error instanceof StoreException ? "could not delete the offline store: " + error.getMessage()
        : String.valueOf(error);
  }
}
