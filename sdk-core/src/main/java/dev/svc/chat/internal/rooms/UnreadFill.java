package dev.svc.chat.internal.rooms;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import dev.svc.chat.ApiException;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.internal.realtime.ReconnectPolicy;
import dev.svc.chat.internal.recovery.RecoverySource;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;

/**
 * Reads what a room's count needs and the client never received: the user's own receipt when it is not known,
 * then the messages between it and the first one the room's tally saw, page by page, until the count is exact
 * or above the cap. At most {@link #CONCURRENT} rooms at once; a failed read is retried with backoff while the
 * room is followed, and a room the user cannot read is left as it is. Confined to the actor.
 */
public final class UnreadFill {
  static final int CONCURRENT = 4;
  static final int PAGE = 100;

  private final Scheduler actor;
  private final RecoverySource source;
  private final ReconnectPolicy backoff;
  private final Log log;
  private RoomListModel model;
  /** Receives the messages a fill read (the offline store keeps them for the next start). */
  private java.util.function.Consumer<List<Message>> keep = list -> { };
  private final ArrayDeque<RoomTally> waiting = new ArrayDeque<>();
  private int running;
  private int listAttempt;

  public UnreadFill(Scheduler actor, RecoverySource source, ReconnectPolicy backoff, Log log) {
    this.actor = actor;
    this.source = source;
    this.backoff = backoff;
    this.log = log;
  }

  /** Hands the messages each fill reads to {@code keep} (actor, before the first connect). */
  public void keep(java.util.function.Consumer<List<Message>> keep) {
    this.keep = keep;
  }

  /** Binds the fill to its model (both ways). */
  public void attach(RoomListModel model) {
    this.model = model;
    model.fill(this);
  }

  /** Lists the rooms for a room list started after the client's own listing (retried until it succeeds). */
  public void listAll() {
    when(source.listRooms(), (List<Room> list) -> {
      listAttempt = 0;
      for (Room r : list) model.listed(r);
      model.listingDone(false);
    }, error -> actor.schedule(this::listAll, backoff.delayMillis(listAttempt++)));
  }

  void start(RoomTally t) {
    t.filling = true;
    if (running < CONCURRENT) {
      running++;
      step(t, 0);
    } else {
      waiting.add(t);
    }
  }

  private void step(final RoomTally t, final int attempt) {
    if (model.tally(t.room.id()) != t) {
      finish(t);
      return;
    }
    if (t.readSeq < 0) {
      when(source.receipts(t.room.id()), (List<Receipt> receipts) -> {
        long seq = 0; // no receipt of the user: nothing was read
        for (Receipt r : receipts) {
          if (r.userId().equals(model.user())) seq = Math.max(seq, r.seq());
        }
        if (!t.read(seq) && t.readSeq < 0) t.readSeq = 0;
        step(t, 0);
      }, error -> retry(t, attempt, error));
      return;
    }
    readMessages(t, t.readSeq, t.readSeq, attempt);
  }

  private void readMessages(final RoomTally t, final long from, final long after, final int attempt) {
    if (t.knownFrom <= from + 1 || t.knownFrom <= t.readSeq + 1 || t.unread.size() > model.cap()) {
      if (t.knownFrom > from + 1 && t.unread.size() <= model.cap()) t.knownFrom = from + 1;
      finish(t);
      return;
    }
    when(source.messages(t.room.id(), MessageQuery.after(after, PAGE)), (MessagePage page) -> {
      long lastSeq = after;
      keep.accept(page.messages());
      for (Message m : page.messages()) {
        t.filled(m, model.user());
        lastSeq = Math.max(lastSeq, m.seq());
      }
      if (!page.hasMore() || page.messages().isEmpty() || lastSeq >= t.knownFrom - 1) {
        if (t.unread.size() <= model.cap()) t.knownFrom = Math.min(t.knownFrom, from + 1);
        finish(t);
      } else {
        readMessages(t, from, lastSeq, 0);
      }
    }, error -> retry(t, attempt, error));
  }

  private void retry(final RoomTally t, final int attempt, Throwable error) {
    if (error instanceof ApiException && (((ApiException) error).status() == 403
        || ((ApiException) error).status() == 404)) {
      t.unfillable = true;
      finish(t); // not readable: the count stays as it is
      return;
    }
    if (log.isDebug()) log.debug("reading the unread messages of room " + t.room.id() + " failed; retrying: " + error);
    actor.schedule(() -> step(t, attempt + 1), backoff.delayMillis(attempt));
  }

  private void finish(RoomTally t) {
    running--;
    model.filled(t);
    while (running < CONCURRENT && !waiting.isEmpty()) {
      running++;
      step(waiting.poll(), 0);
    }
  }

  private <T> void when(CompletableFuture<T> future, final Consumer<T> onValue, final Consumer<Throwable> onError) {
    future.whenComplete((value, error) -> actor.execute(() -> {
      if (error == null) {
        onValue.accept(value);
      } else {
        onError.accept(CallbackExecutor.unwrap(error));
      }
    }));
  }
}
