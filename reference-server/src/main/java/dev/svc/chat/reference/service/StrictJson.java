package dev.svc.chat.reference.service;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.contract.ApiException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads client JSON strictly. Jackson alone accepts malformed UTF-8 (an overlong {@code C0 AF}, an encoded
 * surrogate {@code ED A0 80}, a sequence above U+10FFFF) and {@code \ud800} escapes that make lone
 * surrogates, so bytes are decoded here with a reporting decoder first, nesting is capped, and every string
 * and field name of the result is checked: no lone surrogate and no NUL (which no later backend, PostgreSQL
 * text among them, can store). A field name twice in one object is refused, and so is anything over a
 * limit (nesting depth, number length, string length, field name length). Each refusal is a 400
 * {@code bad_request} that names what it hit.
 */
public final class StrictJson {

    /** The deepest nesting of arrays and objects accepted (chosen: the contract's shapes need 5). */
    public static final int MAX_DEPTH = 32;
    /** The most characters of one JSON number (Jackson's default: no field of the contract needs 20). */
    public static final int MAX_NUMBER_LENGTH = 1_000;
    /** The most characters of one JSON string (chosen: the largest Socket.IO frame is 1 MB). */
    public static final int MAX_STRING_LENGTH = 1_000_000;
    /** The most characters of one field name (Jackson's default). */
    public static final int MAX_NAME_LENGTH = 50_000;

    // Duplicate keys are refused: with "last one wins" a body could say "senderId" twice, and a check that
    // reads the first one and a use that reads the last would disagree.
    private static final JsonFactory LIMITED = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                    .maxNumberLength(MAX_NUMBER_LENGTH).maxStringLength(MAX_STRING_LENGTH)
                    .maxNameLength(MAX_NAME_LENGTH).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private StrictJson() {
    }

    /** Decodes {@code bytes} as strict UTF-8, parses them and checks every string; throws 400 otherwise. */
    public static JsonNode parse(ObjectMapper mapper, byte[] bytes) {
        // ASCII is well-formed UTF-8 as it is: parsed from the bytes, without a decode to a String first.
        JsonNode node = isAscii(bytes) ? parseAscii(mapper, bytes) : parseText(mapper, decodeUtf8(bytes));
        requireWellFormedText(node, "body");
        return node;
    }

    /** Returns whether every byte is ASCII (below 0x80), which makes the bytes well-formed UTF-8. */
    static boolean isAscii(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }

    /** As {@link #parseText}, from ASCII bytes (the caller checked them): the same limits and refusals. */
    static JsonNode parseAscii(ObjectMapper mapper, byte[] bytes) {
        try (JsonParser parser = LIMITED.createParser(bytes)) {
            return readOne(mapper, parser);
        } catch (StreamConstraintsException e) {
            throw ApiException.badRequest(JsonLimits.describe(e));
        } catch (IOException e) {
            throw malformed(e);
        }
    }

    /**
     * Parses already decoded text into a tree with the nesting limit, but does not check its strings (the
     * gateway answers a bad string in an event with an error ack, which needs the packet parsed first).
     * Returns null for empty text; anything after the first value is malformed.
     */
    public static JsonNode parseText(ObjectMapper mapper, String text) {
        try (JsonParser parser = LIMITED.createParser(text)) {
            return readOne(mapper, parser);
        } catch (StreamConstraintsException e) {
            throw ApiException.badRequest(JsonLimits.describe(e));
        } catch (IOException e) {
            throw malformed(e);
        }
    }

    private static JsonNode readOne(ObjectMapper mapper, JsonParser parser) throws IOException {
        parser.setCodec(mapper);
        if (parser.nextToken() == null) {
            return null;
        }
        JsonNode node = mapper.readTree(parser);
        if (parser.nextToken() != null) {
            throw ApiException.badRequest("Malformed JSON");
        }
        return node;
    }

    private static ApiException malformed(IOException e) {
        if (JsonLimits.isDuplicateKey(e)) {
            return ApiException.badRequest("Duplicate field name in a JSON object");
        }
        return ApiException.badRequest("Malformed JSON");
    }

    /** Returns {@code bytes} decoded as UTF-8, refusing anything malformed with a 400. */
    public static String decodeUtf8(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = decoder.decode(ByteBuffer.wrap(bytes));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw ApiException.badRequest("The body is not well-formed UTF-8");
        }
    }

    /**
     * Throws 400 if any string or field name in {@code node} (called {@code root} in the message) holds a lone surrogate or a NUL,
     * or a number is beyond the range of a double. The depth is already bounded by the parser, so the recursion is too.
     */
    public static void requireWellFormedText(JsonNode node, String root) {
        check(node, root);
    }

    private static void check(JsonNode node, String root) {
        check(node, new Path(null, root, -1));
    }

    /** Walks the tree; the path of a node is only spelled out when the node is refused. */
    private static void check(JsonNode node, Path path) {
        if (node == null) {
            return;
        }
        if (node.isTextual()) {
            refuseIfBad(node.textValue(), path, "");
        } else if (node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue())) {
            // beyond a double's range it reads as Infinity, which Jackson writes back as the string "Infinity"
            throw ApiException.badRequest(path + " is a number beyond the range of a double");
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                check(node.get(i), new Path(path, null, i));
            }
        } else if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                refuseIfBad(field.getKey(), path, " field name");
                check(field.getValue(), new Path(path, field.getKey(), -1));
            }
        }
    }

    private static void refuseIfBad(String s, Path path, String suffix) {
        String problem = problem(s);
        if (problem != null) {
            throw ApiException.badRequest(path + suffix + problem);
        }
    }

    /** Throws 400 naming {@code where} if {@code s} holds a lone surrogate or a NUL. */
    public static void requireWellFormed(String s, String where) {
        String problem = problem(s);
        if (problem != null) {
            throw ApiException.badRequest(where + problem);
        }
    }

    /** Returns what is wrong with {@code s} (" contains a NUL character", a lone surrogate), or null. */
    private static String problem(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0) {
                return " contains a NUL character";
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return " contains a lone surrogate";
            }
            if (Character.isLowSurrogate(c)) {
                return " contains a lone surrogate";
            }
        }
        return null;
    }

    /** Where a node sits: {@code root}, {@code .field} or {@code [index]} below its parent. */
    private record Path(Path parent, String name, int index) {
        @Override
        public String toString() {
            if (parent == null) {
                return name;
            }
            return parent + (name != null ? "." + printable(name) : "[" + index + "]");
        }
    }

    /** A field name as it may appear in a message: short, and only if it is itself harmless. */
    private static String printable(String name) {
        boolean plain = name.length() <= 64 && name.chars().allMatch(c -> c > 0x20 && c < 0x7f);
        return plain ? name : "?";
    }
}
