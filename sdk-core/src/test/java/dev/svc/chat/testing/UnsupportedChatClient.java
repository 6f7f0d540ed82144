package dev.svc.chat.testing;

import dev.svc.chat.Call;
import dev.svc.chat.CallKind;
import dev.svc.chat.ChangesPage;
import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.EventHandler;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.PendingSend;
import dev.svc.chat.PushPlatform;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.RoomList;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.SendOptions;
import dev.svc.chat.Subscription;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A base for test fakes of {@link ChatClient}: every operation throws {@link UnsupportedOperationException}
 * until a fake overrides it. A new operation on the
 * interface then needs one method here, not one in every fake.
 */
public abstract class UnsupportedChatClient implements ChatClient {
  private static UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("not faked");
  }

  @Override
  public CompletableFuture<Void> connect(String userId, String token) {
    throw unsupported();
  }

  @Override
  public void updateToken(String token) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Void> disconnect() {
    throw unsupported();
  }

  @Override
  public void close() {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Void> logout() {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Room> joinRoom(String roomId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Void> leaveRoom(String roomId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<List<Room>> listRooms() {
    throw unsupported();
  }

  @Override
  public CompletableFuture<SearchPage> searchMessages(SearchQuery query) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<SearchPage> searchStored(SearchQuery query) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<ChangesPage> getChanges(String roomId, long since) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<ChangesPage> getChanges(String roomId, long since, int limit) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<List<Receipt>> getReceipts(String roomId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<MessagePage> getMessages(String roomId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<MessagePage> getMessages(String roomId, MessageQuery query) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts, String clientMessageId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Message> sendText(String roomId, String text) {
    throw unsupported();
  }

  @Override
  public List<PendingSend> pendingSends() {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Message> updateMessage(String roomId, String messageId, List<MessagePart> parts) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Message> deleteMessage(String roomId, String messageId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Message> toggleReaction(String roomId, String messageId, String emoji) {
    throw unsupported();
  }

  @Override
  public Subscription roomList(EventHandler<RoomList> handler) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Receipt> markRead(String roomId, String messageId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<List<String>> getPresence() {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Void> setTyping(String roomId, boolean isTyping) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts, SendOptions options) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Message> getMessage(String roomId, String messageId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Message> updateMessage(String roomId, String messageId, List<MessagePart> parts,
      List<String> mentions) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Call> startCall(String roomId, CallKind kind) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Call> acceptCall(String callId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Call> declineCall(String callId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Call> endCall(String callId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Call> getActiveCall(String roomId) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Void> registerDeviceToken(String token, PushPlatform platform) {
    throw unsupported();
  }

  @Override
  public CompletableFuture<Void> unregisterDeviceToken(String token) {
    throw unsupported();
  }

  @Override
  public void reconnectNow() {
    throw unsupported();
  }

  @Override
  public ConnectionState state() {
    throw unsupported();
  }

  @Override
  public String userId() {
    throw unsupported();
  }
}
