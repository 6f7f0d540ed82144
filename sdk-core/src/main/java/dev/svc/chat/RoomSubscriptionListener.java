package dev.svc.chat;

import java.util.List;

/**
 * Receives a {@link RoomSubscription}'s messages, on the client's callback executor, one call at a time.
 * Every method does nothing unless overridden.
 */
public interface RoomSubscriptionListener {
  /**
   * Invoked once with the room's latest history, oldest first, after the room was joined.
   *
   * @param messages unmodifiable, ascending seq
   */
  default void onInitialMessages(List<Message> messages) {
  }

  /**
   * Invoked with each new message of the room after {@link #onInitialMessages}, in seq order, each once;
   * also with messages that were missed while the connection was down, fetched after it came back.
   *
   * @param message the message
   */
  default void onMessage(Message message) {
  }

  /**
   * Invoked when a message of the room was edited, reacted to or deleted, with its whole new version.
   *
   * @param message the new version
   */
  default void onMessageUpdated(Message message) {
  }

  /**
   * Invoked when the service refused the join or the history ({@link ApiException}, such as
   * {@code forbidden}), or the client was closed ({@link ChatStateException}): the subscription delivers
   * nothing more after it. A lost connection is not an error: the subscription joins and loads again once
   * connected. Also invoked, without ending the subscription, when fetching the messages missed during a
   * disconnection failed ({@link TransportException} or {@link ApiException}).
   *
   * @param error the failure
   */
  default void onError(Throwable error) {
  }
}
