package dev.svc.chat.internal.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.LongSupplier;

import com.squareup.moshi.JsonReader;
import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.socketio.EngineIoCodec;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.transport.TransportListener;
import dev.svc.chat.transport.TransportSocket;
import okio.Buffer;

/**
 * The first stage of the inbound pipeline: one socket's frames, read on its transport's thread (OkHttp: the
 * socket's reader thread; the JDK transport: its shared executor) and handed to
 * the engine's actor in batches. On the reader: the frame's size checked against the gateway's
 * {@code maxPayload}, an event frame's head scanned ({@link SocketIoCodec#fastEvent}) and passed through the
 * {@link InboundGate} (control frames never wait), its payload read ahead by the socket's own
 * {@link EventDecoder.Reader} while the actor is behind, then appended to a list, in order with the socket's
 * other reports (binary frames, closing, failure, as tasks), so a close never overtakes the frames before it.
 *
 * <p>The hand-off: the reader posts one drain task when none is pending, or, for the first
 * {@value #REPORTS_TAKEN_HERE} reports after {@link #QUIET_NANOS} without one, runs it itself when the actor is
 * idle ({@link Scheduler#executeHere}: no other thread woken, none waiting for a core); the drain takes the whole
 * list at once (two lists swapped, nothing allocated per frame) and hands it to the {@link GatewayConnection} in
 * order, as one batch of deliveries ({@link EngineListener#onInboundBatch}). Frames of a connection the engine
 * abandoned are dropped. Once idle after a batch of more than {@value #SMALL_BATCH} frames, it drops the two lists
 * the burst grew: a fleet's clients, each sent a burst at connect, would otherwise keep them for good. The reader
 * touches the connection's state only in the actor's turn, as a drain it runs itself.
 *
 * <p>While the gate sheds, a {@code typing} or {@code tenant-presence} event is parked instead of queued, the
 * latest per room and user (per user for presence) replacing the one before, at most {@value #MAX_PARKED} keys;
 * the parked events are queued, in the order their keys came, once the backlog is low: at the next event frame
 * read then, or by a check on the actor every {@value #PARKED_CHECK_MILLIS} ms. Other events the gate never sheds
 * are kept up to its bound, and past it dropped and reported ({@link ClientError.Kind#EVENTS_DROPPED}).
 */
final class SocketReader extends TransportListener {
  private final GatewayConnection conn;
  private final EngineListener listener;
  private final Scheduler actor;
  private final Log log;
  private final Runnable drain = this::drain;
  private final InboundGate gate;
  /** This socket's reader of payloads ahead of the actor (the same decoder; its own buffers). */
  private final EventDecoder.Reader readAhead;
  private final Runnable onShed;

  SocketReader(GatewayConnection conn, EngineListener listener, Scheduler actor, InboundGate gate,
      EventDecoder.Reader readAhead, Runnable onShed, Log log) {
    this(conn, listener, actor, gate, readAhead, onShed, log, SYSTEM_NANOS);
  }

  /** As the other, with the clock of {@link #QUIET_NANOS} (tests). */
  SocketReader(GatewayConnection conn, EngineListener listener, Scheduler actor, InboundGate gate,
      EventDecoder.Reader readAhead, Runnable onShed, Log log, LongSupplier nanos) {
    this.nanos = nanos;
    this.conn = conn;
    this.listener = listener;
    this.actor = actor;
    this.log = log;
    this.gate = gate;
    this.readAhead = readAhead;
    this.onShed = onShed;
  }

  /**
   * A text frame of the socket, on its reader thread. The frame is kept (queued, not copied) until the actor has
   * read it, so its characters must not change once handed over: a String, or a transport's CharSequence of
   * its own for this frame (see {@link dev.svc.chat.transport.TransportListener#onText}).
   */
  @Override
  public void onText(TransportSocket socket, CharSequence text) {
    if (conn.abandoned) return;
    final long limit = conn.inboundLimit;
    if (text.length() > limit / 3) {
      final long size = EngineIoCodec.utf8Size(text);
      if (size > limit) {
        // the transport has read it already; what matters now is not to queue it, and to drop the connection
        task(() -> conn.onOversizedFrame(size, limit));
        return;
      }
    }
    if (text.length() > 1 && text.charAt(0) == '4' && text.charAt(1) == '2') {
      // an event: its head is scanned here, once; only events pass the gate (control frames never wait)
      SocketIoPacket event = SocketIoCodec.fastEvent(text);
      boolean sheddable = event != null && InboundGate.sheddable(event.eventName);
      int admitted = gate.admit(conn, socket, sheddable);
      if (admitted != InboundGate.ADMIT) {
        if (admitted == InboundGate.SHED && gate.shed()) task(onShed); // else deferred: handed over again later
        return;
      }
      if (event != null && !sheddable && gate.shedding() && !keepWhileShedding(event)) return;
      if (parkedCount != 0 && !gate.shedding()) queueParked();
      if (event != null) {
        // its payload is read here too while the actor is behind (frames wait for it), else on the actor:
        // the reading goes to whichever thread has time, so the reader and the actor share it on 2 cores
        if (gate.frames() >= InboundGate.READ_AHEAD_MARK) readAhead.readAhead(event);
        event(event);
        return;
      }
    }
    text(text);
  }

  @Override
  public void onBinary(TransportSocket socket) {
    task(conn::onBinary);
  }

  @Override
  public void onClosing(TransportSocket socket, int code, String reason) {
    socket.close(1000, null); // answer the close so the transport finishes the socket now
    lost(ConnectionReason.TRANSPORT_CLOSED, new TransportException("the gateway closed the connection (" + code + ")"));
  }

  @Override
  public void onClosed(TransportSocket socket, int code, String reason) {
    conn.markGone();
    conn.releaseSlot();
    lost(ConnectionReason.TRANSPORT_CLOSED, new TransportException("the connection closed (" + code + ")"));
  }

  @Override
  public void onFailure(TransportSocket socket, Throwable t, int httpStatus) {
    conn.markGone();
    conn.releaseSlot();
    String why = httpStatus < 0 ? "the connection failed" : "the WebSocket upgrade was answered " + httpStatus;
    lost(ConnectionReason.TRANSPORT_ERROR, new TransportException(why + ": " + t, t));
  }

  private void lost(final ConnectionReason reason, final TransportException cause) {
    task(() -> conn.lost(reason, cause));
  }

  // ---------------------------------------------------------------- events never shed, while the gate sheds

  /** Typing and presence keys parked at most; an event of another key then counts as any other. */
  static final int MAX_PARKED = 1_024;
  /** How often the actor checks whether parked events may be queued. */
  static final long PARKED_CHECK_MILLIS = 100;
  /** The latest typing or presence event per key while the gate sheds; guarded by {@link #lock}. */
  private final LinkedHashMap<String, SocketIoPacket> parked = new LinkedHashMap<>();
  /** How many events are parked (read without the lock by the reader, which alone adds them). */
  private volatile int parkedCount;
  private final Runnable parkedCheck = this::parkedCheck;

  /**
   * While the gate sheds, decides what becomes of an event it does not shed (reader thread): returns true to
   * queue it; false when it was parked (typing, presence) or dropped past the gate's bound (reported once).
   */
  private boolean keepWhileShedding(SocketIoPacket event) {
    if (InboundGate.coalescible(event.eventName)) {
      String key = coalesceKey(event);
      if (key != null && park(key, event)) return false;
    }
    if (gate.keepWhileShedding()) return true;
    if (gate.dropped()) {
      final String name = event.eventName;
      log.warn("the handlers are behind a flood: dropping '" + name + "' events past "
          + InboundGate.MAX_KEPT_WHILE_SHEDDING, null);
      task(() -> listener.onClientError(new ClientError(ClientError.Kind.EVENTS_DROPPED, "the handlers are behind a"
          + " flood of events: '" + name + "' events past " + InboundGate.MAX_KEPT_WHILE_SHEDDING
          + " were dropped", null, null)));
    }
    return false;
  }

  /** Parks {@code event} as the latest of {@code key}; false when {@link #MAX_PARKED} other keys are parked. */
  private boolean park(String key, SocketIoPacket event) {
    boolean first;
    synchronized (lock) {
      if (parked.size() >= MAX_PARKED && !parked.containsKey(key)) return false;
      parked.put(key, event); // replaces the one before: the latest state of that room and user is all that matters
      first = parkedCount == 0;
      parkedCount = parked.size();
    }
    if (first) actor.schedule(parkedCheck, PARKED_CHECK_MILLIS);
    return true;
  }

  /** On the actor: queues the parked events once the backlog is low, else checks again later. */
  private void parkedCheck() {
    if (parkedCount == 0) return;
    if (gate.shedding() && gate.backlog() >= InboundGate.LOW_WATER && !conn.abandoned) {
      actor.schedule(parkedCheck, PARKED_CHECK_MILLIS);
      return;
    }
    queueParked();
  }

  /**
   * Queues the parked events, in one hold of the lock: a newer event of the same key, queued by the reader after
   * this, comes after them.
   */
  private void queueParked() {
    boolean post;
    synchronized (lock) {
      if (parked.isEmpty()) return;
      for (SocketIoPacket e : parked.values()) {
        gate.queued();
        pending.add(e);
      }
      parked.clear();
      parkedCount = 0;
      post = !scheduled;
      scheduled = true;
    }
    if (post) actor.execute(drain);
  }

  /** Returns the parked events, oldest key first (tests). */
  List<SocketIoPacket> parked() {
    synchronized (lock) {
      return new ArrayList<>(parked.values());
    }
  }

  /**
   * Returns what a typing or presence event supersedes: its name with its room and user ({@code roomId},
   * {@code userId} of its first argument), or null when they cannot be read (the event is then kept as any other).
   */
  static String coalesceKey(SocketIoPacket event) {
    CharSequence frame = event.frame();
    if (frame == null || event.argsStart() < 0) return null;
    String roomId = null;
    String userId = null;
    try {
      JsonReader reader = JsonReader.of(new Buffer().writeUtf8(frame.subSequence(event.argsStart(),
          frame.length()).toString()));
      reader.beginObject();
      while (reader.hasNext()) {
        String name = reader.nextName();
        if ("roomId".equals(name) && reader.peek() == JsonReader.Token.STRING) {
          roomId = reader.nextString();
        } else if ("userId".equals(name) && reader.peek() == JsonReader.Token.STRING) {
          userId = reader.nextString();
        } else {
          reader.skipValue();
        }
      }
    } catch (IOException | RuntimeException e) {
      return null; // the actor reads it again and reports what is wrong
    }
    if (userId == null) return null;
    return event.eventName + '\n' + (roomId == null ? "" : roomId) + '\n' + userId;
  }

  // ---------------------------------------------------------------- the hand-off to the actor

  /**
   * A report that comes at least this long after the one before starts a burst: the reader runs the drain of its
   * first reports itself when the actor is idle ({@link #REPORTS_TAKEN_HERE}). The rest of a burst is posted, so
   * the actor, woken once, takes it in batches (one hand-off to the handlers' thread per batch, not per frame).
   * 100 µs: longer than a pool thread's wake-up, far shorter than the gap between the messages of a busy
   * conversation (200 µs at 5,000 a second).
   */
  static final long QUIET_NANOS = 100_000;
  /**
   * The reports of a burst the reader still runs itself while the actor is idle: the first two, since the
   * service answers a send with a pair of frames that come together (the acknowledgement, then the sender's own
   * {@code new-message}), which would otherwise wake the actor for the second of every send. From the third on,
   * the burst is the actor's.
   */
  static final int REPORTS_TAKEN_HERE = 2;
  private static final LongSupplier SYSTEM_NANOS = System::nanoTime;
  private final LongSupplier nanos;
  /**
   * When the last report was offered; the reader's (a failure may be reported from another of the transport's
   * threads: a race then only chooses the other hand-off).
   */
  private long lastOffer = Long.MIN_VALUE / 2;
  /** The reports offered since the last quiet spell, this one included; the reader's, as {@link #lastOffer}. */
  private int burst;

  /** Frames of a batch read before the gate's count of waiting frames is updated. */
  private static final int TAKEN_STEP = 64;
  /** Batches up to this size keep their list; a larger one's lists are dropped once the queue is idle. */
  private static final int SMALL_BATCH = 16;
  private final Object lock = new Object();
  /** Filled by the reader thread; guarded by {@link #lock}. */
  private ArrayList<Object> pending = new ArrayList<>();
  /** The empty list swapped in for {@link #pending} at the next drain; actor only. */
  private ArrayList<Object> spare = new ArrayList<>();
  /** Whether a drain task is posted and has not yet found the list empty; guarded by {@link #lock}. */
  private boolean scheduled;

  /** Queues a text frame (reader thread); the gate counts it until the actor takes it. */
  private void text(CharSequence frame) {
    gate.queued();
    offer(frame);
  }

  /**
   * Queues an event frame the reader thread scanned (and maybe read ahead) already; the gate counts it as a
   * text frame.
   */
  private void event(SocketIoPacket event) {
    gate.queued();
    offer(event);
  }

  /** Queues another report of the socket (closed, failed, a binary frame), in order with the frames. */
  private void task(Runnable task) {
    offer(task);
  }

  private void offer(Object item) {
    long now = nanos.getAsLong();
    burst = now - lastOffer >= QUIET_NANOS ? 1 : Math.min(burst + 1, REPORTS_TAKEN_HERE + 1);
    lastOffer = now;
    boolean post;
    synchronized (lock) {
      pending.add(item);
      post = !scheduled;
      scheduled = true;
    }
    if (!post) return; // the pending drain takes it
    // the first reports of a burst run an idle actor's drain here: a frame reaches the handlers' thread with one
    // hand-off, not two; the rest of a burst, or one for a busy actor, waits for the actor's next drain (refused
    // only after shutdown)
    if (burst <= REPORTS_TAKEN_HERE) {
      actor.executeHere(drain);
    } else {
      actor.execute(drain);
    }
  }

  /** The drain, on the actor: hands everything queued so far to the connection as one batch. */
  private void drain() {
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
    // A batch of more than one frame: the reader is still reading. Before this drain ends (and the actor's thread
    // parks, to be woken again by the reader's next frame), the actor gives its core up once: a reader on the same
    // core then queues what it has read, and the next batch is taken without a park and a wake-up. Without it, a
    // reader and an actor that shared a core took turns frame by frame (some 6,000 preemptions of each per
    // 500,000 events, against 1,000 when they ran on two cores), and a round cost up to 1.5 times the CPU.
    if (drained > 1) {
      boolean empty;
      synchronized (lock) {
        empty = pending.isEmpty();
      }
      if (empty) Thread.yield();
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
    if (more) actor.execute(drain); // after whatever else waits on the actor: timers and commands keep their turn
  }

  /**
   * Hands a batch to the connection, in order; what the batch delivers reaches the app as one batch too. The
   * gate counts the batch's frames as waiting until {@value #TAKEN_STEP} of them (or the batch) were read: one
   * update of the count shared with the reader thread per step, not per frame. Meanwhile the events they
   * published are counted by the hub as well, so the backlog may be over-counted by up to a step.
   */
  private void read(List<Object> items) {
    int frames = 0;
    listener.onInboundBatch(true);
    try {
      for (int i = 0, n = items.size(); i < n; i++) {
        Object item = items.get(i);
        try {
          if (item instanceof Runnable) {
            ((Runnable) item).run();
            continue;
          }
          if (++frames == TAKEN_STEP) {
            gate.taken(frames);
            frames = 0;
          }
          if (conn.abandoned) continue;
          if (item instanceof SocketIoPacket) {
            conn.onEventFrame((SocketIoPacket) item);
          } else {
            conn.onText((CharSequence) item);
          }
        } catch (Throwable t) {
          // a bug in the actor must not lose the rest of the batch
          log.error("unexpected error on the connection's serial queue", t);
        }
      }
    } finally {
      gate.taken(frames);
      listener.onInboundBatch(false);
    }
  }
}
