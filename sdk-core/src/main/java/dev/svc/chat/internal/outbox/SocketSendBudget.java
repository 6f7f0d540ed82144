package dev.svc.chat.internal.outbox;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.util.Scheduler;

/**
 * The bytes of the socket sends in flight on one gateway connection, across its rooms, and the line of rooms
 * waiting to start theirs. Confined to the client's actor.
 *
 * <p>Every frame the engine emits waits in the socket's queue until the network takes it (OkHttp, and the JDK
 * transport's {@code JdkSocket}, fail the socket past 16 MiB queued). A send counts from its start until its
 * frame left that queue, when the transport completes the attempt's {@code read} future: at its acknowledgement,
 * which the gateway writes only after reading the frame, even one that comes after the attempt timed out (on a
 * slow uplink a frame may wait in the queue for longer than the ack timeout), or at the connection's end. So the
 * queue holds at most {@value #BYTES} bytes of sends, plus the one send that starts when nothing of the connection
 * is counted (so that a single large message always goes; the service takes at most 64 KiB of JSON a send), plus
 * the engine's few other frames. A timed-out send that is retried counts twice until both frames were read: both
 * may be queued. Each send weighs
 * an upper bound of its frame's UTF-8 bytes ({@link #weight}).
 *
 * <p>Rooms take turns in the order they asked: the head of the line starts its next sends in order, up to
 * {@value #TURN_BYTES} bytes (at least one), then goes to the back if it has more. A send the budget cannot take
 * yet keeps its room at the head, so no room's later or smaller sends overtake it, and one room's backlog never
 * holds the others back for longer than one turn each.
 */
public final class SocketSendBudget {
  /** The bytes of sends in flight on one connection (beyond the first): a quarter of OkHttp's queue. */
  public static final long BYTES = 4L * 1024 * 1024;

  /** The bytes a room starts in one turn (at least one send). */
  static final long TURN_BYTES = 64 * 1024;

  /** Bytes of a frame beyond its strings: {@code 42<ackId>["send-message",{...}]} and the field names. */
  private static final int FRAME_BYTES = 96;
  /** Bytes of a part beyond its strings: braces, commas, the names {@code type} and {@code text}. */
  private static final int PART_BYTES = 24;

  /** The connection counted, or null before the first socket send. */
  private SendRoute route;
  private long inFlight;
  private final ArrayDeque<String> line = new ArrayDeque<>();
  private final Set<String> inLine = new HashSet<>();

  /**
   * Returns an upper bound of the UTF-8 bytes of the frame of a send: each character of a string counted as
   * JSON escapes and UTF-8 encode it at worst (a control character, quote or backslash, and U+2028 and U+2029,
   * as 6; three-byte characters as 3; each half of a surrogate pair as 2).
   */
  public static long weight(String roomId, List<MessagePart> parts, String clientMessageId, String senderId) {
    long n = FRAME_BYTES + bytes(roomId) + bytes(clientMessageId) + bytes(senderId);
    for (MessagePart p : parts) {
      n += PART_BYTES + bytes(p.type()) + (p.text() == null ? 0 : bytes(p.text()));
      for (Map.Entry<String, String> f : p.rawFields().entrySet()) n += 4 + bytes(f.getKey()) + bytes(f.getValue());
    }
    return n;
  }

  private static long bytes(String s) {
    long n = 2; // the quotes
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f || c == '\u2028' || c == '\u2029') n += 6;
      else if (c < 0x80) n += 1;
      else if (c < 0x800 || Character.isSurrogate(c)) n += 2;
      else n += 3;
    }
    return n;
  }

  /**
   * Returns whether a send of {@code bytes} may start on {@code route} now: when nothing of that connection is
   * in flight, or when it fits.
   */
  boolean admits(SendRoute route, long bytes) {
    return !route.equals(this.route) || inFlight == 0 || inFlight + bytes <= BYTES;
  }

  /** Counts a send starting on a socket {@code route}; the first of a new connection forgets the previous one's. */
  void take(SendRoute route, long bytes) {
    if (route.channel() == null) return;
    if (!route.equals(this.route)) {
      this.route = route; // the previous socket failed, and its queue with it
      inFlight = 0;
    }
    inFlight += bytes;
  }

  /**
   * Counts a send on {@code route} answered (a REST route, or an earlier connection, counts nothing): its bytes
   * come back once its frame left the socket's queue ({@code read} done, or null). A send whose acknowledgement
   * timed out may still be queued, so its bytes stay counted until {@code read} completes (its late
   * acknowledgement, or the connection's end); then {@code then} runs on {@code actor}, as the bytes came back.
   */
  void give(SendRoute route, long bytes, CompletableFuture<Void> read, Scheduler actor, final Runnable then) {
    if (read == null || read.isDone()) {
      give(route, bytes);
      return;
    }
    read.thenRun(() -> actor.execute(() -> {
      give(route, bytes);
      then.run();
    }));
  }

  private void give(SendRoute route, long bytes) {
    if (route.equals(this.route)) inFlight -= bytes;
  }

  /** Puts a room at the back of the line, unless it is in it already. */
  void join(String roomId) {
    if (inLine.add(roomId)) line.add(roomId);
  }

  /** Returns the room at the head of the line, or null. */
  String head() {
    return line.peek();
  }

  /** Ends the head's turn: it goes to the back if {@code more}, else leaves the line. */
  void endTurn(boolean more) {
    String roomId = line.poll();
    if (more) line.add(roomId);
    else inLine.remove(roomId);
  }
}
