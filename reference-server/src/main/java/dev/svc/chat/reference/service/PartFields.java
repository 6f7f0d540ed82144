package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The fields of a stored message part, as the map of its {@link com.fasterxml.jackson.databind.node.ObjectNode}:
 * immutable, in the order they came (so the part is written as it was sent), in two arrays, one of them shared by
 * every part of the usual shape ({@code type}, {@code text}). A stored message lives as long as the server, and a
 * linked hash map with its table and an entry per field kept 120 bytes more for a text part. Any change (the
 * node's {@code set}, {@code remove} ...) throws: a stored part is never changed.
 */
final class PartFields extends AbstractMap<String, JsonNode> {

    private static final String[] TEXT_PART = {"type", "text"};
    // Immutable, so every stored text part can share it.
    private static final TextNode TEXT_TYPE = TextNode.valueOf("text");

    private final String[] names;
    private final JsonNode[] values;

    private PartFields(String[] names, JsonNode[] values) {
        this.names = Arrays.equals(names, TEXT_PART) ? TEXT_PART : names;
        this.values = values;
    }

    /**
     * Returns a deep copy of a part (a JSON object) to keep for as long as its message is stored: it shares no
     * mutable node with the request, its fields are immutable and keep their order, and a {@code "type": "text"}
     * shares one immutable node.
     */
    static ObjectNode storedCopy(JsonNode part) {
        String[] names = new String[part.size()];
        JsonNode[] values = new JsonNode[names.length];
        int i = 0;
        for (Map.Entry<String, JsonNode> field : part.properties()) {
            JsonNode value = field.getValue();
            boolean textType = "type".equals(field.getKey()) && TEXT_TYPE.equals(value);
            names[i] = field.getKey();
            values[i++] = textType ? TEXT_TYPE : value.deepCopy();
        }
        return new ObjectNode(JsonNodeFactory.instance, new PartFields(names, values));
    }

    @Override
    public int size() {
        return names.length;
    }

    @Override
    public boolean containsKey(Object name) {
        return indexOf(name) >= 0;
    }

    @Override
    public JsonNode get(Object name) {
        int i = indexOf(name);
        return i < 0 ? null : values[i];
    }

    @Override
    public Set<Entry<String, JsonNode>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, JsonNode>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < names.length;
                    }

                    @Override
                    public Entry<String, JsonNode> next() {
                        if (next >= names.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(names[i], values[i]);
                    }
                };
            }

            @Override
            public int size() {
                return names.length;
            }
        };
    }

    private int indexOf(Object name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
