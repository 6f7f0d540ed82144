package dev.svc.chat.internal.outbox;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ClientError;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.util.SerialQueue;

/**
 * The durable records of an {@link Outbox}'s entries in its {@link OutboxPersistence} (the offline store's rows or
 * the outbox directory's files): each written on the I/O queue before the entry's first attempt, deleted when the
 * entry ends, and those a user left loaded at the user's first connect. The persistence is used on the I/O queue
 * only, never on the actor; what it answers is posted back to the actor, in the order asked, so the entries a user
 * left reach the outbox before the user's new sends. Without a persistence nothing is recorded.
 */
final class OutboxRecords {
  /** The outbox, told on its actor. */
  interface Owner {
    /** The entry's record was written (or failed to be, reported already) and it has not ended: queue it. */
    void written(OutboxEntry e);

    /** The entries {@code user} left, in sequence order. */
    void loaded(String user, List<OutboxEntry> loaded);

    /** Reports a problem with the records. */
    void report(ClientError.Kind kind, String message, String roomId, Throwable cause);
  }

  /** Null for an outbox in memory only. */
  private final OutboxPersistence store;
  /** Where {@link #store} is used; null without a store. */
  private final SerialQueue io;
  private final Scheduler actor;
  private final Owner owner;

  // actor-confined
  /** Entries whose record is being written: not queued yet, but ended like queued ones by a close or new user. */
  private final Set<OutboxEntry> writing = new LinkedHashSet<>();

  // confined to the I/O queue
  /** The sequence of the next record: above every sequence loaded or written in this process. */
  private long nextSequence = 1;

  OutboxRecords(OutboxPersistence store, SerialQueue io, Scheduler actor, Owner owner) {
    if (store != null && io == null) throw new NullPointerException("a store needs an I/O queue");
    this.store = store;
    this.io = io;
    this.actor = actor;
    this.owner = owner;
  }

  /** Returns whether entries are recorded (an outbox with a persistence). */
  boolean durable() {
    return store != null;
  }

  /** Returns where the records are, for messages. */
  String where() {
    return store == null ? "memory" : store.where();
  }

  /** Reads the entries {@code user} left, on the I/O queue, and hands them to the owner on the actor. */
  void load(final String user, final long nowMillis) {
    io.execute(() -> {
      List<OutboxEntry> loaded = store.load(user, nowMillis, (kind, message, cause) -> actor.execute(
          () -> owner.report(kind, message, null, cause)));
      for (OutboxEntry e : loaded) nextSequence = Math.max(nextSequence, e.sequence + 1);
      actor.execute(() -> owner.loaded(user, loaded));
    });
  }

  /** Returns the entry of that send whose record is being written, or null (actor). */
  OutboxEntry writing(String roomId, String clientMessageId) {
    for (OutboxEntry e : writing) {
      if (e.roomId.equals(roomId) && e.clientMessageId.equals(clientMessageId) && !e.done) return e;
    }
    return null;
  }

  /** Writes the entry's record on the I/O queue; the owner queues the entry once it is written (actor). */
  void write(final OutboxEntry e) {
    writing.add(e);
    if (!io.execute(() -> writeNow(e))) written(e, null, new IOException("the I/O executor refused the write"));
  }

  /** On the I/O queue: writes the entry's record (durable when this returns), then hands it back to the actor. */
  private void writeNow(OutboxEntry e) {
    e.sequence = nextSequence++; // read on the actor after the post below, which publishes it
    Object record = null;
    Exception error = null;
    try {
      record = store.write(e);
    } catch (IOException | RuntimeException ex) {
      error = ex;
    }
    final Object written = record;
    final Exception failure = error;
    actor.execute(() -> written(e, written, failure)); // refused after close: the record stays, as at close
  }

  /** The entry's write ended: it enters its room's queue now, unless it ended meanwhile. */
  private void written(OutboxEntry e, Object record, Exception error) {
    writing.remove(e);
    e.handle = record;
    if (error != null) {
      owner.report(ClientError.Kind.OUTBOX_IO, "could not write the outbox entry of the " + e + " ("
          + error.getMessage() + "); it is kept in memory only", e.roomId, error);
    }
    if (e.done) {
      if (e.deleteWhenWritten) delete(e); // its deadline passed while it was being written
      return;
    }
    owner.written(e);
  }

  /** Deletes the entry's record on the I/O queue, or once it is written (actor). */
  void delete(final OutboxEntry e) {
    final Object record = e.handle;
    if (record == null) {
      e.deleteWhenWritten = writing.contains(e);
      return;
    }
    e.handle = null;
    io.execute(() -> {
      try {
        store.delete(record);
      } catch (IOException ex) {
        actor.execute(() -> owner.report(ClientError.Kind.OUTBOX_IO, "could not delete the outbox file of the ended "
            + e + "; it will be sent again at the next start (the service ignores the repeat)", e.roomId, ex));
      }
    });
  }

  /**
   * Writes the entry's record again (its parts changed) on the I/O queue, replacing the first; completes
   * {@code written} once durable, or at once when the entry has no record (kept in memory only).
   */
  void rewrite(final OutboxEntry e, final CompletableFuture<Void> written) {
    if (store == null || e.handle == null) {
      written.complete(null);
      return;
    }
    boolean queued = io.execute(() -> {
      try {
        store.write(e); // same sequence and id: the same file, or the same row, replaced whole
      } catch (IOException | RuntimeException ex) {
        actor.execute(() -> owner.report(ClientError.Kind.OUTBOX_IO, "could not record the upload state of the "
            + e + " (" + ex.getMessage() + "); a restart uploads its files again", e.roomId, ex));
      }
      written.complete(null);
    });
    if (!queued) written.complete(null);
  }

  /** Returns the entries being written and forgets them: they end with the others (actor); their records stay. */
  List<OutboxEntry> takeWriting() {
    List<OutboxEntry> taken = new ArrayList<>(writing);
    writing.clear();
    return taken;
  }

  /** Deletes the records {@code user} left (logout); completes on the I/O queue. */
  CompletableFuture<Void> wipe(String user) {
    if (store == null || user == null) return CompletableFuture.completedFuture(null);
    return OutboxWipe.run(store, io, user);
  }
}
