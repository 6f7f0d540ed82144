package dev.svc.chat.internal.outbox;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.util.Scheduler;

/** The {@link SendProgress} of one outbox entry: posts what it is told to the actor. */
final class EntryProgress implements SendProgress {
  /** The outbox, on its actor. */
  interface Owner {
    /** Publishes the entry's new snapshot. */
    void publish(OutboxEntry e);
  }

  private final OutboxEntry entry;
  private final Scheduler actor;
  private final OutboxRecords records;
  private final Owner owner;

  EntryProgress(OutboxEntry entry, Scheduler actor, OutboxRecords records, Owner owner) {
    this.entry = entry;
    this.actor = actor;
    this.records = records;
    this.owner = owner;
  }

  @Override
  public CompletableFuture<Void> partsChanged(final List<MessagePart> parts) {
    final CompletableFuture<Void> written = new CompletableFuture<>();
    boolean queued = actor.execute(() -> {
      if (entry.done) {
        written.complete(null);
        return;
      }
      entry.parts = parts;
      owner.publish(entry);
      records.rewrite(entry, written);
    });
    if (!queued) written.complete(null);
    return written;
  }

  @Override
  public void progress(final long sent, final long total) {
    actor.execute(() -> {
      entry.bytesSent = sent;
      entry.bytesTotal = total;
      owner.publish(entry);
    });
  }

  @Override
  public boolean beginMessage() {
    return entry.transfer.compareAndSet(OutboxEntry.TRANSFER_OPEN, OutboxEntry.TRANSFER_MESSAGE) && !entry.done;
  }

  @Override
  public boolean cancelled() {
    return entry.transfer.get() == OutboxEntry.TRANSFER_CANCELLED;
  }

  @Override
  public boolean ended() {
    return entry.done;
  }
}
