package dev.svc.chat.internal;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.EventType;
import dev.svc.chat.internal.json.CallJsonAdapter;
import dev.svc.chat.internal.json.FastMessageReader;
import dev.svc.chat.internal.json.MessageJsonAdapter;
import dev.svc.chat.internal.json.MessagingAdapters;
import dev.svc.chat.internal.realtime.EventDecoder;
import dev.svc.chat.internal.socketio.MalformedFrameException;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;

/**
 * The registry of gateway events the SDK understands: wire name to {@link EventType} and payload decoder.
 * Adding an event is a constant in {@link EventType} plus one {@link #register} line here. It is the client's
 * {@link EventDecoder}, given to the engine when it is built.
 */
public final class GatewayEvents implements EventDecoder {
  /** The messages' fast reader; read ahead, each connection uses a {@link FastMessageReader} of its own. */
  private static final FastReader<dev.svc.chat.Message> MESSAGE_READER = FastMessageReader::read;

  /** The events of this SDK version. */
  public static final GatewayEvents STANDARD = new GatewayEvents()
      .register(EventType.NEW_MESSAGE, MessageJsonAdapter.INSTANCE, GatewayEvents.MESSAGE_READER)
      .register(EventType.CALL_INVITE, CallJsonAdapter.INSTANCE)
      .register(EventType.CALL_ACCEPTED, CallJsonAdapter.INSTANCE)
      .register(EventType.CALL_DECLINED, CallJsonAdapter.INSTANCE)
      .register(EventType.CALL_ENDED, CallJsonAdapter.INSTANCE)
      .register(EventType.MESSAGE_UPDATED, MessageJsonAdapter.INSTANCE, GatewayEvents.MESSAGE_READER)
      .register(EventType.TYPING, MessagingAdapters.TYPING)
      .register(EventType.TENANT_PRESENCE, MessagingAdapters.PRESENCE)
      .register(EventType.ROOM_READ, MessagingAdapters.RECEIPT);

  private final Map<String, Decoder<?>> byName = new HashMap<>();

  /** Adds an event: its wire name is {@code type.name()}, its first argument is read with {@code adapter}. */
  public <T> GatewayEvents register(EventType<T> type, JsonAdapter<T> adapter) {
    return register(type, adapter, null);
  }

  /**
   * Adds an event with a fast reader too: tried first on an event read on the fast path, it returns null
   * for whatever it does not take, and {@code adapter} reads that.
   */
  public <T> GatewayEvents register(EventType<T> type, JsonAdapter<T> adapter, FastReader<T> fast) {
    if (!type.isFromGateway()) throw new IllegalArgumentException(type + " is not a gateway event");
    byName.put(type.name(), new Decoder<>(type, adapter, fast));
    return this;
  }

  /** Reads a payload straight from a frame's characters, or returns null to leave it to the adapter. */
  public interface FastReader<T> {
    /** Returns the payload starting at {@code start} in {@code frame}, as the event's only argument, or null. */
    T read(CharSequence frame, int start);
  }

  /**
   * Returns what reads events ahead of the actor on one connection's socket reader thread: for an event
   * whose decoder has a fast reader, the payload is read there and recorded in the packet, and
   * {@link Decoder#decode} on the actor takes it as it is. What the fast reader does not take is left to the
   * actor, as before. One per connection: it keeps the fast readers' buffers and caches.
   */
  public ReadAhead readAhead() {
    return new ReadAhead();
  }

  @Override
  public ReadAhead reader() {
    return new ReadAhead();
  }

  /** Reads events for one thread at a time (a socket's reader, or the actor): its fast readers' buffers and caches. */
  public final class ReadAhead implements EventDecoder.Reader {
    private final FastMessageReader messages = new FastMessageReader();
    /**
     * The last name looked up and its decoder (null: unknown). A stream of events is mostly one event, and a
     * gateway's event name is one String instance ({@link SocketIoCodec#fastEvent}), so an identity compare
     * spares most lookups; another instance of the same name is looked up as before.
     */
    private String lastName;
    private Decoder<?> lastDecoder;

    private ReadAhead() {
    }

    @Override
    public void readAhead(SocketIoPacket event) {
      read(event);
    }

    @Override
    public Event<?> decode(SocketIoPacket event) throws MalformedFrameException, IOException {
      Decoder<?> decoder = decoder(event.eventName);
      if (decoder == null) {
        SocketIoCodec.checkArguments(event); // scanned on the fast path: not checked yet
        return null;
      }
      read(event, decoder); // with this reader's buffers; a no-op for an event read ahead already
      return decoder.event(event);
    }

    /** Reads {@code event}'s payload now if its decoder has a fast reader; never throws. */
    public void read(SocketIoPacket event) {
      read(event, decoder(event.eventName));
    }

    private Decoder<?> decoder(String name) {
      if (name != lastName) {
        lastDecoder = byName.get(name);
        lastName = name;
      }
      return lastDecoder;
    }

    private void read(SocketIoPacket event, Decoder<?> decoder) {
      if (decoder == null || decoder.fast == null || event.frame() == null) return;
      if (event.readAheadBy(decoder) != null) return; // read already (on the reader thread)
      try {
        Object value = decoder.fast == (Object) MESSAGE_READER ? messages.readMessage(event.frame(), event.argsStart())
            : decoder.fast.read(event.frame(), event.argsStart());
        if (value != null) event.readAhead(decoder, value);
      } catch (RuntimeException e) {
        // left to the actor, which reads it again and reports what is wrong
      }
    }
  }

  /** Returns the decoder of a wire event name, or null for an event this SDK does not know. */
  public Decoder<?> forName(String name) {
    return byName.get(name);
  }

  /** Reads one event's payload. */
  public static final class Decoder<T> {
    public final EventType<T> type;
    private final JsonAdapter<T> adapter;
    private final FastReader<T> fast;

    Decoder(EventType<T> type, JsonAdapter<T> adapter, FastReader<T> fast) {
      this.type = type;
      this.adapter = adapter;
      this.fast = fast;
    }

    Event<T> event(SocketIoPacket event) throws IOException {
      return new Event<>(type, decode(event));
    }

    /**
     * Returns the payload of {@code event} (its first argument), reading its arguments once, to their end.
     *
     * @throws JsonDataException if the payload is missing or not a valid {@code T}; another
     *     {@link IOException} if the event's JSON itself is malformed
     */
    @SuppressWarnings("unchecked")
    public T decode(SocketIoPacket event) throws IOException {
      Object ahead = event.readAheadBy(this);
      if (ahead != null) return (T) ahead; // read by this decoder's fast reader on the socket's reader thread
      if (fast != null && event.frame() != null) {
        T value = fast.read(event.frame(), event.argsStart());
        if (value != null) return value;
      }
      try (JsonReader reader = SocketIoCodec.arguments(event)) {
        if (!reader.hasNext()) throw new JsonDataException("event '" + event.eventName + "' without payload");
        T value = adapter.fromJson(reader);
        if (value == null) throw new JsonDataException("event '" + event.eventName + "' with a null payload");
        SocketIoCodec.endArguments(reader);
        return value;
      }
    }
  }
}
