package dev.svc.chat.reference.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Conversions between model values and SQL columns: instants as epoch milliseconds, JSON as text. */
final class SqlValues {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() { };
    private static final TypeReference<LinkedHashMap<String, List<String>>> REACTIONS = new TypeReference<>() { };

    private SqlValues() {
    }

    /** Binds parameters 1..n of {@code ps}; an {@link Instant} is bound as epoch milliseconds. */
    static PreparedStatement bind(PreparedStatement ps, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            if (v instanceof Instant instant) {
                ps.setLong(i + 1, instant.toEpochMilli());
            } else if (v == null) {
                ps.setNull(i + 1, Types.NULL);
            } else {
                ps.setObject(i + 1, v);
            }
        }
        return ps;
    }

    /** Returns a nullable epoch-millisecond column as an instant. */
    static Instant instant(ResultSet rs, String column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
    }

    /** Returns {@code value} as JSON text. */
    static String json(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Returns the elements of a JSON array column. */
    static List<JsonNode> nodes(String json) {
        try {
            List<JsonNode> out = new ArrayList<>();
            MAPPER.readTree(json).forEach(out::add);
            return out;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Returns a JSON array of strings. */
    static List<String> strings(String json) {
        return read(json, STRINGS);
    }

    /** Returns a JSON object of emoji to user ids, in its stored order. */
    static Map<String, List<String>> reactions(String json) {
        return read(json, REACTIONS);
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
