package dev.svc.chat.session;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.svc.chat.Call;
import dev.svc.chat.CallKind;
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
import dev.svc.chat.PushPlatform;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.Subscription;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.testing.UnsupportedChatClient;

/** A {@link ChatClient} that records connects and answers them as told; everything else is unsupported. */
final class FakeChatClient extends UnsupportedChatClient {
  final SvcOptions options;
  /** The tokens given by connect and by updateToken, in order. */
  final List<String> tokens = new CopyOnWriteArrayList<>();
  /** The answer to the next connects; null: success. */
  volatile RuntimeException connectFailure;
  private final List<EventHandler<ConnectionStateChange>> stateHandlers = new ArrayList<>();
  private volatile ConnectionState state = ConnectionState.DISCONNECTED;
  volatile int disconnects;
  volatile int reconnectNows;
  volatile boolean closed;
  /** When set, the next connect or updateToken waits at its entry (a seam for races): counted down there. */
  volatile java.util.concurrent.CountDownLatch connectEntered;
  /** What a gated connect waits for before it proceeds. */
  volatile java.util.concurrent.CountDownLatch connectRelease;
  /** Every connect, disconnect and token update in call order: "connect", "disconnect", "update". */
  final List<String> calls = new CopyOnWriteArrayList<>();

  FakeChatClient(SvcOptions options) {
    this.options = options;
  }

  @Override
  public CompletableFuture<Void> connect(String userId, String token) {
    passGate();
    calls.add("connect");
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

  /** Holds the calling thread at the gate, if one is set, until the test releases it. */
  private void passGate() {
    java.util.concurrent.CountDownLatch entered = connectEntered;
    if (entered == null) return;
    connectEntered = null;
    entered.countDown();
    try {
      if (!connectRelease.await(30, java.util.concurrent.TimeUnit.SECONDS)) throw new AssertionError("no release");
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Override
  public void updateToken(String token) {
    passGate();
    calls.add("update");
    tokens.add(token);
  }

  void setState(ConnectionState next, String reason) {
    ConnectionState previous = state;
    state = next;
    for (EventHandler<ConnectionStateChange> h : stateHandlers) {
      h.onEvent(new ConnectionStateChange(previous, next, reason(reason), null));
    }
  }

  @Override
  public CompletableFuture<Void> disconnect() {
    disconnects++;
    calls.add("disconnect");
    state = ConnectionState.DISCONNECTED;
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public void reconnectNow() {
    reconnectNows++;
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


  private static ConnectionReason reason(String code) {
    for (ConnectionReason r : ConnectionReason.values()) {
      if (r.code().equals(code)) return r;
    }
    throw new IllegalArgumentException("no reason " + code);
  }
}
