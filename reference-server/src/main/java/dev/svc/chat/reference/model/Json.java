package dev.svc.chat.reference.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The one Jackson configuration of the server: wire timestamps, no nulls, strict parsing. */
public final class Json {

    /** The contract's timestamp form: ISO-8601 UTC with exactly three fraction digits. */
    public static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Json() {
    }

    /** Returns a new mapper configured for the contract's JSON. */
    public static ObjectMapper newMapper() {
        SimpleModule module = new SimpleModule("svc-wire");
        module.addSerializer(Instant.class, new InstantSerializer());
        return JsonMapper.builder()
                .addModule(module)
                .serializationInclusion(JsonInclude.Include.NON_NULL)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                // "{} garbage" is malformed JSON, not an object followed by noise.
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                // A field name twice is refused wherever this mapper reads (StrictJson does so for clients).
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                // A character outside the BMP goes out as its 4 UTF-8 bytes whether the mapper writes bytes (a REST
                // answer) or a String (a frame): one encoding can serve both, and they agree byte for byte.
                .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
                .build();
    }

    /** Formats an instant as a contract timestamp. */
    public static String timestamp(Instant instant) {
        return TIMESTAMP.format(instant);
    }

    private static final class InstantSerializer extends StdSerializer<Instant> {
        InstantSerializer() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            char[] text = new char[WireTimestamps.LENGTH];
            if (WireTimestamps.write(value, text)) {
                gen.writeString(text, 0, text.length);
            } else {
                gen.writeString(TIMESTAMP.format(value));
            }
        }
    }
}
