package dev.svc.chat.internal.realtime;

import java.util.ArrayList;
import java.util.List;

import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.socketio.SocketIoPacket;

/**
 * What one connection's socket reports (text frames, and its other callbacks as tasks), handed from the
 * socket's reader thread to the engine's actor in batches: the reader appends to a list and posts one
 * drain task when none is pending; the drain takes the whole list at once (two lists swapped, nothing
 * allocated per frame) and hands it to the connection in order, as one batch of deliveries
 * ({@link EngineListener#onInboundBatch}). Frames of a connection the engine abandoned are dropped. Once
 * idle after a batch of more than {@value #SMALL_BATCH} frames, it drops the two lists the burst grew: a fleet's
 * clients, each sent a burst at connect, would otherwise keep them for good.
 * Everything the socket reports goes through here, so a close never overtakes the frames before it.
 */
final class InboundQueue implements Runnable {
  private final GatewayConnection conn;
  private final EngineListener listener;
  private final Scheduler actor;
  private final InboundGate gate;
  private final Log log;
  /** Batches up to this size keep their list; a larger one's lists are dropped once the queue is idle. */
  private static final int SMALL_BATCH = 16;
  private final Object lock = new Object();
  /** Filled by the reader thread; guarded by {@link #lock}. */
  private ArrayList<Object> pending = new ArrayList<>();
  /** The empty list swapped in for {@link #pending} at the next drain; actor only. */
  private ArrayList<Object> spare = new ArrayList<>();
  /** Whether a drain task is posted and has not yet found the list empty; guarded by {@link #lock}. */
  private boolean scheduled;

  InboundQueue(GatewayConnection conn, EngineListener listener, Scheduler actor, InboundGate gate, Log log) {
    this.conn = conn;
    this.listener = listener;
    this.actor = actor;
    this.gate = gate;
    this.log = log;
  }

  /** Queues a text frame (reader thread); the gate counts it until the actor takes it. */
  void text(String frame) {
    gate.queued();
    offer(frame);
  }

  /**
   * Queues an event frame the reader thread scanned (and maybe read ahead) already; the gate counts it as a
   * text frame.
   */
  void event(SocketIoPacket event) {
    gate.queued();
    offer(event);
  }

  /** Queues another report of the socket (closed, failed, a binary frame), in order with the frames. */
  void task(Runnable task) {
    offer(task);
  }

  private void offer(Object item) {
    boolean post;
    synchronized (lock) {
      pending.add(item);
      post = !scheduled;
      scheduled = true;
    }
    if (post) actor.execute(this); // refused only after shutdown: then nothing is read any more
  }

  /** The drain, on the actor: reads everything queued so far as one batch. */
  @Override
  public void run() {
    ArrayList<Object> batch;
    synchronized (lock) {
      batch = pending;
      pending = spare;
    }
    final int drained = batch.size();
    try {
      read(batch);
    } finally {
      batch.clear();
      spare = batch;
    }
    boolean more;
    boolean shrink; // idle after a burst: the lists it grew are not kept (a fleet holds two per client)
    synchronized (lock) {
      more = !pending.isEmpty();
      scheduled = more;
      shrink = !more && drained > SMALL_BATCH;
      if (shrink) pending = new ArrayList<>();
    }
    if (shrink) spare = new ArrayList<>();
    if (more) actor.execute(this); // after whatever else waits on the actor: timers and commands keep their turn
  }

  /** Hands a batch to the connection, in order; what the batch delivers reaches the app as one batch too. */
  private void read(List<Object> items) {
    listener.onInboundBatch(true);
    try {
      for (int i = 0, n = items.size(); i < n; i++) {
        Object item = items.get(i);
        try {
          if (item instanceof String) {
            gate.taken();
            if (!conn.abandoned) conn.onText((String) item);
          } else if (item instanceof SocketIoPacket) {
            gate.taken();
            if (!conn.abandoned) conn.onEventFrame((SocketIoPacket) item);
          } else {
            ((Runnable) item).run();
          }
        } catch (Throwable t) {
          // a bug in the actor must not lose the rest of the batch
          log.error("unexpected error on the connection's serial queue", t);
        }
      }
    } finally {
      listener.onInboundBatch(false);
    }
  }
}
