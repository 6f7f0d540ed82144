package dev.svc.chat.samples.desktop;

import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.Message;
import dev.svc.chat.MessageLists;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Receipt;
import dev.svc.chat.RoomList;
import dev.svc.chat.RoomSummary;
import dev.svc.chat.samples.Replies;
import dev.svc.chat.session.SessionStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * What the desktop client shows, without Swing: the rooms with their unread counts (the SDK's room list, kept as
 * its last snapshot: from the offline store at start, then following the service), the selected room's
 * messages (edits, deletes, reactions, replies, who has seen what), who is typing, who is online, and the
 * session and connection state. {@link ChatController} feeds it from the SDK; the window renders its rows;
 * tests read them. Thread-safe; listeners run on the thread that made the change (the client's callback
 * executor: the EDT in the app).
 */
public final class ChatModel {
  /**
   * One room of the list.
   *
   * @param unread the unread messages (the SDK's rule, {@link RoomSummary}), at most the cap
   * @param capped whether more are unread than the cap: show "999+"
   * @param preview the last message, such as "bob: Mockups are up", or ""
   * @param mentions the unread messages that mention the user ({@link RoomSummary#unreadMentions()})
   */
  public record RoomRow(String id, String name, int unread, boolean capped, String preview, boolean selected,
      int mentions) {}

  /**
   * One message of the list, ready to render; {@code replies}: a thread root's reply count, else 0; {@code files}:
   * its files as the service describes them; {@code uploading}: the names of a pending message's files.
   */
  public record MessageRow(String id, String senderId, String text, boolean mine, boolean edited, boolean deleted,
      boolean pending, Replies.Reply replyTo, Map<String, Integer> reactions, List<String> seenBy, long createdAt,
      int replies, List<FileAttachment> files, List<String> uploading) {}

  /**
   * How long a user shows as typing after their last {@code typing=true}: a typer's
   * {@link dev.svc.chat.ComposerTypingController} repeats it every 3 s while typing, so twice that means the
   * typer went away without a {@code typing=false} (closed the app, lost the network).
   */
  public static final long TYPING_TIMEOUT_MILLIS = 2 * dev.svc.chat.ComposerTypingController.DEFAULT_THROTTLE_MILLIS;

  private final String me;
  private final LongSupplier clock;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

  // guarded by this
  private SessionStatus session = SessionStatus.IDLE;
  private String sessionError;
  private ConnectionStateChange connection;
  private RoomList roomList = new RoomList(List.of(), 0, false, false);
  private String selected;
  /** The message of the selected room a search result opened, selected in the list; null: none. */
  private String focused;
  private final Map<String, List<Message>> messages = new HashMap<>();
  /** The rooms whose latest history page came from the offline store. */
  private final Set<String> historyFromStore = new java.util.HashSet<>();
  /** The rooms whose history could not be read: offline, and the store does not hold their latest page. */
  private final Set<String> historyMissing = new java.util.HashSet<>();
  private final Map<String, Map<String, Long>> reads = new HashMap<>();
  /** Room → typer → until when they show as typing (the clock's millis). */
  private final Map<String, Map<String, Long>> typing = new HashMap<>();
  private Set<String> online = Set.of();
  /** The thread open in the side panel: its root (null: none open) and its replies by seq. */
  private Message threadRoot;
  private List<Message> threadReplies = List.of();

  /**
   * Creates an empty model.
   *
   * @param me the signed-in user, whose messages are "mine" and whose reads and typing are not shown
   */
  public ChatModel(String me) {
    this(me, System::currentTimeMillis);
  }

  /**
   * Creates an empty model on a clock of its own (tests pass a manual one).
   *
   * @param me the signed-in user
   * @param clock the time in milliseconds, for typing that times out
   */
  public ChatModel(String me, LongSupplier clock) {
    this.me = me;
    this.clock = clock;
  }

  /** Returns the signed-in user. */
  public String me() {
    return me;
  }

  /** Calls {@code listener} after every change. */
  public void addListener(Runnable listener) {
    listeners.add(listener);
  }

  private void changed() {
    for (Runnable r : listeners) r.run();
  }

  // ---- changes, from the controller ----

  void session(SessionStatus status, Throwable error) {
    synchronized (this) {
      session = status;
      sessionError = error == null ? null : error.getMessage();
    }
    changed();
  }

  void connection(ConnectionStateChange change) {
    synchronized (this) {
      connection = change;
    }
    changed();
  }

  void rooms(RoomList snapshot) {
    synchronized (this) {
      roomList = snapshot;
    }
    changed();
  }

  void select(String roomId) {
    synchronized (this) {
      if (!roomId.equals(selected)) focused = null;
      selected = roomId;
    }
    changed();
  }

  /** Selects a message of the room on screen (a search result opened); another room's opening clears it. */
  void focus(String messageId) {
    synchronized (this) {
      focused = messageId;
    }
    changed();
  }

  /** Returns whether the model holds a message of a room (in its main timeline or among its thread replies). */
  synchronized boolean holds(String roomId, String messageId) {
    for (Message m : messages.getOrDefault(roomId, List.of())) {
      if (m.id().equals(messageId)) return true;
    }
    return false;
  }

  /** Merges messages of a room (history, new, updated, pending) by id, in seq order. */
  void merge(String roomId, Collection<Message> list) {
    synchronized (this) {
      messages.put(roomId, MessageLists.mergeMessagesById(messages.getOrDefault(roomId, List.of()), list));
    }
    changed();
  }

  /** Merges a page of a room's history; {@code fromStore} says whether the offline store answered it. */
  void history(String roomId, Collection<Message> page, boolean fromStore) {
    synchronized (this) {
      if (fromStore) historyFromStore.add(roomId); else historyFromStore.remove(roomId);
      historyMissing.remove(roomId);
    }
    merge(roomId, page);
  }

  /** Notes that a room's history could not be read (offline, and the store does not hold its latest page). */
  void historyMissing(String roomId) {
    synchronized (this) {
      if (!historyMissing.add(roomId)) return;
    }
    changed();
  }

  /** Shows a thread in the side panel, or updates it: a newer root (null: kept) and replies merged by id. */
  void thread(Message root, Collection<Message> replies) {
    synchronized (this) {
      if (root != null) threadRoot = root;
      threadReplies = MessageLists.mergeMessagesById(threadReplies, replies);
    }
    changed();
  }

  /** Closes the side panel's thread. */
  void closeThread() {
    synchronized (this) {
      threadRoot = null;
      threadReplies = List.of();
    }
    changed();
  }

  /** Returns the replies to {@code rootId} among the room's messages shown (from the store too), by seq. */
  public synchronized List<Message> repliesOf(String roomId, String rootId) {
    List<Message> out = new ArrayList<>();
    for (Message m : messages.getOrDefault(roomId, List.of())) {
      if (rootId.equals(m.threadId())) out.add(m);
    }
    return out;
  }

  /**
   * Completes the {@code @name} being typed at the end of {@code text} with the first member of the open room (other
   * than the user) whose id starts with it, such as "hi @bo" to "hi @bob "; the text as it was when none fits.
   */
  public synchronized String completeMention(String text) {
    int at = text.lastIndexOf('@');
    RoomSummary s = selected == null ? null : roomList.room(selected);
    if (at < 0 || s == null || (at > 0 && Character.isLetterOrDigit(text.charAt(at - 1)))) return text;
    String prefix = text.substring(at + 1);
    if (prefix.chars().anyMatch(Character::isWhitespace)) return text;
    for (String member : new TreeSet<>(s.room().memberIds())) {
      if (!member.equals(me) && member.startsWith(prefix)) return text.substring(0, at + 1) + member + " ";
    }
    return text;
  }

  /** Returns the root of the thread in the side panel, or null when none is open. */
  public synchronized Message threadRoot() {
    return threadRoot;
  }

  /** Returns the side panel's rows: the thread's root, then its replies oldest first; empty when none is open. */
  public synchronized List<MessageRow> threadRows() {
    if (threadRoot == null) return List.of();
    List<MessageRow> rows = new ArrayList<>();
    rows.add(row(threadRoot, List.of()));
    for (Message m : threadReplies) rows.add(row(m, List.of()));
    return rows;
  }

  /** Takes a pending message of mine off its room's list: its send failed or was cancelled. */
  void dropPending(String roomId, String clientMessageId) {
    synchronized (this) {
      List<Message> list = new ArrayList<>(messages.getOrDefault(roomId, List.of()));
      if (!list.removeIf(m -> MessageLists.isPending(m) && m.id().equals(clientMessageId))) return;
      messages.put(roomId, List.copyOf(list));
    }
    changed();
  }

  /** Tells the listeners that what a row shows changed outside the model (an upload's progress, a thumbnail). */
  void refresh() {
    changed();
  }

  /** Replaces a pending message of mine by the stored one. */
  void sent(Message stored) {
    synchronized (this) {
      messages.put(stored.roomId(),
          MessageLists.reconcileSelfSentMessage(messages.getOrDefault(stored.roomId(), List.of()), stored));
    }
    changed();
  }

  /** A new message ends its sender's typing (they sent what they were typing). */
  void arrived(Message m) {
    synchronized (this) {
      Map<String, Long> typers = typing.get(m.roomId());
      if (typers == null || typers.remove(m.senderId()) == null) return;
    }
    changed();
  }

  void read(Receipt receipt) {
    synchronized (this) {
      reads.computeIfAbsent(receipt.roomId(), k -> new HashMap<>()).merge(receipt.userId(), receipt.seq(), Math::max);
    }
    changed();
  }

  void typing(String roomId, String userId, boolean isTyping) {
    synchronized (this) {
      Map<String, Long> typers = typing.computeIfAbsent(roomId, k -> new HashMap<>());
      if (isTyping) typers.put(userId, clock.getAsLong() + TYPING_TIMEOUT_MILLIS); else typers.remove(userId);
    }
    changed();
  }

  /**
   * Forgets the typers whose {@link #TYPING_TIMEOUT_MILLIS} passed without a new {@code typing=true}, and tells
   * the listeners if any was shown. The window calls it every second; {@link #typingLine()} leaves them out
   * anyway.
   *
   * @return whether anything changed
   */
  public boolean expireTyping() {
    boolean changed = false;
    synchronized (this) {
      long now = clock.getAsLong();
      for (Map<String, Long> typers : typing.values()) changed |= typers.values().removeIf(until -> until <= now);
    }
    if (changed) changed();
    return changed;
  }

  void online(Set<String> users) {
    synchronized (this) {
      online = Set.copyOf(users);
    }
    changed();
  }

  // ---- what the window shows ----

  /** Returns the id of the room on screen, or null. */
  public synchronized String selectedRoom() {
    return selected;
  }

  /** Returns the id of the selected room's message a search result opened, or null. */
  public synchronized String focusedMessage() {
    return focused;
  }

  /** Returns a message of the room on screen as the client last delivered it, or null. */
  public synchronized Message message(String messageId) {
    for (Message m : messages.getOrDefault(selected, List.of())) {
      if (m.id().equals(messageId)) return m;
    }
    return null;
  }

  /** Returns whether the selected room's history could not be read (offline, not in the store). */
  public synchronized boolean historyMissing() {
    return historyMissing.contains(selected);
  }

  /** Returns whether the selected room's latest history page came from the offline store. */
  public synchronized boolean historyFromStore() {
    return historyFromStore.contains(selected);
  }

  /** Returns the seq up to which {@code userId} has read {@code roomId} (0: nothing). */
  public synchronized long readSeq(String roomId, String userId) {
    return reads.getOrDefault(roomId, Map.of()).getOrDefault(userId, 0L);
  }

  /** Returns the SDK's last room list snapshot. */
  public synchronized RoomList roomList() {
    return roomList;
  }

  /** Returns the room list, most recently active first (the SDK's order). */
  public synchronized List<RoomRow> roomRows() {
    List<RoomRow> out = new ArrayList<>();
    for (RoomSummary s : roomList.rooms()) {
      Message last = s.lastMessage();
      String preview = last == null ? "" : (last.senderId().equals(me) ? "you" : last.senderId()) + ": " + last.text();
      out.add(new RoomRow(s.room().id(), s.room().name(), s.unreadCount(), s.unreadCapped(), preview,
          s.room().id().equals(selected), s.unreadMentions()));
    }
    return out;
  }

  /** Returns the selected room's name and members, such as "general · alice, bob". */
  public synchronized String roomTitle() {
    RoomSummary s = selected == null ? null : roomList.room(selected);
    return s == null ? "" : s.room().name() + "  ·  " + String.join(", ", s.room().memberIds());
  }

  /** Returns the selected room's main timeline, oldest first: thread replies show in the side panel only. */
  public synchronized List<MessageRow> messageRows() {
    if (selected == null) return List.of();
    List<Message> list = messages.getOrDefault(selected, List.of());
    // a member's read mark sits under the newest message at or below the seq they read (never their own mark)
    Map<String, List<String>> seen = new HashMap<>();
    for (Map.Entry<String, Long> e : new java.util.TreeMap<>(reads.getOrDefault(selected, Map.of())).entrySet()) {
      if (e.getKey().equals(me)) continue;
      Message at = null;
      for (Message m : list) {
        if (!MessageLists.isPending(m) && m.seq() <= e.getValue()) at = m;
      }
      if (at != null && !at.senderId().equals(e.getKey())) seen.computeIfAbsent(at.id(), k -> new ArrayList<>()).add(e.getKey());
    }
    List<MessageRow> rows = new ArrayList<>();
    for (Message m : list) {
      if (m.threadId() == null) rows.add(row(m, seen.getOrDefault(m.id(), List.of())));
    }
    return rows;
  }

  private MessageRow row(Message m, List<String> seenBy) {
    List<String> uploading = new ArrayList<>();
    for (MessagePart p : m.parts()) {
      if (p.upload() != null) uploading.add(p.upload().name());
    }
    Map<String, Integer> reactions = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : m.reactions().entrySet()) {
      if (!e.getValue().isEmpty()) reactions.put(e.getKey(), e.getValue().size());
    }
    return new MessageRow(m.id(), m.senderId(), m.isDeleted() ? "" : m.text(), m.senderId().equals(me),
        m.editedAt() != null && !m.isDeleted(), m.isDeleted(), MessageLists.isPending(m),
        Replies.of(m).orElse(null), reactions, seenBy, m.createdAt(), m.thread() == null ? 0 : m.thread().replyCount(),
        m.files(), uploading);
  }

  /** Returns "bob is typing…", "bob and carol are typing…", or "" for the selected room. */
  public synchronized String typingLine() {
    long now = clock.getAsLong();
    List<String> who = new ArrayList<>();
    typing.getOrDefault(selected, Map.of()).forEach((user, until) -> {
      if (until > now) who.add(user);
    });
    who.sort(null);
    who.remove(me);
    if (who.isEmpty()) return "";
    if (who.size() == 1) return who.get(0) + " is typing…";
    return String.join(", ", who.subList(0, who.size() - 1)) + " and " + who.get(who.size() - 1) + " are typing…";
  }

  /** Returns the users online in the tenant, sorted. */
  public synchronized List<String> onlineUsers() {
    return new ArrayList<>(new TreeSet<>(online));
  }

  /** Returns the connection state, CLOSED-like DISCONNECTED before the session is ready. */
  public synchronized ConnectionState connectionState() {
    return connection == null ? ConnectionState.DISCONNECTED : connection.current();
  }

  /**
   * Returns the status bar's text: the connection state with its reason and retry, and the session's state,
   * such as "RECONNECTING · transport_closed · attempt 2, next in 1.4 s · session READY".
   */
  public synchronized String statusLine() {
    StringBuilder sb = new StringBuilder();
    if (connection == null) {
      sb.append("DISCONNECTED");
    } else {
      sb.append(connection.current());
      if (connection.current() == ConnectionState.CONNECTED) {
        sb.append(" as ").append(me);
      } else if (connection.reason() != null) {
        sb.append(" · ").append(connection.reason().code());
        if (connection.current() == ConnectionState.RECONNECTING) {
          sb.append(" · attempt ").append(connection.attempt());
          if (connection.retryDelayMillis() > 0) {
            sb.append(", next in ").append(String.format(java.util.Locale.ROOT, "%.1f s", connection.retryDelayMillis() / 1000.0));
          }
        }
      }
    }
    sb.append("  ·  session ").append(session);
    if (sessionError != null) sb.append(": ").append(sessionError);
    if (roomList.fromStore()) sb.append("  ·  rooms from the offline store");
    return sb.toString();
  }
}
