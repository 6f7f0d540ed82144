package dev.svc.chat.internal.outbox;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.ChatException;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.PendingSend;
import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.internal.util.Scheduler;

/**
 * One pending send: what to send, and its progress. The fields after the constructor's are confined to the
 * actor.
 */
final class OutboxEntry {
  final String roomId;
  final String clientMessageId;
  final String senderId;
  /** Replaced (on the actor) as the upload of its files moves on: see {@link SendProgress#partsChanged}. */
  volatile List<MessagePart> parts;
  /** Whether it has files to upload: such a send starts alone in its room, and nothing overtakes it. */
  final boolean uploads;
  /** The reply, thread and mentions the send carries ({@link SendLinks#NONE} for none). */
  final SendLinks links;
  /** When the app made the send: epoch milliseconds, kept in the entry's file. */
  final long createdAt;
  /** The app's future; null for an entry loaded from a file, which nobody waits for. */
  final CompletableFuture<Message> result;
  /** When the send was made, on the actor's monotonic clock (for the deadline). */
  final long enqueuedAtMillis;
  /** What the send weighs in the socket's budget: a bound of its frame's bytes ({@link SocketSendBudget#weight}). */
  final long bytes;

  /** The key of the entry in the snapshot of pending sends: the order it was queued in, in this process. */
  long key;
  /**
   * The order of the entry among the user's sends, kept in its file: set on the I/O queue when written or
   * loaded (for an outbox in memory, on the actor when queued), and read on the actor after that hand-over.
   */
  long sequence;
  /** The entry's handle in the outbox's persistence (its file, or its row), or null for one kept in memory only (or not written yet, or deleted). */
  Object handle;
  /** Whether the entry ended while its file was being written: the file is deleted once written. */
  boolean deleteWhenWritten;
  int attempts;
  ChatException lastError;
  Scheduler.Timer retryTimer;
  Scheduler.Timer deadlineTimer;
  /** Whether an attempt of this entry is under way. */
  boolean inFlight;
  /** The route of the latest attempt ({@link OutboxTransport#route}), null before the first. */
  SendRoute route;
  /** Whether the pending retry follows a network failure, so that a new connection may start it early. */
  boolean wakeOnConnect;
  /**
   * Whether the entry has ended (success, refusal, deadline, close): a late answer is then ignored. Written on the
   * actor, read by an upload under way too.
   */
  volatile boolean done;
  /** The file bytes the service holds and their total (0 for a send without files). */
  long bytesSent;
  long bytesTotal;
  static final int TRANSFER_OPEN = 0;
  static final int TRANSFER_MESSAGE = 1;
  static final int TRANSFER_CANCELLED = 2;
  /** Open, then either its message went out (no cancel any more) or it was cancelled (no message any more). */
  final AtomicInteger transfer = new AtomicInteger(TRANSFER_OPEN);
  /** What its attempts tell the outbox; made at its first attempt. */
  EntryProgress progress;
  /**
   * Whether its record is durable (the outbox directory or the store): a {@code close()} then leaves it for the
   * user's next connect, and its future completes with the pending message instead of failing.
   */
  volatile boolean kept;

  OutboxEntry(String roomId, List<MessagePart> parts, String clientMessageId, String senderId, long createdAt,
      CompletableFuture<Message> result, long enqueuedAtMillis) {
    this(roomId, parts, SendLinks.NONE, clientMessageId, senderId, createdAt, result, enqueuedAtMillis);
  }

  OutboxEntry(String roomId, List<MessagePart> parts, SendLinks links, String clientMessageId, String senderId,
      long createdAt, CompletableFuture<Message> result, long enqueuedAtMillis) {
    this.roomId = roomId;
    this.parts = Collections.unmodifiableList(new ArrayList<>(parts));
    this.links = links;
    this.clientMessageId = clientMessageId;
    this.senderId = senderId;
    this.createdAt = createdAt;
    this.result = result;
    this.enqueuedAtMillis = enqueuedAtMillis;
    this.bytes = SocketSendBudget.weight(roomId, this.parts, clientMessageId, senderId) + links.weight();
    boolean files = false;
    for (MessagePart p : this.parts) files |= p.isFile() && p.rawFields().containsKey(MessagePart.UPLOAD_FIELD);
    this.uploads = files;
  }

  /** Returns whether a retry timer is pending. */
  boolean waitingToRetry() {
    return retryTimer != null;
  }

  void cancelTimers() {
    if (retryTimer != null) retryTimer.cancel();
    if (deadlineTimer != null) deadlineTimer.cancel();
    retryTimer = null;
    deadlineTimer = null;
  }

  PendingSend snapshot() {
    return new PendingSend(roomId, clientMessageId, senderId, parts, createdAt, attempts, lastError,
        Math.min(bytesSent, bytesTotal), bytesTotal);
  }

  @Override
  public String toString() {
    return "send " + clientMessageId + " to room " + roomId;
  }
}
