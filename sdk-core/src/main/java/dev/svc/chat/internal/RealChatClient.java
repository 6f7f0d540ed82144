package dev.svc.chat.internal;

import dev.svc.chat.internal.auth.Credentials;
import dev.svc.chat.internal.realtime.Acks;
import dev.svc.chat.internal.util.ApiUrls;
import dev.svc.chat.internal.util.ClientThreads;
import dev.svc.chat.internal.util.Inputs;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.util.CallerRuns;
import dev.svc.chat.internal.util.SerialScheduler;
import dev.svc.chat.internal.util.SharedHttpClients;
import dev.svc.chat.transport.Transport;
import dev.svc.chat.internal.util.SharedTimer;
import dev.svc.chat.internal.events.EventHub;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Log;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.svc.chat.ChangesPage;
import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.EventHandler;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.PendingSend;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.RoomList;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.SendOptions;
import dev.svc.chat.Subscription;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.TaskScheduler;
import dev.svc.chat.internal.json.MessagingAdapters;
import dev.svc.chat.internal.files.FileCalls;
import dev.svc.chat.internal.files.UploadingTransport;
import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.internal.outbox.Outbox;
import dev.svc.chat.internal.outbox.SendTransports;
import dev.svc.chat.internal.realtime.JoinedRoom;
import dev.svc.chat.internal.realtime.InboundGate;
import dev.svc.chat.internal.realtime.RealtimeEngine;
import dev.svc.chat.internal.realtime.ReconnectPolicy;
import dev.svc.chat.internal.recovery.Recovery;
import dev.svc.chat.internal.recovery.RecoveryJournal;
import dev.svc.chat.internal.rooms.ReadQueue;
import dev.svc.chat.internal.rooms.RoomListModel;
import dev.svc.chat.internal.rooms.UnreadFill;
import dev.svc.chat.internal.recovery.RecoveryReads;
import dev.svc.chat.internal.rest.RestApi;

/**
 * The {@link ChatClient}: wires the REST API, the realtime engine (the actor that owns connection state),
 * the joined room, the event hub and the callback executor, and owns what it created. It is the public
 * boundary: the internal futures (REST, outbox, engine) complete on the SDK's threads, and each future it
 * returns is relayed to the callback executor here ({@link CallbackExecutor#relay}).
 */
public final class RealChatClient extends FeatureCalls {
  private final Log log;
  private final CallbackExecutor callbacks;
  private final RealtimeEngine engine;
  private final JoinedRoom joinedRoom;
  private final EventHub hub;
  private final RestApi rest;
  private final Outbox outbox;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** The user, the current token and the refresh: REST and the engine follow them. */
  private final Credentials credentials;
  /** Whether the app wants the realtime connection: set by connect, cleared by disconnect and close. */
  private volatile boolean wantConnected;
  private final Recovery recovery;
  /** The offline store, or null without one. */
  private final StoredSession stored;
  private final RoomListModel roomList;
  private final UnreadFill unreadFill;
  private final ReadQueue reads;
  private final ReadMarks marks;
  private final CallsAndPush calls;
  private final FileCalls files;
  private final MessageCalls messages;

  /** The backoff jitter's source, shared by all clients (it is thread-safe) rather than one generator each. */
  private static final Random JITTER = new SecureRandom();

  /** Creates a client with a secure random source for backoff jitter; time comes from the options. */
  public RealChatClient(SvcOptions options) {
    this(options, JITTER);
  }

  /** Creates a client with injected randomness (tests). */
  public RealChatClient(SvcOptions options, Random random) {
    this.log = new Log(options.logger());
    // by default the threads and OkHttp clients are shared by every client of the JVM (bot fleets)
    this.callbacks = CallbackExecutor.on(
        options.callbackExecutor() != null ? options.callbackExecutor() : ClientThreads.callbacks(), log);
    SharedHttpClients http = SharedHttpClients.of(options.okHttpClient());
    this.hub = new EventHub(callbacks, log, InboundGate.LOW_WATER);
    EventRouter router = new EventRouter(hub, options.recoverMissedEvents(), log);
    TaskScheduler timers = options.scheduler() != null ? options.scheduler() : SharedTimer.get();
    // on the SDK's own pool, a socket's reader runs the engine's drain itself when the engine is idle, and so does
    // an app's thread that sends, unless the app runs callbacks on a thread of its own (a UI's, which never runs
    // engine work); an executor the app gave runs all of the engine's work
    Scheduler actor = options.engineExecutor() != null ? new SerialScheduler(options.engineExecutor(), timers, log)
        : new SerialScheduler(ClientThreads.engine(), timers, log, options.callbackExecutor() == null
            ? CallerRuns.TRANSPORTS_AND_APP : CallerRuns.TRANSPORTS);
    // one backoff policy (stateless but for its random source) for reconnects, recovery and the outbox
    ReconnectPolicy backoff = ReconnectPolicy.of(options.reconnectBaseMillis(), options.reconnectMaxMillis(), random);
    ApiUrls urls = ApiUrls.of(options.apiUrl()); // shared by the clients of one API URL
    java.util.function.LongSupplier wallClock = timers::currentTimeMillis; // one for recovery, outbox and store
    this.stored = StoredSession.of(options, hub, router, actor, log);
    final StoredSession store = stored;
    // events held for a store write count for the inbound gate like those waiting for the handlers
    java.util.function.IntSupplier undelivered = store == null ? hub::undelivered
        : () -> hub.undelivered() + store.journal.waiting();
    Transport transport = options.transport() != null ? options.transport() : http.webSocketTransport;
    this.engine = new RealtimeEngine(transport, urls.socket, actor,
        backoff, options.ackTimeoutMillis(), options.tokenRefresher() != null, GatewayEvents.STANDARD, undelivered,
        router, log);
    this.joinedRoom = new JoinedRoom(engine, log);
    this.credentials = new Credentials(options.tokenRefresher(), ClientThreads.refreshes(), log);
    credentials.listen(engine::tokenChanged); // a refresh or updateToken; connect gives its token itself
    this.rest = new RestApi(http.rest(urls.api), urls.api, credentials, actor, log);
    this.recovery = new Recovery(actor, RecoveryReads.over(rest), store == null ? router : store.journal, backoff,
        options.recoverMissedEvents(), log);
    this.roomList = new RoomListModel(actor, callbacks, options.unreadCap(), log);
    this.unreadFill = new UnreadFill(actor, RecoveryReads.over(rest), backoff, log);
    unreadFill.attach(roomList);
    recovery.journal(store == null ? roomList : RecoveryJournal.both(store.journal, roomList));
    this.reads = new ReadQueue(rest::markRead);
    this.marks = new ReadMarks(reads, roomList, store, credentials, actor, wallClock);
    this.calls = new CallsAndPush(rest, engine, callbacks, closed);
    if (store != null) {
      store.attach(recovery, roomList, reads);
      unreadFill.keep(store.offline::keep); // the messages a count read from the service are stored for the next start
    }
    hub.on(EventType.CONNECTION_STATE, change -> {
      if (change.current() == ConnectionState.CONNECTED) reads.onConnected(); // reads made offline go out
    });
    this.outbox = Outbox.forClient(options, actor, new UploadingTransport(SendTransports.of(options, engine,
        rest::sendMessage), actor, ClientThreads.io(), rest, hub, UploadingTransport.DEFAULT_CHUNK_BYTES), hub,
        backoff, wallClock, store == null ? null : store.offline, log);
    this.files = new FileCalls(outbox, rest, actor, backoff, ClientThreads.io(), callbacks, closed,
        options.fileCache());
    this.messages = new MessageCalls(rest, outbox, roomList, engine, credentials, callbacks);
    router.wire(recovery, joinedRoom, outbox, engine,
        new GatewayTokenExpiry(credentials, engine, () -> wantConnected && !closed.get(), log));
  }

  @Override
  public CompletableFuture<Void> connect(String userId, String token) {
    Inputs.userId(userId);
    Inputs.sessionToken(token);
    if (closed.get()) return failed(new ChatStateException("the client is closed"));
    try {
      credentials.checkUser(userId); // one client, one user: refused before anything user-scoped moves
      // The store's open is queued on the I/O queue before the outbox's read of the sends it kept (which the
      // actor queues there, maybe at once): that read takes what the open loaded, so no kept send is left behind.
      if (stored != null) stored.offline.open(userId);
      outbox.start(userId); // before sends of this user can be queued, so that its stored ones go first
      engine.actor().execute(() -> roomList.user(userId)); // before anything of the user is delivered
      wantConnected = true;
      if (stored == null) return callbacks.relay(credentials.signIn(userId, token, engine::connect));
      // the user's store opens first, and recovery starts from it before the connection opens
      return callbacks.relay(credentials.signIn(userId, token,
          t -> stored.connect(userId, credentials::token, () -> wantConnected && !closed.get(), engine::connect)));
    } catch (ChatStateException refused) { // another user, or closed
      return failed(refused);
    }
  }

  @Override
  public CompletableFuture<Void> openOffline(String userId) {
    Inputs.userId(userId);
    if (closed.get()) return failed(new ChatStateException("the client is closed"));
    if (stored == null) {
      return failed(new ChatStateException("openOffline needs an offline store: SvcOptions.Builder.store(...)"));
    }
    try {
      credentials.bindUser(userId); // one client, one user, as connect
      stored.offline.open(userId); // queued before the outbox's read of the sends it kept, as in connect
      outbox.start(userId);
      engine.actor().execute(() -> roomList.user(userId));
      return callbacks.relay(stored.serve(userId));
    } catch (ChatStateException refused) { // another user, or closed
      return failed(refused);
    }
  }

  @Override
  public void updateToken(String token) {
    Inputs.sessionToken(token);
    credentials.update(token);
  }

  /**
   * Returns each room's recovery state and ledger, one line a room, read on the actor: a diagnostic for tests and
   * reports (not an API: this class is internal).
   */
  public CompletableFuture<String> describeRecovery() {
    final CompletableFuture<String> out = new CompletableFuture<>();
    engine.actor().execute(() -> out.complete(recovery.describeRooms()));
    return out;
  }

  @Override
  public CompletableFuture<Void> disconnect() {
    if (closed.get()) return completed(null);
    wantConnected = false;
    return callbacks.relay(engine.disconnect());
  }

  @Override
  public void close() {
    close(true);
  }

  /** Closes the client; {@code keep}: what is kept durably is left for the next start (false: logout deletes it). */
  private void close(boolean keep) {
    if (engine.actor().inActor()) {
      // only a ChatLogger could call from there; waiting for the actor on the actor would deadlock
      throw new IllegalStateException("close() must not be called from a ChatLogger");
    }
    if (!closed.compareAndSet(false, true)) return;
    wantConnected = false;
    if (stored != null) stored.settle(); // what was about to reach the handlers does, stored
    credentials.close();
    rest.close();
    outbox.closing(keep);
    engine.shutdown();
    outbox.close(keep);
    marks.close(new ChatStateException("the client is closed"), keep);
    if (stored != null) stored.close();
  }

  @Override
  public CompletableFuture<Void> logout() {
    close(false);
    if (stored == null) return callbacks.relay(outbox.wipe(credentials.userId()));
    final CompletableFuture<Void> result = new CompletableFuture<>();
    stored.wipe().whenComplete((v, e) -> {
      if (e == null) {
        result.complete(null);
      } else {
        result.completeExceptionally(new ChatStateException(StoredSession.describe(CallbackExecutor.unwrap(e))));
      }
    });
    return callbacks.relay(result);
  }

  @Override
  public CompletableFuture<Room> joinRoom(final String roomId) {
    Inputs.roomId(roomId);
    if (closed.get()) return failed(new ChatStateException("the client is closed"));
    final CompletableFuture<Room> result = new CompletableFuture<>();
    engine.post(result, new Runnable() {
      @Override
      public void run() {
        joinedRoom.join(roomId, result);
      }
    });
    return callbacks.relay(result);
  }

  @Override
  public CompletableFuture<Void> leaveRoom(final String roomId) {
    Inputs.roomId(roomId);
    if (closed.get()) return failed(new ChatStateException("the client is closed"));
    final CompletableFuture<Void> result = new CompletableFuture<>();
    engine.post(result, new Runnable() {
      @Override
      public void run() {
        joinedRoom.leave(roomId, result);
      }
    });
    return callbacks.relay(result);
  }

  @Override
  public CompletableFuture<List<Room>> listRooms() {
    if (stored != null) return callbacks.relay(stored.rooms(engine.state(), rest::listRooms));
    return callbacks.relay(rest.listRooms());
  }

  /**
   * Answers a page from the offline store only, for a cache-first view ({@code RoomSubscription}): the page when
   * the store holds all of it, else null (also without a store); never asks the service.
   */
  public CompletableFuture<MessagePage> storedPage(String roomId, MessageQuery query) {
    if (stored == null) return CompletableFuture.completedFuture(null);
    return callbacks.relay(stored.offline.messages(roomId, query));
  }

  @Override
  public CompletableFuture<MessagePage> getMessages(String roomId) {
    return getMessages(roomId, MessageQuery.latest(MessageQuery.DEFAULT_LIMIT));
  }

  @Override
  public CompletableFuture<MessagePage> getMessages(String roomId, MessageQuery query) {
    Inputs.roomId(roomId);
    Inputs.nonNull(query, "query");
    if (stored != null && query.wholeRoom()) { // the store keeps whole-room ranges only
      return callbacks.relay(stored.messages(roomId, query, () -> rest.getMessages(roomId, query)));
    }
    return callbacks.relay(rest.getMessages(roomId, query));
  }

  @Override
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts) {
    return sendMessage(roomId, parts, UUID.randomUUID().toString());
  }

  @Override
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts, String clientMessageId) {
    return messages.send(roomId, parts, SendLinks.NONE, clientMessageId);
  }

  @Override
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts, SendOptions options) {
    return messages.send(roomId, parts, options);
  }

  @Override
  public CompletableFuture<Message> getMessage(String roomId, String messageId) {
    return messages.get(roomId, messageId);
  }

  @Override
  public List<PendingSend> pendingSends() {
    return outbox.pendingSends();
  }

  @Override
  public CompletableFuture<Message> sendText(String roomId, String text) {
    Inputs.nonNull(text, "text");
    if (text.isEmpty()) throw new IllegalArgumentException("text is empty");
    return sendMessage(roomId, Collections.singletonList(MessagePart.text(text)));
  }

  @Override
  public CompletableFuture<Message> updateMessage(String roomId, String messageId, List<MessagePart> parts) {
    return messages.update(roomId, messageId, parts, null);
  }

  @Override
  public CompletableFuture<Message> updateMessage(String roomId, String messageId, List<MessagePart> parts,
      List<String> mentions) {
    return messages.update(roomId, messageId, parts, Inputs.nonNull(mentions, "mentions"));
  }

  @Override
  public CompletableFuture<Message> deleteMessage(String roomId, String messageId) {
    return messages.delete(roomId, messageId);
  }

  @Override
  public CompletableFuture<Message> toggleReaction(String roomId, String messageId, String emoji) {
    return messages.toggleReaction(roomId, messageId, emoji);
  }

  @Override
  public CompletableFuture<Receipt> markRead(final String roomId, final String messageId) {
    Inputs.roomId(roomId);
    Inputs.messageId(messageId);
    return callbacks.relay(marks.mark(roomId, messageId));
  }

  @Override
  public Subscription roomList(EventHandler<RoomList> handler) {
    Inputs.nonNull(handler, "handler");
    return roomList.subscribe(handler, unreadFill::listAll);
  }

  @Override
  public CompletableFuture<ChangesPage> getChanges(String roomId, long since) {
    return getChanges(roomId, since, Inputs.MAX_CHANGES);
  }

  @Override
  public CompletableFuture<ChangesPage> getChanges(String roomId, long since, int limit) {
    return callbacks.relay(rest.getChanges(Inputs.roomId(roomId), Inputs.since(since),
        Inputs.changesLimit(limit)));
  }

  @Override
  public CompletableFuture<List<Receipt>> getReceipts(String roomId) {
    return callbacks.relay(rest.getReceipts(Inputs.roomId(roomId)));
  }

  @Override
  public CompletableFuture<List<String>> getPresence() {
    return callbacks.relay(rest.getPresence());
  }

  @Override
  public CompletableFuture<SearchPage> searchMessages(SearchQuery query) {
    return callbacks.relay(rest.searchMessages(Inputs.nonNull(query, "query")));
  }

  @Override
  public CompletableFuture<SearchPage> searchStored(SearchQuery query) {
    Inputs.nonNull(query, "query");
    if (closed.get()) return failed(new ChatStateException("the client is closed"));
    if (stored == null) {
      return failed(new ChatStateException("searchStored needs an offline store: SvcOptions.Builder.store(...)"));
    }
    return callbacks.relay(stored.offline.search(query));
  }

  @Override
  public CompletableFuture<Void> setTyping(String roomId, boolean isTyping) {
    Inputs.roomId(roomId);
    if (closed.get()) return failed(new ChatStateException("the client is closed"));
    return callbacks.relay(Acks.expectOk(engine.emitWithAck("typing", MessagingAdapters.typingBody(roomId, isTyping)),
        "typing"));
  }

  @Override
  public <T> Subscription on(EventType<T> type, EventHandler<T> handler) {
    Inputs.nonNull(type, "type");
    Inputs.nonNull(handler, "handler");
    return hub.on(type, handler);
  }

  @Override
  CallsAndPush calls() {
    return calls;
  }

  @Override
  FileCalls files() {
    return files;
  }

  @Override
  public void reconnectNow() {
    if (!closed.get()) engine.reconnectNow();
  }

  /** Returns how many published events wait for the app's handlers (tests). */
  public int undeliveredEvents() {
    return hub.undelivered();
  }

  /** Returns how many frames and events wait for the app's handlers (the backpressure's measure; tests). */
  public int pendingDeliveries() {
    return engine.queuedFrames() + hub.undelivered();
  }

  @Override
  public ConnectionState state() {
    return engine.state();
  }

  @Override
  public String userId() {
    return credentials.userId();
  }

  @Override
  public String toString() {
    return "ChatClient{userId=" + credentials.userId() + ", state=" + state() + "}";
  }

  private <T> CompletableFuture<T> failed(Throwable error) {
    return callbacks.failed(error);
  }

  private <T> CompletableFuture<T> completed(T value) {
    return callbacks.completed(value);
  }
}
