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
import dev.svc.chat.internal.realtime.RealtimeEngine;
import dev.svc.chat.internal.realtime.SocketSendChannel;

/**
 * Chooses how each attempt of a send travels: as a {@code send-message} event on the gateway connection when
 * its CONNECT answer offered it (docs/protocol.md, "Extension: sends over the socket"), up to
 * {@link #SOCKET_WINDOW} per room in flight; else over REST, one per room. Confined to the client's actor
 * (the outbox calls it there).
 */
public final class SendTransports implements Outbox.Transport {
  /** The sends of one room in flight at once on a gateway connection. */
  static final int SOCKET_WINDOW = 32;

  private final RealtimeEngine engine;
  private final Outbox.Transport rest;
  /** The connection on which some rooms go over REST (a refused send of theirs ended there), and those rooms. */
  private SocketSendChannel restRoomsOf;
  private final Set<String> restRooms = new HashSet<>();

  SendTransports(RealtimeEngine engine, Outbox.Transport rest) {
    this.engine = engine;
    this.rest = rest;
  }

  /** Returns the transport of a client: REST only if its options turn socket sends off. */
  public static Outbox.Transport of(SvcOptions options, RealtimeEngine engine, Outbox.Transport rest) {
    return options.socketSends() ? new SendTransports(engine, rest) : rest;
  }

  @Override
  public Object route(String roomId) {
    SocketSendChannel channel = engine.socketSendsInActor();
    if (channel == null || (channel == restRoomsOf && restRooms.contains(roomId))) return null;
    return channel;
  }

  @Override
  public int window(Object route) {
    return route == null ? 1 : SOCKET_WINDOW;
  }

  @Override
  public CompletableFuture<Message> send(String roomId, List<MessagePart> parts, String clientMessageId,
      String senderId) {
    return send(route(roomId), roomId, parts, clientMessageId, senderId);
  }

  @Override
  public CompletableFuture<Message> send(Object route, String roomId, List<MessagePart> parts,
      String clientMessageId, String senderId) {
    if (route == null) return rest.send(roomId, parts, clientMessageId, senderId);
    CompletableFuture<String> ack = new CompletableFuture<>();
    if (route != engine.socketSendsInActor()) {
      ack.completeExceptionally(new TransportException("the connection of " + route + " is gone"));
    } else {
      engine.emitWithAckInActor("send-message", SendAck.payload(roomId, parts, clientMessageId, senderId), ack);
    }
    return ack.thenApply(SendAck::read);
  }

  @Override
  public void abandoned(Object route, String roomId) {
    if (!(route instanceof SocketSendChannel)) return;
    if (route != restRoomsOf) {
      restRoomsOf = (SocketSendChannel) route;
      restRooms.clear();
    }
    restRooms.add(roomId);
  }
}
