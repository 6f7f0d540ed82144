package dev.svc.chat.internal.outbox;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.json.SendLinks;

/** One attempt of a send: completes with the stored message, or fails (on any thread). */
public interface OutboxTransport {
  /** Sends once; the future fails with the answer's {@link dev.svc.chat.ApiException} or a transport error. */
  CompletableFuture<Message> send(String roomId, List<MessagePart> parts, SendLinks links, String clientMessageId,
      String senderId);

  /**
   * Returns the route an attempt of the room would take now (actor only). Attempts of a room in flight are
   * all on one route.
   */
  default SendRoute route(String roomId) {
    return SendRoute.REST;
  }

  /** Sends once on {@code route}, as {@link #route} answered it now; {@code read}: see {@link SocketSendBudget}. */
  default CompletableFuture<Message> send(SendRoute route, String roomId, List<MessagePart> parts, SendLinks links,
      String clientMessageId, String senderId, CompletableFuture<Void> read) {
    return send(roomId, parts, links, clientMessageId, senderId);
  }

  /**
   * Sends once on {@code route}, as the 7-argument form, for a send whose parts may hold files to upload first:
   * {@code progress} takes the upload's state and progress.
   */
  default CompletableFuture<Message> send(SendRoute route, String roomId, List<MessagePart> parts, SendLinks links,
      String clientMessageId, String senderId, CompletableFuture<Void> read, SendProgress progress) {
    return send(route, roomId, parts, links, clientMessageId, senderId, read);
  }

  /**
   * A send of the room refused on {@code route} with a retryable error ended without being sent there again
   * (its deadline): the service may hold the room's later sends on that route back, so use another.
   */
  default void abandoned(SendRoute route, String roomId) {
  }
}
