package dev.svc.chat.internal.outbox;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.MessagePart;

/**
 * What an attempt of a send with files tells the outbox, from any thread: its parts' new upload state (kept in the
 * send's record, so a restart resumes the upload), its progress, and the moment its message goes out (after
 * which it can no longer be cancelled).
 */
public interface SendProgress {
  /**
   * Makes {@code parts} the send's parts and writes them into its record; the future completes once they are
   * durable (at once for a send kept in memory, or one that ended).
   */
  CompletableFuture<Void> partsChanged(List<MessagePart> parts);

  /** The service holds {@code sent} of the send's {@code total} file bytes. */
  void progress(long sent, long total);

  /** Returns false when the send was cancelled (or ended); after true it can no longer be cancelled. */
  boolean beginMessage();

  /** Returns whether the send was cancelled or ended by its deadline: its upload is terminated. */
  boolean cancelled();

  /** Returns whether the send ended in any way (including a close that keeps it for the next start). */
  boolean ended();
}
