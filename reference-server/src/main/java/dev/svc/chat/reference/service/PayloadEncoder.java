package dev.svc.chat.reference.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.function.Function;

/**
 * Encodes an event's payload as JSON with the server's mapper, the same text its frames, answers and webhooks
 * would hold had each encoded the payload itself (so {@link dev.svc.chat.reference.model.JsonText} of it writes
 * the same bytes).
 */
public final class PayloadEncoder implements Function<Object, String> {

    private final ObjectMapper mapper;

    /** Creates an encoder over the server's {@code mapper}. */
    public PayloadEncoder(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** Returns {@code payload} as JSON text; a payload the mapper cannot write is a programming error. */
    @Override
    public String apply(Object payload) {
        try {
            return mapper.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + payload.getClass().getSimpleName(), e);
        }
    }
}
