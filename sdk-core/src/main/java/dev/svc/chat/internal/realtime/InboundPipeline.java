package dev.svc.chat.internal.realtime;

import java.util.function.IntSupplier;

import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.transport.TransportListener;

/**
 * The inbound path of a client, from a socket's frame to the app's handler, as stages each in a class of its
 * own. Read it top to bottom; the thread of each stage is given, and there are at most two hand-offs between
 * threads (reader to actor, unless a frame is one of the first two of a burst and finds the actor idle; actor to
 * callbacks, always).
 *
 * <ol>
 *   <li><b>Socket reader</b> ({@link SocketReader}, the socket's transport thread: OkHttp's reader
 *       thread of the socket, or the JDK transport's shared executor): the frame's size is
 *       checked; an event frame's head is scanned ({@code SocketIoCodec.fastEvent}) and passes the
 *       {@link InboundGate} (backpressure: the reader waits for slow handlers, then sheds what recovery
 *       restores; control frames never wait); while the actor is behind, the event's payload is read here by
 *       this socket's own {@link EventDecoder.Reader} (read ahead). Then the hand-off (reader thread to
 *       actor): frames and the socket's other reports, in order, drained by the actor in batches; the first two
 *       frames of a burst (a send's acknowledgement and its own {@code new-message} come as a pair), each finding
 *       the actor idle, are drained by the reader itself, in the actor's turn (no thread woken).
 *   <li><b>Connection</b> ({@link GatewayConnection}, actor): the frame decoder's strict stages
 *       ({@code EngineIoCodec}, {@code SocketIoCodec}) and the protocol: handshake, heartbeat, acknowledgements,
 *       binary attachments skipped; an event's payload is decoded by the client's one {@link EventDecoder}
 *       (taking what was read ahead as it is). It reports typed results to the engine: accepted, lost (with
 *       its reason), refused, disconnected, an event.
 *   <li><b>Engine</b> ({@code RealtimeEngine}, actor): the connection's state machine; an event of the current
 *       connection goes to its {@link EngineListener}, or is held by the {@link Handover} of a token refresh.
 *   <li><b>Recovery ledger</b> ({@code Recovery}, {@code RoomLedger}, actor, reached through the client's
 *       {@code EventRouter}): messages, changes and receipts once each, in order per room, gaps back-filled;
 *       other events pass straight on.
 *   <li><b>Event hub</b> ({@code EventHub}, actor): each event becomes a delivery to the handlers registered
 *       now, gathered per batch ({@code CallbackExecutor.beginBatch}); state changes go ahead of the backlog.
 *   <li><b>Callbacks</b> ({@code CallbackExecutor}, the app's callback executor): the batch's deliveries, in
 *       order, one handler at a time.
 * </ol>
 *
 * This class builds the per-socket stages and owns what they share: the gate and the actor's decoder reader.
 */
final class InboundPipeline {
  private final InboundGate gate;
  private final EventDecoder decoder;
  /** The actor's reader of payloads, shared by the engine's connections (all read on the actor). */
  private final EventDecoder.Reader actorReader;
  private final EngineListener listener;
  private final Scheduler actor;
  private final Log log;
  private final Runnable onShed = this::onEventsShed;

  InboundPipeline(EventDecoder decoder, IntSupplier undelivered, Scheduler actor, EngineListener listener, Log log) {
    this.decoder = decoder;
    this.actorReader = decoder.reader();
    this.listener = listener;
    this.actor = actor;
    this.log = log;
    this.gate = new InboundGate(undelivered, actor::nowMillis, listener.restoresShedEvents(),
        listener::wakeWhenCaughtUp);
  }

  /** Returns a new connection, whose frames will be read by this pipeline's stages. */
  GatewayConnection connection(int id, GatewayConnection.Owner owner, PendingAcks acks) {
    return new GatewayConnection(id, owner, actor, acks, actorReader, log);
  }

  /** Returns the transport listener of {@code conn}'s socket: its reader stage and its hand-off to the actor. */
  TransportListener reader(GatewayConnection conn) {
    return new SocketReader(conn, listener, actor, gate, decoder.reader(), onShed, log);
  }

  /** Returns how many inbound frames wait for the actor; any thread. */
  int queuedFrames() {
    return gate.frames();
  }

  /** The gate shed events (on the actor): recovery restores them, whatever connection they came on. */
  private void onEventsShed() {
    gate.reportTaken(); // first: an event shed from now on is reported again
    listener.onEventsShed();
  }
}
