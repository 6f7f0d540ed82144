package dev.svc.chat.session;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.svc.chat.Call;
import dev.svc.chat.CallKind;
import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventHandler;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.PushPlatform;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.Subscription;
import dev.svc.chat.SvcOptions;

/** A {@link ChatClient} that records connects and answers them as told; everything else is unsupported. */
final class FakeChatClient implements ChatClient {
  final SvcOptions options;
  final List<String> tokens = new CopyOnWriteArrayList<>();
  /** The answer to the next connects; null: success. */
  volatile RuntimeException connectFailure;
  private final List<EventHandler<ConnectionStateChange>> stateHandlers = new ArrayList<>();
  private volatile ConnectionState state = ConnectionState.DISCONNECTED;
  volatile int disconnects;
  volatile boolean closed;

  FakeChatClient(SvcOptions options) {
    this.options = options;
  }

  @Override
  public CompletableFuture<Void> connect(String userId, String token) {
    tokens.add(token);
    CompletableFuture<Void> f = new CompletableFuture<>();
    if (connectFailure != null) {
      f.completeExceptionally(connectFailure);
    } else {
      setState(ConnectionState.CONNECTED, "connected");
      f.complete(null);
    }
    return f;
  }

  void setState(ConnectionState next, String reason) {
    ConnectionState previous = state;
    state = next;
    for (EventHandler<ConnectionStateChange> h : stateHandlers) {
      h.onEvent(new ConnectionStateChange(previous, next, reason, null));
    }
  }

  @Override
  public CompletableFuture<Void> disconnect() {
    disconnects++;
    state = ConnectionState.DISCONNECTED;
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> Subscription on(EventType<T> type, EventHandler<T> handler) {
    if (type == EventType.CONNECTION_STATE) stateHandlers.add((EventHandler<ConnectionStateChange>) handler);
    return () -> { };
  }

  @Override
  public ConnectionState state() {
    return state;
  }

  @Override
  public String userId() {
    return null;
  }

  @Override
  public CompletableFuture<Room> joinRoom(String roomId) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Void> leaveRoom(String roomId) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<List<Room>> listRooms() {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<MessagePage> getMessages(String roomId) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<MessagePage> getMessages(String roomId, MessageQuery query) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts, String clientMessageId) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Message> sendText(String roomId, String text) {
    throw new UnsupportedOperationException();
  }

  // The operations below are not used by the session manager's tests.

  @Override
  public CompletableFuture<Message> updateMessage(String roomId, String messageId, List<MessagePart> parts) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Message> deleteMessage(String roomId, String messageId) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Message> toggleReaction(String roomId, String messageId, String emoji) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Receipt> markRead(String roomId, String messageId) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<List<String>> getPresence() {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Void> setTyping(String roomId, boolean isTyping) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Call> startCall(String roomId, CallKind kind) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Call> acceptCall(String callId) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Call> declineCall(String callId) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Call> endCall(String callId) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Call> getActiveCall(String roomId) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Subscription callInvite(EventHandler<Call> handler) {
    return on(EventType.CALL_INVITE, handler);
  }

  @Override
  public Subscription callAccepted(EventHandler<Call> handler) {
    return on(EventType.CALL_ACCEPTED, handler);
  }

  @Override
  public Subscription callDeclined(EventHandler<Call> handler) {
    return on(EventType.CALL_DECLINED, handler);
  }

  @Override
  public Subscription callEnded(EventHandler<Call> handler) {
    return on(EventType.CALL_ENDED, handler);
  }

  @Override
  public CompletableFuture<Void> registerDeviceToken(String token, PushPlatform platform) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletableFuture<Void> unregisterDeviceToken(String token) {
    throw new UnsupportedOperationException();
  }
}
