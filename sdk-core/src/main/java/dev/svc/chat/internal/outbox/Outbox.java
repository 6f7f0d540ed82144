package dev.svc.chat.internal.outbox;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import dev.svc.chat.ChatStateException;
import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.PendingSend;
import dev.svc.chat.SendTimeoutException;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.internal.events.EventHub;
import dev.svc.chat.internal.offline.OfflineStore;
import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.SerialQueue;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.realtime.ReconnectPolicy;

/**
 * The outbox of a client's sends. Each room has a FIFO queue sent in order only while the connection is
 * {@link ConnectionState#CONNECTED}; rooms proceed independently. Each attempt takes a {@link SendRoute}, whose
 * ordering rule sets how many of a room may be in flight: over REST one (two HTTP connections may swap two
 * requests); over a gateway connection that offers socket sends (one ordered stream, handled in order by the
 * service) up to {@link SendRoute#SOCKET_WINDOW}, within the connection's {@link SocketSendBudget} of bytes in
 * flight, which its rooms take in turns (so the socket's queue never overflows). After a retryable
 * failure no attempt of the room starts until every attempt in flight has answered; then the oldest unfinished
 * send is retried after the backoff, and the rest follow it in order. A network
 * error, a 5xx or a 429 is retried with exponential backoff and full jitter (at least the answer's
 * {@code Retry-After}) and the same {@code clientMessageId}, which the service deduplicates. A send ends by
 * success, by any other refusal, by the optional deadline, or when the client closes. With an
 * {@link OutboxPersistence} (the offline store, else the outbox directory) each entry is written before its
 * first attempt and deleted when it ends (not when the client closes), and the entries a user left are loaded
 * at the user's first connect.
 *
 * <p>State is confined to the client's actor: answers of the transport are posted back to it. The entries'
 * records ({@link OutboxRecords}) are read, written and deleted on the client's {@link SerialQueue}, never on the
 * actor: a send enters its room's queue (and may be attempted) only when its write completed and was posted back
 * to the actor, so its record is durable before its first attempt; loads and writes run in the order asked, so
 * the entries a user left are queued before the user's new sends. Futures complete on the actor (or the closing
 * thread): the client relays them to the app's callback executor. Only {@link #enqueue}, {@link #start},
 * {@link #pendingSends()} and {@link #close()} may be called from any thread.
 */
public final class Outbox {
  private final Scheduler actor;
  private final OutboxTransport transport;
  private final Consumer<ClientError> errors;
  private final ReconnectPolicy backoff;
  private final long sendTimeoutMillis;
  /** The entries' durable records; none for an outbox in memory only. */
  private final OutboxRecords records;
  private final LongSupplier wallClock;
  private final Log log;

  // actor-confined
  private final Map<String, RoomQueue> rooms = new LinkedHashMap<>();
  private final SocketSendBudget budget = new SocketSendBudget();
  private String userId;
  private boolean connected;
  private boolean closed;
  private long nextSequence = 1;
  private long nextKey = 1;

  // any thread
  /** The app's futures and the pending sends' snapshots. */
  private final OpenSends app = new OpenSends();
  private volatile boolean shut;
  /** Set before the client closes: a close keeps durable sends for the next start, a logout does not. */
  private volatile boolean keepAtClose = true;

  /**
   * Creates an outbox. {@code store} is null for one in memory only, else used on {@code io};
   * {@code sendTimeoutMillis} 0 means no deadline; {@code wallClock} gives the {@code createdAt} of new sends.
   */
  Outbox(Scheduler actor, OutboxTransport transport, Consumer<ClientError> errors, ReconnectPolicy backoff,
      long sendTimeoutMillis, OutboxPersistence store, SerialQueue io, LongSupplier wallClock, Log log) {
    this.actor = actor;
    this.transport = transport;
    this.errors = errors;
    this.backoff = backoff;
    this.sendTimeoutMillis = sendTimeoutMillis;
    this.records = new OutboxRecords(store, io, actor, new OutboxRecords.Owner() {
      @Override
      public void written(OutboxEntry e) {
        e.kept = true;
        queue(e);
      }

      @Override
      public void loaded(String user, List<OutboxEntry> loaded) {
        Outbox.this.loaded(user, loaded);
      }

      @Override
      public void report(ClientError.Kind kind, String message, String roomId, Throwable cause) {
        Outbox.this.report(kind, message, roomId, cause);
      }
    });
    this.wallClock = wallClock;
    this.log = log;
  }

  /**
   * Returns the outbox of a client with these options (deadline and directory), the client's backoff and
   * wall clock, errors published as {@link EventType#CLIENT_ERROR}; its entries in {@code offline} when the client
   * has a store (on the store's I/O queue), else in the options' directory on a queue of the shared I/O pool.
   */
  public static Outbox forClient(SvcOptions options, Scheduler actor, OutboxTransport transport, final EventHub hub,
      ReconnectPolicy backoff, LongSupplier wallClock, OfflineStore offline, Log log) {
    OutboxPersistence store = offline != null ? new StoreOutbox(offline)
        : options.outboxDirectory() == null ? null : new FileOutboxStore(options.outboxDirectory(), log);
    SerialQueue io = offline != null ? offline.io() : store == null ? null : SerialQueue.io(log);
    return new Outbox(actor, transport, e -> hub.publish(EventType.CLIENT_ERROR, e), backoff,
        options.sendTimeoutMillis(), store, io, wallClock, log);
  }

  // ---------------------------------------------------------------- any thread

  /**
   * Queues a send (inputs already checked); returns its future, completed on the actor (the client relays it
   * to the app). {@code senderId} null (no connect yet) fails it at once.
   */
  public CompletableFuture<Message> enqueue(String roomId, List<MessagePart> parts, String clientMessageId,
      String senderId) {
    return enqueue(roomId, parts, SendLinks.NONE, clientMessageId, senderId);
  }

  /** Queues a send with its reply, thread and mentions; see {@link #enqueue(String, List, String, String)}. */
  public CompletableFuture<Message> enqueue(String roomId, List<MessagePart> parts, SendLinks links,
      String clientMessageId, String senderId) {
    final CompletableFuture<Message> result = new CompletableFuture<>();
    if (senderId == null) {
      result.completeExceptionally(new ChatStateException("call connect(userId, token) before sendMessage"));
      return result;
    }
    final OutboxEntry entry = new OutboxEntry(roomId, parts, links, clientMessageId, senderId,
        wallClock.getAsLong(), result, actor.nowMillis());
    app.opened(result, entry);
    if (shut || !actor.executeFromApp(() -> add(entry))) result.completeExceptionally(closedError());
    return result;
  }

  /**
   * Makes {@code user} the outbox's user, at a connect: the first time, loads the entries the user left in the
   * directory. Sends of a previous user of this client fail (their files stay).
   */
  public void start(final String user) {
    actor.execute(() -> startInActor(user));
  }

  /** Returns the pending sends, oldest first; a snapshot, callable from any thread. */
  public List<PendingSend> pendingSends() {
    return app.pendingSends();
  }

  /**
   * Ends every send not yet ended (nothing is sent from now on): with {@code keep} (a close, not a logout, which
   * deletes the records), one whose record is durable is kept for the
   * user's next connect, and its future completes with the pending message ({@code seq} 0,
   * {@link dev.svc.chat.PendingSend#pendingMessage()}); any other fails with
   * {@code ChatStateException("the client is closed")}, including those whose task the actor never ran. Called
   * once the engine was told to close; files stay on disk.
   */
  public void close(boolean keep) {
    keepAtClose = keep;
    shut = true;
    app.endAll(keep, closedError());
  }

  /** Says, before the engine closes, whether the close keeps durable sends (a close) or not (a logout). */
  public void closing(boolean keep) {
    keepAtClose = keep;
  }

  /** Deletes the entries {@code user} left (logout, after {@link #close()}); completes on the I/O queue. */
  public CompletableFuture<Void> wipe(String user) {
    return records.wipe(user);
  }

  /**
   * Cancels the pending send {@code clientMessageId} of {@code roomId} unless its message is going out: its
   * future fails with a {@link java.util.concurrent.CancellationException} and its record is deleted.
   */
  public CompletableFuture<Boolean> cancel(final String roomId, final String clientMessageId) {
    final CompletableFuture<Boolean> result = new CompletableFuture<>();
    if (!actor.execute(() -> result.complete(cancelInActor(roomId, clientMessageId)))) result.complete(false);
    return result;
  }

  // ---------------------------------------------------------------- actor

  private boolean cancelInActor(String roomId, String clientMessageId) {
    OutboxEntry recording = records.writing(roomId, clientMessageId);
    if (recording != null) {
      // not queued yet: ended here, its record is deleted once written (OutboxRecords.written)
      if (!recording.transfer.compareAndSet(OutboxEntry.TRANSFER_OPEN, OutboxEntry.TRANSFER_CANCELLED)) return false;
      end(recording, true);
      fail(recording, new java.util.concurrent.CancellationException("the " + recording + " was cancelled"));
      return true;
    }
    RoomQueue q = rooms.get(roomId);
    if (q == null) return false;
    for (OutboxEntry e : new ArrayList<>(q.entries)) {
      if (!e.clientMessageId.equals(clientMessageId)) continue;
      if (!e.transfer.compareAndSet(OutboxEntry.TRANSFER_OPEN, OutboxEntry.TRANSFER_CANCELLED)) return false;
      end(e, true); // an attempt under way stops at its next step; its answer is ignored
      fail(e, new java.util.concurrent.CancellationException("the " + e + " was cancelled"));
      pump(roomId);
      return true;
    }
    return false;
  }

  /** Follows the connection: sends only while connected; {@code CLOSED} ends every send. */
  public void onConnectionState(ConnectionState state) {
    if (state == ConnectionState.CLOSED) {
      closed = true;
      dropAll(closedError(), keepAtClose);
      return;
    }
    boolean was = connected;
    connected = state == ConnectionState.CONNECTED;
    if (!connected || was) return;
    for (String roomId : new ArrayList<>(rooms.keySet())) {
      rooms.get(roomId).connected(); // only enter(roomId) removes a room, and only that one
      enter(roomId); // every room in line before the first turn: none takes the budget before the others asked
    }
    takeTurns();
  }

  private void startInActor(String user) {
    if (closed || user.equals(userId)) return;
    if (userId != null) {
      dropAll(new ChatStateException("the client connected as " + user + "; the pending sends of " + userId
          + " were stopped" + (records.durable() ? " (their outbox files stay for that user's next start)" : "")));
    }
    userId = user;
    if (records.durable()) records.load(user, actor.nowMillis());
  }

  /** The entries {@code user} left, read on the I/O queue: queued before any send written after the load. */
  private void loaded(String user, List<OutboxEntry> loaded) {
    if (closed || !user.equals(userId)) return; // closed, or another user meanwhile: the files stay
    for (OutboxEntry e : loaded) queue(e);
    if (!loaded.isEmpty()) log.info("the outbox loaded " + loaded.size() + " pending sends from " + records.where());
  }

  private void add(OutboxEntry e) {
    if (closed || shut) { // shut: the client closed, and the actor runs what was queued before its closing task
      e.result.completeExceptionally(closedError());
      return;
    }
    if (userId == null) startInActor(e.senderId);
    if (!userId.equals(e.senderId)) {
      e.result.completeExceptionally(new ChatStateException("the client connected as " + userId + " before this "
          + "send of " + e.senderId + " was queued"));
      return;
    }
    if (sendTimeoutMillis > 0) {
      long left = e.enqueuedAtMillis + sendTimeoutMillis - actor.nowMillis();
      e.deadlineTimer = actor.schedule(() -> expire(e), Math.max(0, left));
    }
    if (!records.durable()) {
      e.sequence = nextSequence++;
      queue(e);
      return;
    }
    records.write(e); // queued once its record is durable
  }

  private void queue(OutboxEntry e) {
    e.key = nextKey++;
    RoomQueue q = rooms.get(e.roomId);
    if (q == null) {
      q = new RoomQueue();
      rooms.put(e.roomId, q);
    }
    q.entries.add(e);
    app.publish(e);
    pump(e.roomId);
  }

  /** Starts the room's next sends, in order, as far as its window, the socket's budget and its turn allow. */
  private void pump(String roomId) {
    enter(roomId);
    takeTurns();
  }

  /** Starts a room's next send over REST; puts a room going over the socket in line for the socket's budget. */
  private void enter(String roomId) {
    RoomQueue q = rooms.get(roomId);
    if (q == null) return;
    if (q.entries.isEmpty()) {
      if (q.inFlight == 0) rooms.remove(roomId);
      return;
    }
    SendRoute route = routeNow(q, roomId);
    if (route == null) return;
    if (route.channel() != null) {
      budget.join(roomId);
      return;
    }
    for (OutboxEntry e = q.nextToStart(route); e != null; e = q.nextToStart(route)) attempt(e, q, route);
  }

  /** Returns the route on which the room may start a send now, or null when it may not start any. */
  private SendRoute routeNow(RoomQueue q, String roomId) {
    if (q.halted || !connected || closed || shut) return null;
    SendRoute route = transport.route(roomId);
    return q.inFlight > 0 && !route.equals(q.route) ? null : route; // the other route's attempts answer first: order
  }

  /**
   * Gives the rooms in line for the socket's budget their turns, in order, while it lasts: each starts its next
   * sends up to {@link SocketSendBudget#TURN_BYTES} (at least one) and goes to the back if it has more.
   */
  private void takeTurns() {
    for (String roomId = budget.head(); roomId != null; roomId = budget.head()) {
      RoomQueue q = rooms.get(roomId);
      SendRoute route = q == null ? null : routeNow(q, roomId);
      if (route == null || route.channel() == null) { // it may not send now (its next event pumps it), or by REST
        budget.endTurn(false);
        if (route != null) enter(roomId);
        continue;
      }
      OutboxEntry e;
      for (long turn = 0; (e = q.nextToStart(route)) != null && turn < SocketSendBudget.TURN_BYTES; turn += e.bytes) {
        if (!budget.admits(route, e.bytes)) { // the head keeps its place: no later or smaller send overtakes it
          if (turn == 0) return;
          break;
        }
        attempt(e, q, route);
      }
      budget.endTurn(e != null);
    }
  }

  private void attempt(final OutboxEntry e, final RoomQueue q, SendRoute route) {
    q.inFlight++;
    budget.take(route, e.bytes);
    q.route = route;
    e.inFlight = true;
    e.route = route;
    e.attempts++;
    app.publish(e);
    if (log.isDebug()) log.debug("outbox: " + e + ", attempt " + e.attempts);
    CompletableFuture<Message> answer;
    final CompletableFuture<Void> read = route.channel() == null ? null : new CompletableFuture<>();
    try {
      if (e.progress == null) e.progress = new EntryProgress(e, actor, records, app::publish);
      answer = transport.send(route, e.roomId, e.parts, e.links, e.clientMessageId, e.senderId, read, e.progress);
    } catch (RuntimeException ex) {
      answer = new CompletableFuture<>();
      answer.completeExceptionally(ex);
    }
    answer.whenComplete((message, error) -> actor.execute(() -> onAnswer(e, q, read, message, error)));
  }

  private void onAnswer(OutboxEntry e, RoomQueue q, CompletableFuture<Void> read, Message message, Throwable failure) {
    q.inFlight--;
    budget.give(e.route, e.bytes, read, actor, this::takeTurns);
    e.inFlight = false;
    boolean failedForNow = false;
    if (!e.done) {
      Throwable error = failure == null ? null : CallbackExecutor.unwrap(failure);
      if (error == null) {
        end(e, true);
        if (e.result != null) e.result.complete(message);
      } else if (SendFailures.isRetryable(error)) { // the room starts nothing new until all in flight answered
        e.lastError = SendFailures.asChatException(error);
        q.halt(error);
        failedForNow = true;
      } else {
        // a refusal (or an answer the SDK cannot read) ends the send; a state error is the client's, not the
        // service's, so the entry's file stays for the next start
        end(e, !(error instanceof ChatStateException));
        fail(e, error);
      }
    }
    if (q.halted && q.inFlight == 0) retryLater(q);
    // published after retryLater: when this answer was the room's last in flight, a pending send that shows its
    // failure already has its next attempt scheduled (else the retry waits for the others' answers)
    if (failedForNow) app.publish(e);
    pump(e.roomId);
  }

  /** After a halt, once nothing is in flight: the oldest unfinished send is retried after the backoff. */
  private void retryLater(RoomQueue q) {
    Throwable error = q.endHalt();
    final OutboxEntry e = q.entries.peek();
    if (e == null || e.waitingToRetry()) return;
    long delay = Math.max(backoff.delayMillis(Math.max(0, e.attempts - 1)), q.retryAfterMillis);
    e.wakeOnConnect = q.networkOnly;
    log.info("outbox: the " + e + " failed (attempt " + e.attempts + ": " + error.getMessage() + "); retrying in "
        + delay + " ms");
    e.retryTimer = actor.schedule(() -> {
      e.retryTimer = null;
      pump(e.roomId);
    }, delay);
    app.publish(e);
  }

  private void expire(OutboxEntry e) {
    e.deadlineTimer = null;
    if (e.done) return;
    e.transfer.compareAndSet(OutboxEntry.TRANSFER_OPEN, OutboxEntry.TRANSFER_CANCELLED); // its upload is terminated
    // refused on a route and never sent there again: the service may hold the room's later sends back there
    if (!e.inFlight && e.lastError != null && e.route != null) transport.abandoned(e.route, e.roomId);
    end(e, true);
    fail(e, new SendTimeoutException(e.clientMessageId, sendTimeoutMillis, e.lastError));
    pump(e.roomId); // a request still under way counts in the room's window until it answers: order holds
  }

  /** Takes the entry out of the outbox; deletes its file if {@code deleteFile}. */
  private void end(OutboxEntry e, boolean deleteFile) {
    e.done = true;
    e.cancelTimers();
    RoomQueue q = rooms.get(e.roomId);
    if (q != null) q.entries.remove(e);
    app.ended(e);
    if (deleteFile) records.delete(e);
  }

  private void fail(OutboxEntry e, Throwable error) {
    if (e.result != null) {
      e.result.completeExceptionally(error);
    } else {
      // nobody waits on a send loaded from disk: the app hears of its end here, not through a future
      report(ClientError.Kind.SEND_FAILED, "the " + e + ", loaded from the outbox directory, failed for good: "
          + error.getMessage(), e.roomId, error);
    }
  }

  /** Ends every entry in memory, and those being written, with {@code error}; their files stay. */
  private void dropAll(ChatStateException error) {
    dropAll(error, false);
  }

  /** Ends every entry with {@code error}; with {@code keep}, one whose record is durable completes as pending. */
  private void dropAll(ChatStateException error, boolean keep) {
    List<OutboxEntry> ended = new ArrayList<>();
    for (RoomQueue q : rooms.values()) ended.addAll(q.entries);
    ended.addAll(records.takeWriting());
    for (OutboxEntry e : ended) {
      e.done = true;
      e.cancelTimers();
      if (e.result == null) continue;
      if (keep && e.kept) {
        e.result.complete(e.snapshot().pendingMessage());
      } else {
        e.result.completeExceptionally(error);
      }
    }
    rooms.clear();
    app.clearPending();
  }

  private void report(ClientError.Kind kind, String message, String roomId, Throwable cause) {
    log.warn("outbox: " + message, cause);
    errors.accept(new ClientError(kind, message, roomId, cause));
  }

  private static ChatStateException closedError() {
    return new ChatStateException("the client is closed");
  }
}
