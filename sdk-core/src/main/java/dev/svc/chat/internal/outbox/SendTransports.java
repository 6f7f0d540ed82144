package dev.svc.chat.internal.outbox;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.json.SendAck;
import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.internal.realtime.RealtimeEngine;
import dev.svc.chat.internal.realtime.SocketSendChannel;

/**
 * Chooses the {@link SendRoute} of each attempt of a send: the socket route of the gateway connection when its
 * CONNECT answer offered sends (docs/protocol.md, "Extension: sends over the socket"), else {@link SendRoute#REST}.
 * Confined to the client's actor (the outbox calls it there).
 */
public final class SendTransports implements OutboxTransport {
  private final RealtimeEngine engine;
  private final OutboxTransport rest;
  /** The socket route of the latest connection that offered sends, made once per connection. */
  private SendRoute socketRoute;
  /** The connection on which some rooms go over REST (a refused send of theirs ended there), and those rooms. */
  private SocketSendChannel restRoomsOf;
  private final Set<String> restRooms = new HashSet<>();

  SendTransports(RealtimeEngine engine, OutboxTransport rest) {
    this.engine = engine;
    this.rest = rest;
  }

  /**
   * Returns the transport of a client: REST only if its options turn socket sends off. A REST send answered tells
   * the engine ({@link RealtimeEngine#serviceAnswered}): the proof that lets its reconnect backoff start over.
   */
  public static OutboxTransport of(SvcOptions options, RealtimeEngine engine, OutboxTransport rest) {
    OutboxTransport proving = (roomId, parts, links, clientMessageId, senderId) -> {
      CompletableFuture<Message> answer = rest.send(roomId, parts, links, clientMessageId, senderId);
      answer.thenRun(engine::serviceAnswered);
      return answer;
    };
    return options.socketSends() ? new SendTransports(engine, proving) : proving;
  }

  @Override
  public SendRoute route(String roomId) {
    SocketSendChannel channel = engine.socketSendsInActor();
    if (channel == null || (channel == restRoomsOf && restRooms.contains(roomId))) return SendRoute.REST;
    if (socketRoute == null || socketRoute.channel() != channel) socketRoute = SendRoute.socket(channel);
    return socketRoute;
  }

  @Override
  public CompletableFuture<Message> send(String roomId, List<MessagePart> parts, SendLinks links,
      String clientMessageId, String senderId) {
    return send(route(roomId), roomId, parts, links, clientMessageId, senderId, null);
  }

  @Override
  public CompletableFuture<Message> send(SendRoute route, String roomId, List<MessagePart> parts, SendLinks links,
      String clientMessageId, String senderId, CompletableFuture<Void> read) {
    SocketSendChannel channel = route.channel();
    if (channel == null) return rest.send(roomId, parts, links, clientMessageId, senderId);
    CompletableFuture<String> ack = new CompletableFuture<>();
    if (channel != engine.socketSendsInActor()) {
      if (read != null) read.complete(null); // never queued
      ack.completeExceptionally(new TransportException("the connection of " + route + " is gone"));
    } else {
      engine.emitWithAckInActor("send-message", SendAck.payload(roomId, parts, links, clientMessageId, senderId), ack, read);
    }
    return ack.thenApply(SendAck::read);
  }

  @Override
  public void abandoned(SendRoute route, String roomId) {
    SocketSendChannel channel = route.channel();
    if (channel == null) return;
    if (channel != restRoomsOf) {
      restRoomsOf = channel;
      restRooms.clear();
    }
    restRooms.add(roomId);
  }
}
