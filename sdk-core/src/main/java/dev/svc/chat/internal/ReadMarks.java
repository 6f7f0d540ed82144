package dev.svc.chat.internal;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import dev.svc.chat.Receipt;
import dev.svc.chat.internal.auth.Credentials;
import dev.svc.chat.internal.rooms.ReadQueue;
import dev.svc.chat.internal.rooms.RoomListModel;
import dev.svc.chat.internal.util.Scheduler;

/**
 * The app's reads ({@code markRead}): the room list's count drops at once, the offline store keeps the read until
 * the service confirms it, and the read is sent now, or (offline, or before the first connect of a client opened
 * offline) when a connection is accepted. At close a read the store keeps completes as {@link Receipt#pending()}.
 * Thread-safe; the room list is touched on the actor.
 */
final class ReadMarks {
  private final ReadQueue queue;
  private final RoomListModel roomList;
  private final StoredSession stored;
  private final Credentials credentials;
  private final Scheduler actor;
  private final LongSupplier wallClock;
  /** The latest read of each room the store keeps until the service confirms it: what a close leaves kept. */
  private final Map<String, Receipt> kept = new ConcurrentHashMap<>();

  ReadMarks(ReadQueue queue, RoomListModel roomList, StoredSession stored, Credentials credentials, Scheduler actor,
      LongSupplier wallClock) {
    this.queue = queue;
    this.roomList = roomList;
    this.stored = stored;
    this.credentials = credentials;
    this.actor = actor;
    this.wallClock = wallClock;
  }

  /** Marks {@code roomId} read up to {@code messageId} (inputs checked); the future completes on an SDK thread. */
  CompletableFuture<Receipt> mark(final String roomId, final String messageId) {
    if (roomList.following()) {
      final String me = credentials.userId();
      final long at = wallClock.getAsLong();
      actor.execute(() -> {
        long seq = roomList.markedRead(roomId, messageId); // the count drops at once
        if (seq > 0 && stored != null && me != null) {
          Receipt read = Receipt.of(roomId, me, messageId, seq, at);
          stored.readMade(read);
          kept.put(roomId, read);
        }
      });
    }
    if (stored != null && credentials.token() == null) {
      return queue.later(roomId, messageId); // opened offline: no session yet, the first connection sends it
    }
    return queue.markRead(roomId, messageId);
  }

  /** The client closes ({@code keep}: not a logout): reads kept by the store complete as pending, others fail. */
  void close(Throwable error, boolean keep) {
    queue.close(error, keep ? kept : null);
  }
}
