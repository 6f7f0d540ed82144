package dev.svc.chat.reference.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;

/**
 * The byte form of a packed message's fields ({@link PackedMessages}): varints, strings, instants and JSON trees,
 * each read back exactly as written. Strings are Java's modified UTF-8 (each char on its own, one to three bytes), so
 * any char sequence, an unpaired surrogate included, comes back unchanged; a JSON tree keeps its node types (an int
 * stays an int node, a double a double node), its field order and its values, so the message reads and encodes
 * as it was stored.
 */
final class PackedCodec {

    // Node tags. TEXT_PART is the shape of almost every part ({"type": "text", "text": ...}) in fewer bytes.
    private static final byte NULL = 0;
    private static final byte TRUE = 1;
    private static final byte FALSE = 2;
    private static final byte TEXT = 3;
    private static final byte INT = 4;
    private static final byte LONG = 5;
    private static final byte DOUBLE = 6;
    private static final byte BIG_INTEGER = 7;
    private static final byte DECIMAL = 8;
    private static final byte FLOAT = 9;
    private static final byte ARRAY = 10;
    private static final byte OBJECT = 11;
    private static final byte TEXT_PART = 12;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private PackedCodec() {
    }

    /** A growable buffer a record is written into before it is copied to its room's chunks. */
    static final class Writer {
        byte[] bytes = new byte[256];
        int size;

        void reset() {
            size = 0;
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }

        void writeByte(int b) {
            ensure(1);
            bytes[size++] = (byte) b;
        }

        void writeVarLong(long value) {
            ensure(10);
            long v = value;
            while ((v & ~0x7FL) != 0) {
                bytes[size++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            bytes[size++] = (byte) v;
        }

        void writeLong(long value) {
            // zigzag: small negative values stay short
            writeVarLong((value << 1) ^ (value >> 63));
        }

        /** Writes a string, or null (a length of 0; a string of n chars is written as n + 1). */
        void writeString(String s) {
            if (s == null) {
                writeVarLong(0);
                return;
            }
            int n = s.length();
            writeVarLong(n + 1L);
            ensure(n * 3);
            byte[] out = bytes;
            int p = size;
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c != 0 && c < 0x80) {
                    out[p++] = (byte) c;
                } else if (c < 0x800) {
                    out[p++] = (byte) (0xC0 | (c >> 6));
                    out[p++] = (byte) (0x80 | (c & 0x3F));
                } else {
                    out[p++] = (byte) (0xE0 | (c >> 12));
                    out[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    out[p++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            size = p;
        }

        void writeInstant(Instant instant) {
            writeLong(instant.getEpochSecond());
            writeVarLong(instant.getNano());
        }

        /** Writes a JSON tree as parsed from a request or built by the server. */
        void writeNode(JsonNode node) {
            JsonNodeType type = node.getNodeType();
            switch (type) {
                case NULL, MISSING -> writeByte(NULL);
                case BOOLEAN -> writeByte(node.booleanValue() ? TRUE : FALSE);
                case STRING -> {
                    writeByte(TEXT);
                    writeString(node.textValue());
                }
                case NUMBER -> writeNumber(node);
                case ARRAY -> {
                    writeByte(ARRAY);
                    writeVarLong(node.size());
                    for (JsonNode element : node) {
                        writeNode(element);
                    }
                }
                case OBJECT -> writeObject(node);
                // BINARY and POJO nodes never come from parsed JSON (a stored part is a copy of one): refused rather
                // than kept as something that would read back as another node.
                default -> throw new IllegalArgumentException("a stored part holds JSON values only, not " + type);
            }
        }

        /** Writes a number node; a short node (never parsed from JSON) reads back as the int node of its value. */
        private void writeNumber(JsonNode node) {
            switch (node.numberType()) {
                case INT -> {
                    writeByte(INT);
                    writeLong(node.intValue());
                }
                case LONG -> {
                    writeByte(LONG);
                    writeLong(node.longValue());
                }
                case BIG_INTEGER -> {
                    writeByte(BIG_INTEGER);
                    writeString(node.bigIntegerValue().toString());
                }
                case FLOAT -> {
                    writeByte(FLOAT);
                    writeLong(Float.floatToRawIntBits(node.floatValue()));
                }
                case BIG_DECIMAL -> {
                    writeByte(DECIMAL);
                    writeString(node.decimalValue().toString());
                }
                default -> {
                    writeByte(DOUBLE);
                    writeLong(Double.doubleToRawLongBits(node.doubleValue()));
                }
            }
        }

        private void writeObject(JsonNode node) {
            if (node.size() == 2) {
                Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
                Map.Entry<String, JsonNode> first = fields.next();
                Map.Entry<String, JsonNode> second = fields.next();
                if (first.getKey().equals("type") && first.getValue().isTextual()
                        && first.getValue().textValue().equals("text")
                        && second.getKey().equals("text") && second.getValue().isTextual()) {
                    writeByte(TEXT_PART);
                    writeString(second.getValue().textValue());
                    return;
                }
            }
            writeByte(OBJECT);
            writeVarLong(node.size());
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                writeString(field.getKey());
                writeNode(field.getValue());
            }
        }
    }

    /** Reads a record from its chunk, field by field, in the order it was written. */
    static final class Reader {
        private final byte[] bytes;
        private int pos;

        Reader(byte[] bytes, int pos) {
            this.bytes = bytes;
            this.pos = pos;
        }

        int readByte() {
            return bytes[pos++];
        }

        long readVarLong() {
            long value = 0;
            int shift = 0;
            while (true) {
                byte b = bytes[pos++];
                value |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
                shift += 7;
            }
        }

        int readVarInt() {
            return Math.toIntExact(readVarLong());
        }

        long readLong() {
            long v = readVarLong();
            return (v >>> 1) ^ -(v & 1);
        }

        String readString() {
            int n = readVarInt() - 1;
            if (n < 0) {
                return null;
            }
            char[] chars = new char[n];
            for (int i = 0; i < n; i++) {
                chars[i] = readChar();
            }
            return new String(chars);
        }

        /** Moves past the next string. */
        void skipString() {
            int n = readVarInt() - 1;
            for (int i = 0; i < n; i++) {
                readChar();
            }
        }

        /** Returns whether the next string equals {@code s} (null included), and moves past it either way. */
        boolean stringEquals(String s) {
            int n = readVarInt() - 1;
            boolean equal = s == null ? n < 0 : n == s.length();
            for (int i = 0; i < n; i++) {
                char c = readChar();
                equal = equal && c == s.charAt(i);
            }
            return equal;
        }

        private char readChar() {
            int b = bytes[pos++] & 0xFF;
            if (b < 0x80) {
                return (char) b;
            }
            if (b < 0xE0) {
                return (char) (((b & 0x1F) << 6) | (bytes[pos++] & 0x3F));
            }
            int c = ((b & 0x0F) << 12) | ((bytes[pos++] & 0x3F) << 6);
            return (char) (c | (bytes[pos++] & 0x3F));
        }

        Instant readInstant() {
            long seconds = readLong();
            return Instant.ofEpochSecond(seconds, readVarLong());
        }

        JsonNode readNode() {
            byte tag = bytes[pos++];
            return switch (tag) {
                case NULL -> NODES.nullNode();
                case TRUE -> NODES.booleanNode(true);
                case FALSE -> NODES.booleanNode(false);
                case TEXT -> NODES.textNode(readString());
                case INT -> NODES.numberNode(Math.toIntExact(readLong()));
                case LONG -> NODES.numberNode(readLong());
                case DOUBLE -> NODES.numberNode(Double.longBitsToDouble(readLong()));
                case FLOAT -> NODES.numberNode(Float.intBitsToFloat((int) readLong()));
                case BIG_INTEGER -> NODES.numberNode(new BigInteger(readString()));
                case DECIMAL -> DecimalNode.valueOf(new BigDecimal(readString()));
                case ARRAY -> {
                    int n = readVarInt();
                    ArrayNode array = NODES.arrayNode(n);
                    for (int i = 0; i < n; i++) {
                        array.add(readNode());
                    }
                    yield array;
                }
                case OBJECT -> {
                    int n = readVarInt();
                    ObjectNode object = NODES.objectNode();
                    for (int i = 0; i < n; i++) {
                        String name = readString();
                        object.set(name, readNode());
                    }
                    yield object;
                }
                case TEXT_PART -> {
                    ObjectNode part = NODES.objectNode();
                    part.put("type", "text");
                    part.put("text", readString());
                    yield part;
                }
                default -> throw new IllegalStateException("corrupt packed record: node tag " + tag);
            };
        }
    }
}
