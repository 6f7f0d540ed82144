package dev.svc.chat.android;

import android.os.Looper;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventHandler;
import dev.svc.chat.EventType;
import dev.svc.chat.PendingSend;
import dev.svc.chat.Subscription;
import dev.svc.chat.testing.UnsupportedChatClient;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A client for the session manager under Android: connects at once, records connects (and token updates),
 * disconnects and {@code reconnectNow()} calls, and lets the test move its connection state and set its pending
 * sends.
 */
final class RecordingChatClient extends UnsupportedChatClient {
  final List<String> tokens = new CopyOnWriteArrayList<>();
  final CountDownLatch closed = new CountDownLatch(1);
  private final List<EventHandler<ConnectionStateChange>> stateHandlers = new CopyOnWriteArrayList<>();
  volatile ConnectionState state = ConnectionState.DISCONNECTED;
  /** What {@link #pendingSends()} answers; the test sets it. */
  volatile List<PendingSend> pending = List.of();
  volatile int connects;
  volatile int disconnects;
  volatile int reconnectNows;
  /** Whether every call so far came on the main thread. */
  volatile boolean allOnMainThread = true;

  private void called() {
    if (Looper.myLooper() != Looper.getMainLooper()) allOnMainThread = false;
  }

  @Override
  public CompletableFuture<Void> connect(String userId, String token) {
    called();
    connects++;
    tokens.add(token);
    moveTo(ConnectionState.CONNECTED, ConnectionReason.CONNECTED);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public void updateToken(String token) {
    called();
    tokens.add(token);
  }

  @Override
  public CompletableFuture<Void> disconnect() {
    called();
    disconnects++;
    moveTo(ConnectionState.DISCONNECTED, ConnectionReason.CLIENT_DISCONNECT);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public List<PendingSend> pendingSends() {
    return pending;
  }

  @Override
  public void reconnectNow() {
    reconnectNows++;
  }

  /** Moves the connection to {@code next} and tells the handlers, on the caller's thread. */
  void moveTo(ConnectionState next, ConnectionReason reason) {
    ConnectionState previous = state;
    state = next;
    for (EventHandler<ConnectionStateChange> h : stateHandlers) {
      h.onEvent(new ConnectionStateChange(previous, next, reason, null));
    }
  }

  @Override
  public void close() {
    closed.countDown();
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
    return tokens.isEmpty() ? null : "alice";
  }
}
