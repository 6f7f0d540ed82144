package dev.svc.chat.internal;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.EventType;
import dev.svc.chat.internal.json.CallJsonAdapter;
import dev.svc.chat.internal.json.MessageJsonAdapter;
import dev.svc.chat.internal.json.MessagingAdapters;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;

/**
 * The registry of gateway events the SDK understands: wire name to {@link EventType} and payload decoder.
 * Adding an event is a constant in {@link EventType} plus one {@link #register} line here.
 */
public final class GatewayEvents {
  /** The events of this SDK version. */
  public static final GatewayEvents STANDARD = new GatewayEvents()
      .register(EventType.NEW_MESSAGE, MessageJsonAdapter.INSTANCE)
      .register(EventType.CALL_INVITE, CallJsonAdapter.INSTANCE)
      .register(EventType.CALL_ACCEPTED, CallJsonAdapter.INSTANCE)
      .register(EventType.CALL_DECLINED, CallJsonAdapter.INSTANCE)
      .register(EventType.CALL_ENDED, CallJsonAdapter.INSTANCE)
      .register(EventType.MESSAGE_UPDATED, MessageJsonAdapter.INSTANCE)
      .register(EventType.TYPING, MessagingAdapters.TYPING)
      .register(EventType.TENANT_PRESENCE, MessagingAdapters.PRESENCE)
      .register(EventType.ROOM_READ, MessagingAdapters.RECEIPT);

  private final Map<String, Decoder<?>> byName = new HashMap<>();

  /** Adds an event: its wire name is {@code type.name()}, its first argument is read with {@code adapter}. */
  public <T> GatewayEvents register(EventType<T> type, JsonAdapter<T> adapter) {
    if (!type.isFromGateway()) throw new IllegalArgumentException(type + " is not a gateway event");
    byName.put(type.name(), new Decoder<>(type, adapter));
    return this;
  }

  /** Returns the decoder of a wire event name, or null for an event this SDK does not know. */
  public Decoder<?> forName(String name) {
    return byName.get(name);
  }

  /** Reads one event's payload. */
  public static final class Decoder<T> {
    public final EventType<T> type;
    private final JsonAdapter<T> adapter;

    Decoder(EventType<T> type, JsonAdapter<T> adapter) {
      this.type = type;
      this.adapter = adapter;
    }

    /**
     * Returns the payload of {@code event} (its first argument), reading its arguments once, to their end.
     *
     * @throws JsonDataException if the payload is missing or not a valid {@code T}; another
     *     {@link IOException} if the event's JSON itself is malformed
     */
    public T decode(SocketIoPacket event) throws IOException {
      JsonReader reader = SocketIoCodec.arguments(event);
      if (!reader.hasNext()) throw new JsonDataException("event '" + event.eventName + "' without payload");
      T value = adapter.fromJson(reader);
      if (value == null) throw new JsonDataException("event '" + event.eventName + "' with a null payload");
      SocketIoCodec.endArguments(reader);
      return value;
    }
  }
}
