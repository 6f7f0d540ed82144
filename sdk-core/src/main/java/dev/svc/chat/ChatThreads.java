package dev.svc.chat;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link ChatClient}'s replies, threads and mentions (contract section 10): sends that answer a message, reply in
 * a thread or mention members, one message by id, and edits that change mentions. Every {@link ChatClient} is one.
 * A thread's replies are read with {@link MessageQuery#inThread}, and followed live with
 * {@link Svc#createThreadSubscription}.
 */
public interface ChatThreads {
  /**
   * Sends a message with options: the message it answers ({@link SendOptions#replyToId()}), the thread it is a
   * reply in ({@link SendOptions#threadId()}), the members it mentions, its client message id. It goes through the
   * outbox as {@link ChatClient#sendMessage(String, List)} does, and the options are kept with it (in the offline
   * store too) until it is sent.
   *
   * @param roomId the room id
   * @param parts 1 to 10 parts
   * @param options the options; {@link SendOptions#NONE} for a plain message
   * @return a future with the stored message; failed with an {@link ApiException} {@code bad_request} (400)
   *     for a {@code replyToId} or {@code threadId} that is not a message of the room, a thread root that is
   *     itself a reply, or a mention of a non-member; {@code conflict} (409) for a reply to a deleted root
   */
  CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts, SendOptions options);

  /**
   * Fetches one message of a room, deleted or not: the quoted message of a reply the client holds no copy of, or a
   * thread's root.
   *
   * @param roomId the room id
   * @param messageId the message id
   * @return a future with the message; failed with an {@link ApiException} {@code not_found} (404) for an unknown
   *     message, {@code forbidden} (403) for a room the user is not a member of
   */
  CompletableFuture<Message> getMessage(String roomId, String messageId);

  /**
   * Edits a message of the user's, replacing its parts and its mentions. Editing a thread reply does not change
   * its root.
   *
   * @param roomId the room id
   * @param messageId the message id
   * @param parts the new parts, 1 to 10
   * @param mentions the new mentions: distinct members, at most {@value SendOptions#MAX_MENTIONS}
   * @return a future with the edited message
   */
  CompletableFuture<Message> updateMessage(String roomId, String messageId, List<MessagePart> parts,
      List<String> mentions);
}
