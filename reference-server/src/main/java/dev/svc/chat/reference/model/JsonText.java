package dev.svc.chat.reference.model;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import java.io.IOException;
import java.util.Objects;

/**
 * A value already encoded as JSON by the server's mapper ({@link Json#newMapper()}), written as it is wherever
 * the mapper meets it (an ack, a webhook's envelope), so that one message sent to a room is encoded once for its
 * answer, its frame and its webhook. The text must be what the mapper writes for the value: the bytes on the
 * wire are then the same as if the value itself had been serialized.
 *
 * @param json the value's JSON text
 */
public record JsonText(String json) implements JsonSerializable {

    /** Checks that the text is given. */
    public JsonText {
        Objects.requireNonNull(json, "json");
    }

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
        gen.writeRawValue(json);
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer)
            throws IOException {
        serialize(gen, serializers);
    }
}
