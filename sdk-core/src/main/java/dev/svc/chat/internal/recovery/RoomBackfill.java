package dev.svc.chat.internal.recovery;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChangesPage;
import dev.svc.chat.ClientError;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.internal.util.Scheduler;

/**
 * One room's catching up, in steps that each read a page and deliver it:
 *
 * <ol>
 *   <li>history: for a room the client holds nothing of (first seen after a loss), the messages created since the
 *       service time asked for, read backwards from its position;
 *   <li>messages: every message after the ledger's seq, as {@link EventType#NEW_MESSAGE} in its latest state;
 *   <li>changes: every change after the watermark to a message already delivered, as
 *       {@link EventType#MESSAGE_UPDATED}, then the watermark moves to the room's revision;
 *   <li>receipts: after a loss, every receipt newer than the one delivered.
 * </ol>
 *
 * A step that fails, by the network or by throwing, is retried with backoff from where it stopped; nothing is
 * skipped. Live new messages of the room are held meanwhile (see {@link Recovery#onNewMessage}). Confined to the
 * actor.
 */
final class RoomBackfill {
  static final int PAGE = 100;

  private final Recovery owner;
  final RoomLedger room;
  /** After a loss: deliver receipts newer than those known, or (users not known) read from this time. */
  private long receiptsSince;
  /** For a room new to the client: deliver the messages created from this service time. */
  private long historySince;
  /** The history is read below this seq (0: from the newest message). */
  private long historyBelow;
  /** For a room new to the client: the revision its changes are read from (-1: its history's highest). */
  private long baseRev;
  /** Whether this pass reads messages and changes (false: only receipts). */
  private boolean messagesToo;
  private boolean again;
  /** Whether it was given a slot ({@link BackfillSlots}), which it gives back when it finishes. */
  boolean started;
  boolean cancelled;
  boolean gaveUp;
  /** Set once it finished (or was cancelled): nothing more is delivered by it. */
  boolean done;
  int messages;
  int updates;
  int receipts;
  private int attempt;
  private Scheduler.Timer retry;
  /** Changes are read from here on the current pass (a page ends at its last message's revision). */
  private long changesSince;
  private final List<Message> history = new ArrayList<>();
  private long newestSeen;

  RoomBackfill(Recovery owner, RoomLedger room, Ask ask) {
    this.owner = owner;
    this.room = room;
    this.messagesToo = ask.messages;
    this.receiptsSince = ask.receiptsSince;
    this.historySince = ask.historySince;
    this.historyBelow = ask.historyBelow;
    this.baseRev = ask.baseRev;
  }

  /** Asks for one more pass once this one ends, with what {@code ask} asks for too. */
  void again(Ask ask) {
    again = true;
    this.messagesToo |= ask.messages;
    if (ask.receiptsSince > 0 && (receiptsSince == 0 || ask.receiptsSince < receiptsSince)) {
      receiptsSince = ask.receiptsSince;
    }
    if (ask.historySince > 0 && room.seq < 0 && historySince == 0) {
      historySince = ask.historySince;
      historyBelow = ask.historyBelow;
      baseRev = ask.baseRev;
    }
  }

  void start() {
    started = true;
    room.moveTo(RoomState.CATCHING_UP);
    owner.sink.publish(EventType.RECOVERY, new RecoveryEvent(RecoveryEvent.Phase.STARTED, room.roomId, 0, 0, 0, 0));
    pass();
  }

  void cancel() {
    cancelled = true;
    if (retry != null) retry.cancel();
  }

  private void pass() {
    if (room.seq < 0) {
      history.clear();
      newestSeen = 0;
      readHistory(historyBelow > 0 ? Long.valueOf(historyBelow) : null);
    } else if (messagesToo) {
      readMessages();
    } else {
      readReceipts();
    }
  }

  // ---------------------------------------------------------------- history (a room new to the client)

  private void readHistory(final Long before) {
    MessageQuery query = before == null ? MessageQuery.latest(PAGE) : MessageQuery.before(before, PAGE);
    fetch(() -> owner.source.messages(room.roomId, query), page -> onHistoryPage(page, before), () -> readHistory(before));
  }

  private void onHistoryPage(MessagePage page, Long before) {
    List<Message> list = page.messages();
    if (newestSeen == 0 && !list.isEmpty()) newestSeen = list.get(list.size() - 1).seq(); // on the first page
    boolean reachedCutoff = false;
    List<Message> kept = new ArrayList<>();
    for (Message m : list) {
      if (m.createdAt() >= historySince) {
        kept.add(m);
      } else {
        reachedCutoff = true;
      }
    }
    history.addAll(0, kept);
    if (!reachedCutoff && page.hasMore() && !list.isEmpty()) {
      readHistory(list.get(0).seq());
      return;
    }
    // the room starts just before its first message since the cut-off (or after its newest one read)
    room.seq = history.isEmpty() ? (historyBelow > 0 ? historyBelow - 1 : newestSeen) : history.get(0).seq() - 1;
    if (baseRev >= 0) {
      room.raiseWatermark(baseRev); // its changes are read from its position
    } else if (room.rev < 0) { // no position: its changes are read from its history's highest revision
      long rev = -1;
      for (Message m : history) rev = Math.max(rev, m.rev());
      room.rev = Math.max(0, rev);
    }
    List<Message> deliver = new ArrayList<>(history);
    history.clear();
    owner.watermarksMoved(room, true);
    for (Message m : deliver) {
      if (m.seq() == room.seq + 1) owner.deliverNew(room, latest(m), this);
    }
    readMessages();
  }

  // ---------------------------------------------------------------- messages

  private void readMessages() {
    fetch(() -> owner.source.messages(room.roomId, MessageQuery.after(Math.max(0, room.seq), PAGE)), this::onMessages,
        this::readMessages);
  }

  private void onMessages(MessagePage page) {
    for (Message m : page.messages()) {
      if (m.seq() <= room.seq) continue;
      if (m.seq() != room.seq + 1) {
        owner.log.warn("room " + room.roomId + ": the service skipped from seq " + room.seq + " to " + m.seq(), null);
      }
      owner.deliverNew(room, latest(m), this);
    }
    if (page.hasMore() && !page.messages().isEmpty()) {
      readMessages();
    } else {
      changesSince = room.rev;
      readChanges();
    }
  }

  /** Returns the later of {@code m} and a held copy of it (a live change may be newer than the page). */
  private Message latest(Message m) {
    Message held = room.held.remove(m.seq());
    return held != null && held.rev() > m.rev() ? held : m;
  }

  // ---------------------------------------------------------------- changes

  private void readChanges() {
    fetch(() -> owner.source.changes(room.roomId, changesSince), this::onChanges, this::readChanges);
  }

  private void onChanges(ChangesPage page) {
    List<Message> list = page.messages();
    for (Message m : list) {
      if (m.seq() > room.seq) {
        room.hold(m); // sent after the messages were read: delivered as new, in order, after this pass
      } else if (!room.applied(m.id(), m.rev())) {
        owner.deliverUpdate(room, m, this);
      }
    }
    if (page.hasMore() && !list.isEmpty()) {
      changesSince = list.get(list.size() - 1).rev();
      readChanges();
      return;
    }
    long before = room.rev;
    room.raiseWatermark(page.rev());
    if (room.rev != before) owner.watermarksMoved(room, true);
    if (receiptsSince > 0) {
      readReceipts();
    } else {
      finishPass();
    }
  }

  // ---------------------------------------------------------------- receipts

  private void readReceipts() {
    fetch(() -> owner.source.receipts(room.roomId), this::onReceipts, this::readReceipts);
  }

  private void onReceipts(List<Receipt> list) {
    for (Receipt r : list) {
      boolean fresh = room.knowsReceiptOf(r.userId()) || r.readAt() >= receiptsSince;
      if (fresh && room.newerReceipt(r)) {
        owner.receiptDelivered(r);
        receipts++;
      }
    }
    receiptsSince = 0;
    finishPass();
  }

  // ---------------------------------------------------------------- flow

  private void finishPass() {
    if (again) {
      again = false;
      messagesToo = true;
      pass();
      return;
    }
    owner.onBackfillFinished(this);
  }

  /**
   * Reads a page once the handlers took what was delivered before ({@link DeliverySink#whenHandled}), then its
   * answer on the actor; a failure retries {@code step} after a backoff delay.
   */
  private <T> void fetch(final Supplier<CompletableFuture<T>> read, final Consumer<T> onValue, final Runnable step) {
    owner.sink.whenHandled(() -> {
      if (cancelled || owner.isClosed() || room.backfill != this) return;
      CompletableFuture<T> future;
      try {
        future = read.get();
      } catch (RuntimeException e) {
        future = new CompletableFuture<>();
        future.completeExceptionally(e);
      }
      fetchNow(future, onValue, step);
    });
  }

  private <T> void fetchNow(CompletableFuture<T> future, final Consumer<T> onValue, final Runnable step) {
    owner.whenDone(future, () -> !cancelled && room.backfill == this, value -> {
      try {
        onValue.accept(value);
        attempt = 0;
      } catch (RuntimeException e) {
        // what the step delivered stays delivered (the ledger says so); the retry reads on from there
        failed(e, step);
      }
    }, error -> {
      if (lostAccess(error)) {
        gaveUp = true;
        owner.sink.report(new ClientError(ClientError.Kind.ROOM_ACCESS_LOST,
            "room " + room.roomId + " is not readable (" + error.getMessage() + "); its recovery stopped until a "
            + "live event shows access is back", room.roomId, error));
        owner.lostAccess(room);
        owner.onBackfillFinished(this);
        return;
      }
      failed(error, step);
    });
  }

  private void failed(Throwable error, final Runnable step) {
    long delay = owner.backoff.delayMillis(attempt++);
    owner.sink.report(new ClientError(ClientError.Kind.RECOVERY_RETRY, "recovering room " + room.roomId
        + " failed (" + error + "); retry " + attempt + " in " + delay + " ms", room.roomId, error));
    retry = owner.actor.schedule(() -> {
      retry = null;
      if (!cancelled && !owner.isClosed() && room.backfill == this) step.run();
    }, delay);
  }

  /** Returns whether {@code error} means the room is not readable for this user any more. */
  static boolean lostAccess(Throwable error) {
    if (!(error instanceof ApiException)) return false;
    int status = ((ApiException) error).status();
    return status == 403 || status == 404;
  }
}
