package dev.svc.chat.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.svc.chat.Call;
import dev.svc.chat.CallKind;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.PushPlatform;
import dev.svc.chat.internal.realtime.RealtimeEngine;
import dev.svc.chat.internal.rest.RestApi;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Inputs;

/**
 * The client's call signaling and push registration: inputs checked, the REST call made, its future relayed to the
 * app's callback executor. Push registration needs a connected session-token client (seed.md). Thread-safe.
 */
final class CallsAndPush {
  private final RestApi rest;
  private final RealtimeEngine engine;
  private final CallbackExecutor callbacks;
  private final AtomicBoolean closed;

  CallsAndPush(RestApi rest, RealtimeEngine engine, CallbackExecutor callbacks, AtomicBoolean closed) {
    this.rest = rest;
    this.engine = engine;
    this.callbacks = callbacks;
    this.closed = closed;
  }

  CompletableFuture<Call> startCall(String roomId, CallKind kind) {
    Inputs.roomId(roomId);
    Inputs.nonNull(kind, "kind");
    return callbacks.relay(rest.startCall(roomId, kind));
  }

  /** Accepts, declines or ends a call ({@code move}: {@code accept}, {@code decline}, {@code end}). */
  CompletableFuture<Call> moveCall(String callId, String move) {
    return callbacks.relay(rest.moveCall(CallInputs.callId(callId), move));
  }

  CompletableFuture<Call> getActiveCall(String roomId) {
    Inputs.roomId(roomId);
    return callbacks.relay(rest.getActiveCall(roomId));
  }

  CompletableFuture<Void> registerDeviceToken(String token, PushPlatform platform) {
    CallInputs.deviceToken(token);
    Inputs.nonNull(platform, "platform");
    ChatStateException refused = pushRefusal("registerDeviceToken");
    return refused != null ? failed(refused) : callbacks.relay(rest.registerDeviceToken(token, platform));
  }

  CompletableFuture<Void> unregisterDeviceToken(String token) {
    CallInputs.deviceToken(token);
    ChatStateException refused = pushRefusal("unregisterDeviceToken");
    return refused != null ? failed(refused) : callbacks.relay(rest.unregisterDeviceToken(token));
  }

  /** Returns why push registration is refused now, or null. */
  private ChatStateException pushRefusal(String operation) {
    if (closed.get()) return new ChatStateException("the client is closed");
    ConnectionState now = engine.state();
    if (now != ConnectionState.CONNECTED) {
      return new ChatStateException(operation + " needs a client connected with a session token (state is "
          + now + "): call connect(userId, sessionToken) and wait for it first");
    }
    return null;
  }

  private CompletableFuture<Void> failed(Throwable error) {
    return callbacks.failed(error);
  }
}
