package dev.svc.chat.internal.realtime;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import com.squareup.moshi.JsonDataException;
import dev.svc.chat.ApiException;
import dev.svc.chat.ChatException;
import dev.svc.chat.ClientError;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.Room;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.json.AckReply;
import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.json.RoomJsonAdapter;

/**
 * The connection's one joined room: joins and leaves it with acknowledged events, remembers it, and joins
 * it again after every reconnect. Joins asked for while connecting wait for the connection. A room is
 * remembered when its join is acknowledged, unless the app left it after asking to join (the gateway handles
 * the two in order, so it is not a member then either). Confined to the engine's actor thread.
 */
public final class JoinedRoom {
  private final RealtimeEngine engine;
  private final Log log;
  private String roomId;
  private final List<PendingJoin> waiting = new ArrayList<>();
  /** Joins sent and not yet answered. */
  private final List<PendingJoin> unanswered = new ArrayList<>();

  public JoinedRoom(RealtimeEngine engine, Log log) {
    this.engine = engine;
    this.log = log;
  }

  /** Returns the remembered room id, or null. For tests and diagnostics. */
  public String roomId() {
    return roomId;
  }

  /** Joins {@code id}; called on the actor thread. */
  public void join(String id, CompletableFuture<Room> result) {
    switch (engine.state()) {
      case CONNECTED:
        send(id, result);
        break;
      case CONNECTING:
      case RECONNECTING:
        waiting.add(new PendingJoin(id, result));
        break;
      default:
        result.completeExceptionally(new ChatStateException(
            "cannot join a room while " + engine.state() + "; call connect() first"));
    }
  }

  /** Leaves {@code id} and forgets it; called on the actor thread. */
  public void leave(final String id, final CompletableFuture<Void> result) {
    if (id.equals(roomId)) roomId = null;
    for (PendingJoin p : unanswered) {
      if (p.roomId.equals(id)) p.left = true; // its answer must not make the room the remembered one
    }
    for (Iterator<PendingJoin> it = waiting.iterator(); it.hasNext(); ) {
      PendingJoin p = it.next();
      if (p.roomId.equals(id)) {
        it.remove();
        p.result.completeExceptionally(new ChatStateException("left room " + id + " before it was joined"));
      }
    }
    if (engine.state() != ConnectionState.CONNECTED) {
      result.complete(null);
      return;
    }
    CompletableFuture<String> ack = new CompletableFuture<>();
    Acks.expectOk(ack, "leave-room").whenComplete(new BiConsumer<Void, Throwable>() {
      @Override
      public void accept(Void ignored, Throwable error) {
        if (error != null) {
          result.completeExceptionally(error);
        } else {
          result.complete(null);
        }
      }
    });
    engine.emitWithAckInActor("leave-room", Json.object("roomId", id), ack, null);
  }

  /**
   * A connection was accepted (a connect, a reconnect, or a token refresh's new connection): sends the joins
   * that waited for it, or joins the remembered room again on it.
   */
  public void onConnectionAccepted() {
    if (!waiting.isEmpty()) {
      List<PendingJoin> joins = new ArrayList<>(waiting);
      waiting.clear();
      for (PendingJoin p : joins) send(p.roomId, p.result);
    } else if (roomId != null) {
      log.info("joining room " + roomId + " again on the new connection");
      final String id = roomId;
      CompletableFuture<Room> rejoin = new CompletableFuture<>();
      rejoin.whenComplete((room, error) -> {
        if (error instanceof ApiException) {
          engine.reportError(new ClientError(ClientError.Kind.REJOIN_REFUSED, "joining room " + id
              + " again was refused (" + ((ApiException) error).code() + "); it is no longer the joined room", id,
              error));
        }
      });
      send(id, rejoin);
    }
  }

  /** Follows the connection: gives up waiting joins when disconnected, forgets the room when closed. */
  public void onStateChange(ConnectionStateChange change) {
    switch (change.current()) {
      case DISCONNECTED:
      case CLOSED:
        List<PendingJoin> joins = new ArrayList<>(waiting);
        waiting.clear();
        for (PendingJoin p : joins) {
          p.result.completeExceptionally(new TransportException(
              "the connection ended (" + change.reason() + ") before room " + p.roomId + " was joined"));
        }
        if (change.current() == ConnectionState.CLOSED) roomId = null;
        break;
      default:
        break;
    }
  }

  private void send(final String id, final CompletableFuture<Room> result) {
    final int sentOn = engine.connectionIdInActor();
    final PendingJoin join = new PendingJoin(id, result);
    unanswered.add(join);
    CompletableFuture<String> ack = new CompletableFuture<>();
    ack.whenComplete(new BiConsumer<String, Throwable>() {
      @Override
      public void accept(String argsJson, Throwable error) {
        unanswered.remove(join);
        if (error != null) {
          result.completeExceptionally(error);
          return;
        }
        try {
          AckReply reply = AckReply.parse(argsJson);
          if (!reply.ok) {
            if (id.equals(roomId)) roomId = null; // refused (no longer a member?): stop re-joining it
            log.warn("joining room " + id + " was refused: " + reply.error.code, null);
            result.completeExceptionally(reply.error.toApiException());
            return;
          }
          String roomJson = reply.field("room");
          Room room = roomJson == null ? null : RoomJsonAdapter.INSTANCE.fromJson(roomJson);
          if (room == null) throw new JsonDataException("join-room acknowledgement without room");
          if (join.left) {
            result.complete(room); // joined, then left as the app asked after it
            return;
          }
          roomId = id;
          result.complete(room);
          if (engine.connectionIdInActor() != sentOn && engine.state() == ConnectionState.CONNECTED) {
            // acknowledged by the previous connection of a token refresh: join on the new one too
            send(id, new CompletableFuture<Room>());
          }
        } catch (java.io.IOException | RuntimeException e) {
          result.completeExceptionally(new ChatException("malformed join-room acknowledgement", e));
        }
      }
    });
    engine.emitWithAckInActor("join-room", Json.object("roomId", id), ack, null);
  }

  private static final class PendingJoin {
    final String roomId;
    final CompletableFuture<Room> result;
    /** Whether the app left the room after asking for this join. */
    boolean left;

    PendingJoin(String roomId, CompletableFuture<Room> result) {
      this.roomId = roomId;
      this.result = result;
    }
  }
}
