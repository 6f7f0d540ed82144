package dev.svc.chat;

import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ChatClient}'s call signaling and push registration: calls started, accepted, declined and ended in a
 * room, their events, and the device tokens push notifications go to. Every {@link ChatClient} is one.
 */
public interface ChatCalls {
  /**
   * Registers {@code handler} for events of {@code type}; see {@link ChatClient#on}.
   *
   * @param type the event type
   * @param handler receives each event on the client's callback executor
   * @param <T> the event's payload type
   * @return removes the handler
   */
  <T> Subscription on(EventType<T> type, EventHandler<T> handler);

  /**
   * Starts a call in a room: it rings for the other members ({@link EventType#CALL_INVITE} on their
   * connections) until someone accepts, everyone declines, the caller ends it, or the ringing times out
   * (30 s by default; the call then ends with {@link Call#END_MISSED}). Signaling only: media belongs to the
   * media kit.
   *
   * @param roomId the room id
   * @param kind audio or video
   * @return a future with the ringing call; failed with an {@link ApiException} {@code conflict} (409) when
   *     the room already has a ringing or active call, {@code calls_disabled} (403) when the tenant turned
   *     calls off, {@code forbidden} for a non-member
   */
  CompletableFuture<Call> startCall(String roomId, CallKind kind);

  /**
   * Accepts a ringing (or joins an active) call as a member other than its caller.
   *
   * @param callId the call id
   * @return a future with the call, now {@link CallStatus#ACTIVE}; failed with {@code conflict} (409) when the
   *     call is over or the user is already in it
   */
  CompletableFuture<Call> acceptCall(String callId);

  /**
   * Declines a ringing call. When every other member declined, the call ends as
   * {@link CallStatus#DECLINED}.
   *
   * @param callId the call id
   * @return a future with the call; failed with {@code conflict} (409) when it no longer rings, was declined
   *     already, or the user is its caller (who ends it instead)
   */
  CompletableFuture<Call> declineCall(String callId);

  /**
   * Ends a call as its caller ({@link Call#END_HANGUP}), or leaves it as a participant; the call ends
   * ({@link Call#END_LEFT}) when fewer than two participants remain.
   *
   * @param callId the call id
   * @return a future with the call after the move; failed with {@code conflict} (409) when it is over or
   *     the user is not in it
   */
  CompletableFuture<Call> endCall(String callId);

  /**
   * Returns the ringing or active call of a room.
   *
   * @param roomId the room id
   * @return a future with the call, or with null when the room has none (the service's 404
   *     {@code not_found}, which an unknown room also answers); failed with {@code forbidden} for a
   *     non-member and {@code calls_disabled} when the tenant turned calls off
   */
  CompletableFuture<@Nullable Call> getActiveCall(String roomId);

  /**
   * Registers a handler for incoming calls: {@link EventType#CALL_INVITE}, raised on every connection of
   * every member of the room (the caller's own too: check {@link Call#initiatorId()}).
   *
   * @param handler receives the ringing call
   * @return the subscription
   */
  default Subscription callInvite(EventHandler<Call> handler) {
    return on(EventType.CALL_INVITE, handler);
  }

  /**
   * Registers a handler for {@link EventType#CALL_ACCEPTED}.
   *
   * @param handler receives the call after the accept
   * @return the subscription
   */
  default Subscription callAccepted(EventHandler<Call> handler) {
    return on(EventType.CALL_ACCEPTED, handler);
  }

  /**
   * Registers a handler for {@link EventType#CALL_DECLINED}.
   *
   * @param handler receives the call after the decline
   * @return the subscription
   */
  default Subscription callDeclined(EventHandler<Call> handler) {
    return on(EventType.CALL_DECLINED, handler);
  }

  /**
   * Registers a handler for {@link EventType#CALL_ENDED}, raised once per call whatever the reason.
   *
   * @param handler receives the ended call; see {@link Call#endReason()}
   * @return the subscription
   */
  default Subscription callEnded(EventHandler<Call> handler) {
    return on(EventType.CALL_ENDED, handler);
  }

  /**
   * Registers this device's push token for the connected user, so that messages arriving while the user has
   * no open connection are pushed to it. Registering a token again (or one another user registered on the
   * same device) makes it this user's.
   *
   * @param token the FCM registration token or APNs device token
   * @param platform the push service
   * @return a future completed when the service stored it; failed with a {@link ChatStateException} unless
   *     the client is {@link ConnectionState#CONNECTED} (connected with a session token)
   */
  CompletableFuture<@Nullable Void> registerDeviceToken(String token, PushPlatform platform);

  /**
   * Removes a push token of the connected user's (for example at sign-out, before disconnecting).
   *
   * @param token the token given to {@link #registerDeviceToken}
   * @return a future completed when the service forgot it; failed with a {@link ChatStateException} unless
   *     the client is {@link ConnectionState#CONNECTED}
   */
  CompletableFuture<@Nullable Void> unregisterDeviceToken(String token);
}
