package dev.svc.chat;

import java.util.List;

/**
 * Receives a {@link ThreadSubscription}'s thread on the client's callback executor: the root and the replies
 * loaded first, then each new reply, each changed reply, and each change of the root (its {@link Message#thread()}
 * summary among them). Every method has an empty default.
 */
public interface ThreadSubscriptionListener {
  /**
   * Receives the root and the latest replies, oldest first, once, before any other call.
   *
   * @param root the thread's root, as the service has it now (maybe deleted: it keeps its summary)
   * @param replies the latest replies in ascending {@code seq}, deleted ones as tombstones
   */
  default void onInitialReplies(Message root, List<Message> replies) {
  }

  /**
   * Receives a new reply of the thread, once, in order.
   *
   * @param reply the reply
   */
  default void onReply(Message reply) {
  }

  /**
   * Receives a newer version of a reply: edited, deleted or reacted to.
   *
   * @param reply the reply as it is now
   */
  default void onReplyUpdated(Message reply) {
  }

  /**
   * Receives a newer version of the root: its summary changed (a reply sent or deleted), or it was edited,
   * deleted or reacted to.
   *
   * @param root the root as it is now
   */
  default void onRootUpdated(Message root) {
  }

  /**
   * Receives the error that ended the subscription: the service refused the room or the root (such as a
   * {@code not_found} root, or a room the user left), or the client was closed.
   *
   * @param error the cause
   */
  default void onError(Throwable error) {
  }
}
