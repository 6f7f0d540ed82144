package dev.svc.chat.internal.realtime;

import java.io.IOException;

import dev.svc.chat.EventType;
import dev.svc.chat.internal.socketio.MalformedFrameException;
import dev.svc.chat.internal.socketio.SocketIoPacket;

/**
 * The frame decoder's last step, given to the engine when it is built: a gateway event's payload read into its
 * typed value. The only place an event's payload is read, on whichever thread reads it: the socket's reader
 * (ahead of the actor, while the actor is behind) or the actor. Each such thread holds a {@link Reader} of its
 * own, which keeps buffers and caches from one event to the next.
 */
public interface EventDecoder {
  /** Returns a reader for one thread at a time. */
  Reader reader();

  /** Reads events for one thread; not thread-safe. */
  interface Reader {
    /**
     * Reads {@code event}'s payload now if it can, and records it in the packet for {@link #decode}, which then
     * takes it as it is; never throws (what it does not read, {@link #decode} reads as it would have).
     */
    void readAhead(SocketIoPacket event);

    /**
     * Returns {@code event} decoded, or null for an event this SDK does not know (its arguments checked whole).
     *
     * @throws MalformedFrameException if the event's arguments are not JSON
     * @throws IOException if its payload is not a valid value of its type ({@code JsonDataException}) or its
     *     JSON malformed
     */
    Event<?> decode(SocketIoPacket event) throws MalformedFrameException, IOException;
  }

  /** A gateway event decoded: its type and payload. */
  final class Event<T> {
    public final EventType<T> type;
    public final T payload;

    public Event(EventType<T> type, T payload) {
      this.type = type;
      this.payload = payload;
    }
  }
}
