package dev.svc.chat.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.SendOptions;
import dev.svc.chat.internal.auth.Credentials;
import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.internal.outbox.Outbox;
import dev.svc.chat.internal.realtime.RealtimeEngine;
import dev.svc.chat.internal.rest.RestApi;
import dev.svc.chat.internal.rooms.RoomListModel;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Inputs;

/**
 * The {@link RealChatClient}'s calls on one message: sends (through the outbox, with their reply, thread and
 * mentions), reads of one message, edits, deletes and reaction toggles. Inputs are checked here, on the app's
 * thread; each future is relayed to the callback executor.
 */
final class MessageCalls {
  private final RestApi rest;
  private final Outbox outbox;
  private final RoomListModel roomList;
  private final RealtimeEngine engine;
  private final Credentials credentials;
  private final CallbackExecutor callbacks;

  MessageCalls(RestApi rest, Outbox outbox, RoomListModel roomList, RealtimeEngine engine, Credentials credentials,
      CallbackExecutor callbacks) {
    this.rest = rest;
    this.outbox = outbox;
    this.roomList = roomList;
    this.engine = engine;
    this.credentials = credentials;
    this.callbacks = callbacks;
  }

  CompletableFuture<Message> send(String roomId, List<MessagePart> parts, SendOptions options) {
    Inputs.nonNull(options, "options");
    String id = options.clientMessageId();
    return send(roomId, parts, SendLinks.of(options), id != null ? id : UUID.randomUUID().toString());
  }

  CompletableFuture<Message> send(String roomId, List<MessagePart> parts, SendLinks links, String clientMessageId) {
    Inputs.roomId(roomId);
    Inputs.parts(parts);
    Inputs.clientMessageId(clientMessageId);
    CompletableFuture<Message> sent = outbox.enqueue(roomId, parts, links, clientMessageId, credentials.userId());
    if (roomList.following()) {
      sent.thenAccept(m -> engine.actor().execute(() -> roomList.message(m))); // the room's activity, never unread
    }
    return callbacks.relay(sent);
  }

  CompletableFuture<Message> get(String roomId, String messageId) {
    Inputs.roomId(roomId);
    Inputs.messageId(messageId);
    return callbacks.relay(rest.getMessage(roomId, messageId));
  }

  /** Edits the parts, and the mentions unless {@code mentions} is null (then the service keeps them). */
  CompletableFuture<Message> update(String roomId, String messageId, List<MessagePart> parts,
      List<String> mentions) {
    Inputs.roomId(roomId);
    Inputs.messageId(messageId);
    Inputs.parts(parts);
    return callbacks.relay(rest.updateMessage(roomId, messageId, parts, mentions == null ? null : mentions(mentions)));
  }

  CompletableFuture<Message> delete(String roomId, String messageId) {
    Inputs.roomId(roomId);
    Inputs.messageId(messageId);
    return callbacks.relay(rest.deleteMessage(roomId, messageId));
  }

  CompletableFuture<Message> toggleReaction(String roomId, String messageId, String emoji) {
    Inputs.roomId(roomId);
    Inputs.messageId(messageId);
    Inputs.emoji(emoji);
    return callbacks.relay(rest.toggleReaction(roomId, messageId, emoji));
  }

  /** Checks mentions as {@link SendOptions.Builder#mentions} does: valid ids, duplicates collapsed, at most 20. */
  private static List<String> mentions(List<String> userIds) {
    Set<String> distinct = new LinkedHashSet<>();
    for (String u : userIds) distinct.add(Inputs.userId(u));
    if (distinct.size() > SendOptions.MAX_MENTIONS) {
      throw new IllegalArgumentException("at most " + SendOptions.MAX_MENTIONS + " mentions: " + distinct.size());
    }
    return new ArrayList<>(distinct);
  }
}
