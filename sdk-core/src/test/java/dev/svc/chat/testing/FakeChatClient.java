package dev.svc.chat.testing;

import dev.svc.chat.FileAttachment;
import dev.svc.chat.TransferListener;

import dev.svc.chat.Call;
import dev.svc.chat.CallKind;
import dev.svc.chat.PushPlatform;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventHandler;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.RoomList;
import dev.svc.chat.Subscription;

/**
 * A {@link ChatClient} for helper tests: events are delivered synchronously on the test's thread by
 * {@link #emit}, and every operation the helpers use returns a future the test completes. Operations the
 * helpers do not use throw.
 */
public final class FakeChatClient extends UnsupportedChatClient {
  private final Map<EventType<?>, CopyOnWriteArrayList<EventHandler<?>>> handlers = new HashMap<>();
  private ConnectionState state = ConnectionState.CONNECTED;
  public final List<String> typingCalls = new ArrayList<>();
  public final List<String> joins = new ArrayList<>();
  public final Deque<CompletableFuture<Room>> joinResults = new ArrayDeque<>();
  public final List<MessageQuery> historyQueries = new ArrayList<>();
  public final Deque<CompletableFuture<MessagePage>> historyResults = new ArrayDeque<>();
  public final Deque<CompletableFuture<List<String>>> presenceResults = new ArrayDeque<>();
  public final List<String> messageGets = new ArrayList<>();
  public final Deque<CompletableFuture<Message>> messageResults = new ArrayDeque<>();
  public final List<SearchQuery> storedSearches = new ArrayList<>();
  public final Deque<CompletableFuture<SearchPage>> storedSearchResults = new ArrayDeque<>();
  public boolean typingThrows;
  /** Runs inside {@link #setTyping}, on the caller's thread, before the call is recorded. */
  public volatile Runnable whileSettingTyping;

  /** Delivers an event to the handlers registered now, at once. */
  @SuppressWarnings("unchecked")
  public synchronized <T> void emit(EventType<T> type, T payload) {
    List<EventHandler<?>> list = handlers.get(type);
    if (list == null) return;
    for (EventHandler<?> h : list) ((EventHandler<T>) h).onEvent(payload);
  }

  /** The room list's handlers. */
  public final List<EventHandler<RoomList>> roomListHandlers = new CopyOnWriteArrayList<>();

  /** Delivers a room list snapshot to the room list's handlers, at once. */
  public void emitRoomList(RoomList snapshot) {
    for (EventHandler<RoomList> h : roomListHandlers) h.onEvent(snapshot);
  }

  @Override
  public Subscription roomList(EventHandler<RoomList> handler) {
    roomListHandlers.add(handler);
    return () -> roomListHandlers.remove(handler);
  }

  /** The clientMessageIds given to sendMessage, in order. */
  public final List<String> sentIds = new ArrayList<>();
  public final Deque<CompletableFuture<Message>> sendResults = new ArrayDeque<>();
  /** The latest download's listener, which the test calls. */
  public volatile TransferListener downloadListener;
  public final Deque<CompletableFuture<java.io.File>> downloadResults = new ArrayDeque<>();

  @Override
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts, String clientMessageId) {
    sentIds.add(clientMessageId);
    return sendResults.remove();
  }

  @Override
  public CompletableFuture<java.io.File> downloadFile(FileAttachment file, java.io.File target,
      TransferListener listener) {
    downloadListener = listener;
    return downloadResults.remove();
  }

  /** Changes the state and emits the change. */
  public void moveTo(ConnectionState next) {
    ConnectionState previous = state;
    state = next;
    emit(EventType.CONNECTION_STATE, new ConnectionStateChange(previous, next, reasonFor(next), null));
  }

  /** Returns the usual reason of a move to {@code next}. */
  public static ConnectionReason reasonFor(ConnectionState next) {
    switch (next) {
      case CONNECTING:
        return ConnectionReason.CONNECT;
      case CONNECTED:
        return ConnectionReason.CONNECTED;
      case RECONNECTING:
        return ConnectionReason.TRANSPORT_CLOSED;
      case CLOSED:
        return ConnectionReason.CLOSED;
      default:
        return ConnectionReason.CLIENT_DISCONNECT;
    }
  }

  /** Sets the state without an event. */
  public void setState(ConnectionState state) {
    this.state = state;
  }

  /** Returns the number of handlers registered now for {@code type}. */
  public synchronized int handlerCount(EventType<?> type) {
    List<EventHandler<?>> list = handlers.get(type);
    return list == null ? 0 : list.size();
  }

  /** Returns the total number of handlers registered now. */
  public synchronized int handlerCount() {
    int n = 0;
    for (List<EventHandler<?>> list : handlers.values()) n += list.size();
    return n;
  }

  @Override
  public synchronized <T> Subscription on(EventType<T> type, final EventHandler<T> handler) {
    final CopyOnWriteArrayList<EventHandler<?>> list =
        handlers.computeIfAbsent(type, k -> new CopyOnWriteArrayList<>());
    list.add(handler);
    return () -> list.remove(handler);
  }

  @Override
  public CompletableFuture<Room> joinRoom(String roomId) {
    joins.add(roomId);
    CompletableFuture<Room> f = new CompletableFuture<>();
    joinResults.add(f);
    return f;
  }

  @Override
  public CompletableFuture<MessagePage> getMessages(String roomId, MessageQuery query) {
    historyQueries.add(query);
    CompletableFuture<MessagePage> f = new CompletableFuture<>();
    historyResults.add(f);
    return f;
  }

  @Override
  public CompletableFuture<Message> getMessage(String roomId, String messageId) {
    messageGets.add(roomId + "/" + messageId);
    CompletableFuture<Message> f = new CompletableFuture<>();
    messageResults.add(f);
    return f;
  }

  @Override
  public CompletableFuture<SearchPage> searchStored(SearchQuery query) {
    storedSearches.add(query);
    CompletableFuture<SearchPage> f = new CompletableFuture<>();
    storedSearchResults.add(f);
    return f;
  }

  @Override
  public CompletableFuture<List<String>> getPresence() {
    CompletableFuture<List<String>> f = new CompletableFuture<>();
    presenceResults.add(f);
    return f;
  }

  @Override
  public CompletableFuture<Void> setTyping(String roomId, boolean isTyping) {
    Runnable probe = whileSettingTyping;
    if (probe != null) probe.run();
    if (typingThrows) throw new IllegalStateException("closed");
    typingCalls.add(roomId + ":" + isTyping);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public ConnectionState state() {
    return state;
  }

  @Override
  public String userId() {
    return "me";
  }

  @Override
  public void close() {
  }

  @Override
  public CompletableFuture<MessagePage> getMessages(String roomId) {
    return getMessages(roomId, MessageQuery.latest(MessageQuery.DEFAULT_LIMIT));
  }

}
