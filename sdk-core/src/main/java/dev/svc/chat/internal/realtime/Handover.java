package dev.svc.chat.internal.realtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.util.Scheduler;

/**
 * The make-before-break of a token refresh on an open connection, so that no message is lost or repeated:
 *
 * <ol>
 *   <li>The old connection stays open and keeps delivering events while the new one opens with the new
 *       token. Events of the new connection are held back meanwhile.
 *   <li>Once the new connection is accepted, a barrier is emitted on the old one (a {@code leave-room} of
 *       the nil room, which changes nothing): its acknowledgement comes after every event the gateway queued
 *       on the old connection before the new one existed.
 *   <li>Then the old connection is closed and the held events are delivered, in order. Events both
 *       connections carried are dropped as repeats by (room, seq) further up.
 * </ol>
 *
 * After the barrier's acknowledgement the old connection delivers for {@link #GRACE_MILLIS} more before it
 * is closed, and events still arriving on it until its socket is gone are delivered too (repeats dropped).
 * If the barrier is not acknowledged within the ack timeout, or either connection fails, the old
 * connection is closed and the held events delivered at once. Confined to the engine's actor thread.
 */
final class Handover {
  /** The nil UUID: never a room, so leaving it has no effect but an acknowledgement. */
  static final String BARRIER_ROOM = "00000000-0000-0000-0000-000000000000";
  /**
   * How long the old connection keeps delivering after the barrier's acknowledgement: a send whose fan-out
   * picked its connections before the new one existed may still be writing to the old one.
   */
  static final long GRACE_MILLIS = 250;

  private final Scheduler actor;
  private final PendingAcks acks;
  private final EngineListener listener;
  private GatewayConnection old;
  /** The old connection after the handover, until its socket is gone: late events are still delivered. */
  private GatewayConnection closing;
  private boolean barrierSent;
  private final List<EventDecoder.Event<?>> held = new ArrayList<>();

  Handover(Scheduler actor, PendingAcks acks, EngineListener listener) {
    this.actor = actor;
    this.acks = acks;
    this.listener = listener;
  }

  /** Starts a handover from {@code conn}; returns false when one is already under way. */
  boolean begin(GatewayConnection conn) {
    if (old != null) return false;
    old = conn;
    barrierSent = false;
    conn.cancelTimers();
    return true;
  }

  /** Holds an event of the new connection while the old one drains; returns false when none does. */
  boolean hold(EventDecoder.Event<?> event) {
    if (old == null) return false;
    held.add(event);
    return true;
  }

  /**
   * Handles an event of a connection that is not the engine's current one: delivered if it is the old
   * connection of a handover or one closing after it (the old token's expiry no longer matters: the new
   * connection carries the new one), else ignored.
   */
  void onEvent(GatewayConnection conn, EventDecoder.Event<?> event) {
    if (conn == old || conn == closing) listener.onEvent(event);
  }

  /** The new connection was accepted: emit the barrier on the old one. */
  /** Returns whether a handover is under way: the old connection still delivers. */
  boolean underway() {
    return old != null;
  }

  void newConnectionAccepted() {
    final GatewayConnection conn = old;
    if (conn == null || barrierSent) return;
    barrierSent = true;
    CompletableFuture<String> ack = new CompletableFuture<>();
    int id = acks.register("leave-room", ack, null);
    String frame = SocketIoCodec.eventFrame("leave-room", Json.object("roomId", BARRIER_ROOM), id);
    ack.whenComplete(new BiConsumer<String, Throwable>() {
      @Override
      public void accept(String reply, Throwable error) {
        if (old != conn) return;
        if (error != null) {
          finish();
          return;
        }
        actor.schedule(new Runnable() {
          @Override
          public void run() {
            if (old == conn) finish();
          }
        }, GRACE_MILLIS);
      }
    });
    RuntimeException failure = conn.send(frame);
    if (failure != null) acks.fail(id, failure);
  }

  /** Handles the loss of {@code conn}; returns true when it was the old connection of a handover. */
  boolean onLost(GatewayConnection conn) {
    if (conn != null && conn == closing) {
      closing = null;
      return true;
    }
    if (conn == null || conn != old) return false;
    finish();
    return true;
  }

  /** Ends the handover, if any: closes the old connection and delivers the held events in order. */
  void finish() {
    GatewayConnection conn = old;
    if (conn == null) return;
    old = null;
    barrierSent = false;
    closing = conn;
    conn.closePolitely();
    List<EventDecoder.Event<?>> events = new ArrayList<>(held);
    held.clear();
    for (EventDecoder.Event<?> event : events) listener.onEvent(event);
  }
}
