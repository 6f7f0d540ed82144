package dev.svc.chat.samples.desktop;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ComposerTypingController;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.MentionText;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageLists;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.PendingSend;
import dev.svc.chat.RoomList;
import dev.svc.chat.RoomSummary;
import dev.svc.chat.RoomSubscription;
import dev.svc.chat.RoomSubscriptionListener;
import dev.svc.chat.SendOptions;
import dev.svc.chat.Subscription;
import dev.svc.chat.Svc;
import dev.svc.chat.TenantPresenceListener;
import dev.svc.chat.TenantPresenceTracker;
import dev.svc.chat.ThreadSubscription;
import dev.svc.chat.ThreadSubscriptionListener;
import dev.svc.chat.samples.Replies;
import dev.svc.chat.session.SessionState;
import dev.svc.chat.session.SessionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The desktop client's presenter: it feeds a {@link ChatModel} from a client with the SDK's helpers
 * ({@link ChatClient#roomList} for the rooms and their unread badges, {@link ChatClient#getMessages} and
 * {@link RoomSubscription} for the room on screen, {@link TenantPresenceTracker} for who is online,
 * {@link ComposerTypingController} for the composer, {@link MessageLists} for merging), and turns the window's
 * actions (select a room, type, send, edit, delete, react) into SDK calls. It never blocks: every result comes
 * back through a future or an event, on the client's callback executor. The client is the session manager's, or,
 * before the session is fetched, the one {@link DesktopApp} opens on the offline store alone.
 */
public final class ChatController implements AutoCloseable {
  /** The messages loaded on each side of a message a search result opens. */
  static final int AROUND = 25;

  private final ChatModel model;
  private final SearchController search;
  private final FileTransfers files;

  // guarded by this
  private ChatClient client;
  private final List<Subscription> subscriptions = new ArrayList<>();
  private TenantPresenceTracker presence;
  private RoomSubscription room;
  private ComposerTypingController typing;
  /** The thread open in the side panel, or null. */
  private ThreadSubscription thread;
  /** Whether the user opened the room on screen (not the app at start): only then is it marked read. */
  private boolean looked;
  /** The message the room on screen was last marked read up to: one markRead per newest message. */
  private String markedId;

  /**
   * Creates the presenter of a model.
   *
   * @param model the model it feeds
   */
  public ChatController(ChatModel model) {
    this.model = model;
    this.search = new SearchController(this);
    this.files = new FileTransfers(this);
  }

  /** Returns the model. */
  public ChatModel model() {
    return model;
  }

  /** Returns the files: attach, upload progress, thumbnails, save. */
  public FileTransfers files() {
    return files;
  }

  /** Returns the search box's presenter. */
  public SearchController search() {
    return search;
  }

  /**
   * Takes a session state from the session manager: shows it, and follows its client once it connected or is
   * reconnecting on its own (the same client lives on through token refreshes).
   *
   * @param state the new state
   */
  public void onSession(SessionState state) {
    model.session(state.status(), state.error());
    boolean usable = state.status() == SessionStatus.READY || state.status() == SessionStatus.OFFLINE;
    if (usable && state.client() != null) attach(state.client());
  }

  /**
   * Follows a client: its room list, events and the room on screen. The model keeps what it shows until the
   * client's first room list snapshot replaces it (from its store at once).
   *
   * @param c the client
   */
  public synchronized void attach(ChatClient c) {
    if (c == client) return;
    detach();
    client = c;
    markedId = null;
    model.connection(new ConnectionStateChange(c.state(), c.state(), ConnectionReason.CONNECTED, null));
    subscriptions.add(c.on(EventType.CONNECTION_STATE, model::connection));
    subscriptions.add(c.on(EventType.NEW_MESSAGE, model::arrived));
    subscriptions.add(c.on(EventType.ROOM_READ, model::read));
    subscriptions.add(c.on(EventType.TYPING, e -> model.typing(e.roomId(), e.userId(), e.isTyping())));
    subscriptions.add(c.on(EventType.UPLOAD_PROGRESS, files::progress));
    presence = Svc.createTenantPresenceTracker(c, new TenantPresenceListener() {
      @Override
      public void onChange(Set<String> users) {
        model.online(users);
      }
    });
    subscriptions.add(c.roomList(this::onRoomList));
    String open = model.selectedRoom();
    if (open != null) show(open); // the room on screen, now from this client
  }

  /**
   * Stops following {@code c} if it is the client followed (it is about to be closed); the model keeps showing
   * what it showed.
   *
   * @param c the client
   */
  public synchronized void release(ChatClient c) {
    if (c != client) return;
    detach();
    client = null;
  }

  private void onRoomList(RoomList list) {
    model.rooms(list);
    synchronized (this) {
      if (model.selectedRoom() == null && !list.rooms().isEmpty()) {
        open(list.rooms().get(0).room().id(), false); // the most recently active room, shown but not read
      } else {
        markRead();
      }
    }
  }

  /**
   * Shows a room: its latest page at once (from the store when it holds it, so also offline), then joins it and
   * follows it live, and marks it read.
   *
   * @param roomId the room
   */
  public synchronized void select(String roomId) {
    open(roomId, true);
  }

  /** Shows {@code roomId}; {@code byUser}: the user opened it, so what it shows counts as read. */
  private void open(String roomId, boolean byUser) {
    if (client == null) return;
    if (roomId.equals(model.selectedRoom()) && room != null) {
      if (byUser && !looked) {
        looked = true;
        markRead();
      }
      return;
    }
    model.select(roomId);
    markedId = null;
    looked = byUser;
    show(roomId);
    markRead();
  }

  private void show(String roomId) {
    if (room != null) room.destroy();
    if (typing != null) typing.close();
    ChatClient c = client;
    c.getMessages(roomId).whenComplete((page, e) -> {
      if (page != null) history(c, roomId, page); else model.historyMissing(roomId); // offline, not in the store
    });
    room = Svc.createRoomSubscription(c, roomId, model.me(), new RoomSubscriptionListener() {
      @Override
      public void onInitialMessages(List<Message> history) {
        // merged only: the getMessages above says whether the store or the service answered
        List<Message> all = new ArrayList<>(history);
        for (PendingSend p : c.pendingSends(roomId)) all.add(p.pendingMessage());
        model.merge(roomId, all);
      }

      @Override
      public void onMessage(Message m) {
        model.merge(roomId, List.of(m));
      }

      @Override
      public void onMessageUpdated(Message m) {
        model.merge(roomId, List.of(m));
      }
    });
    typing = ComposerTypingController.create(c, roomId);
    c.getReceipts(roomId).thenAccept(receipts -> receipts.forEach(model::read));
  }

  /**
   * Opens a message's room, as the user does (so it counts as read), and selects the message there (a thread
   * reply: its root, with the thread in the side panel). A message the room's list does not hold yet is loaded
   * with its neighbours: {@link #AROUND} on each side, from the store when it holds them (so also offline), else
   * from the service; the room's latest page and live messages come as for any room opened.
   *
   * @param m the message, such as a search result's
   */
  public synchronized void jumpTo(Message m) {
    if (client == null) return;
    ChatClient c = client;
    String roomId = m.roomId();
    boolean held = model.holds(roomId, m.id());
    open(roomId, true);
    model.merge(roomId, List.of(m)); // shown at once; a newer version (higher rev) the room has stays
    if (!held) around(c, roomId, m.seq());
    if (m.threadId() == null) {
      model.focus(m.id());
      return;
    }
    model.focus(m.threadId());
    c.getMessage(roomId, m.threadId()).thenAccept(root -> {
      if (!model.holds(roomId, root.id())) around(c, roomId, root.seq());
      model.merge(roomId, List.of(root));
      openThread(root);
    });
  }

  /** Loads the messages around {@code seq} into the model; a side that can be read from nowhere is left out. */
  private void around(ChatClient c, String roomId, long seq) {
    c.getMessages(roomId, MessageQuery.before(seq + 1, AROUND + 1)).thenAccept(p -> model.merge(roomId, p.messages()));
    // the store answers the newer side only below what it holds of the room; past it the service (none offline,
    // where the room's latest page shows the newest messages it holds)
    c.getMessages(roomId, MessageQuery.after(seq, AROUND)).thenAccept(p -> model.merge(roomId, p.messages()));
  }

  /** Shows a page of the room's history with the sends still in the outbox. */
  private void history(ChatClient c, String roomId, MessagePage page) {
    List<Message> all = new ArrayList<>(page.messages());
    for (PendingSend p : c.pendingSends(roomId)) all.add(p.pendingMessage());
    model.history(roomId, all, page.fromStore());
  }

  /**
   * Marks the room on screen read up to its newest message while the room list counts some of it unread, once
   * per newest message; the SDK lowers the badge at once, and offline sends the receipt once connected.
   */
  private synchronized void markRead() {
    if (!looked) return; // shown when the app started, not opened by the user: not read
    String roomId = model.selectedRoom();
    RoomSummary s = roomId == null ? null : model.roomList().room(roomId);
    if (client == null || s == null || s.unreadCount() == 0 || s.lastMessage() == null) return;
    String newest = s.lastMessage().id();
    if (newest.equals(markedId)) return;
    markedId = newest;
    client.markRead(roomId, newest);
  }

  /**
   * Tells the typing controller about the composer's text (typing starts, is kept alive, or stops when empty).
   *
   * @param text the composer's text now
   */
  public synchronized void input(String text) {
    if (typing != null) typing.onInput(text);
  }

  /**
   * Sends a text to the room on screen; it shows at once as pending, then as stored.
   *
   * @param text the text
   * @return the stored message
   */
  public synchronized CompletableFuture<Message> send(String text) {
    String roomId = model.selectedRoom();
    if (client == null || roomId == null) return CompletableFuture.failedFuture(new IllegalStateException("no room"));
    if (typing != null) typing.onSend();
    MentionText typed = mentions(roomId, text);
    CompletableFuture<Message> sent = client.sendMessage(roomId, typed.parts(), typed.options().build());
    for (PendingSend p : client.pendingSends(roomId)) model.merge(roomId, List.of(p.pendingMessage()));
    return sent.whenComplete((m, e) -> {
      if (m != null) model.sent(m);
    });
  }

  /** Reads {@code @name} tokens of the room's members as mentions. */
  private MentionText mentions(String roomId, String text) {
    RoomSummary s = model.roomList().room(roomId);
    return MentionText.parse(text, s == null ? List.of() : s.room().memberIds());
  }

  /**
   * Answers a message, quoting it (its {@code replyToId}, and a {@link Replies} part for older readers), in its
   * thread when it is a thread reply.
   *
   * @param message the message answered
   * @param text the answer, {@code @name} tokens read as mentions
   * @return the stored answer
   */
  public synchronized CompletableFuture<Message> quote(Message message, String text) {
    MentionText typed = mentions(message.roomId(), text);
    SendOptions options = typed.options().replyToId(message.id()).threadId(message.threadId()).build();
    return track(client.sendMessage(message.roomId(), Replies.to(message, typed.text()), options));
  }

  /**
   * Opens a thread in the side panel: its root and replies, kept live by a {@link ThreadSubscription}.
   *
   * @param root the thread's root (any message of the main timeline)
   */
  public synchronized void openThread(Message root) {
    if (client == null) return;
    closeThread();
    model.thread(root, model.repliesOf(root.roomId(), root.id())); // at once, also offline; the subscription follows
    thread = Svc.createThreadSubscription(client, root.roomId(), root.id(), new ThreadSubscriptionListener() {
      @Override
      public void onInitialReplies(Message r, List<Message> replies) {
        model.thread(r, replies);
      }

      @Override
      public void onReply(Message reply) {
        model.thread(null, List.of(reply));
      }

      @Override
      public void onReplyUpdated(Message reply) {
        model.thread(null, List.of(reply));
      }

      @Override
      public void onRootUpdated(Message r) {
        model.thread(r, List.of());
      }
    });
  }

  /** Closes the side panel's thread. */
  public synchronized void closeThread() {
    if (thread != null) thread.destroy();
    thread = null;
    model.closeThread();
  }

  /**
   * Replies in the thread open in the side panel.
   *
   * @param text the reply, {@code @name} tokens read as mentions
   * @return the stored reply
   */
  public synchronized CompletableFuture<Message> replyInThread(String text) {
    Message root = model.threadRoot();
    if (client == null || root == null) return CompletableFuture.failedFuture(new IllegalStateException("no thread"));
    MentionText typed = mentions(root.roomId(), text);
    return client.sendMessage(root.roomId(), typed.parts(), typed.options().threadId(root.id()).build());
  }

  /**
   * Changes the text of one of my messages in the room on screen, keeping its other parts (a reply stays one).
   *
   * @param message the message
   * @param text the new text
   * @return the updated message
   */
  public synchronized CompletableFuture<Message> edit(Message message, String text) {
    List<MessagePart> parts = new ArrayList<>();
    for (MessagePart p : message.parts()) {
      if (!p.isText()) parts.add(p);
    }
    parts.add(MessagePart.text(text));
    return track(client.updateMessage(message.roomId(), message.id(), parts));
  }

  /**
   * Deletes one of my messages.
   *
   * @param roomId its room
   * @param messageId the message
   * @return the deleted message
   */
  public synchronized CompletableFuture<Message> delete(String roomId, String messageId) {
    return track(client.deleteMessage(roomId, messageId));
  }

  /**
   * Adds my reaction to a message, or takes it back.
   *
   * @param roomId its room
   * @param messageId the message
   * @param emoji the reaction
   * @return the message with its reactions now
   */
  public synchronized CompletableFuture<Message> react(String roomId, String messageId, String emoji) {
    return track(client.toggleReaction(roomId, messageId, emoji));
  }

  private CompletableFuture<Message> track(CompletableFuture<Message> f) {
    return f.whenComplete((m, e) -> {
      if (m != null) model.merge(m.roomId(), List.of(m));
    });
  }

  /** Returns the session's client, or null before the session is ready. */
  public synchronized ChatClient client() {
    return client;
  }

  private void detach() {
    for (Subscription s : subscriptions) s.remove();
    subscriptions.clear();
    if (presence != null) presence.destroy();
    if (room != null) room.destroy();
    if (typing != null) typing.close();
    if (thread != null) thread.destroy();
    thread = null;
    presence = null;
    room = null;
    typing = null;
  }

  /** Stops following the client (the session manager closes it). */
  @Override
  public synchronized void close() {
    detach();
    client = null;
  }
}
