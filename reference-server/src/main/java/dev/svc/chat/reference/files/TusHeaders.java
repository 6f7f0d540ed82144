package dev.svc.chat.reference.files;

import dev.svc.chat.reference.contract.ApiException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The parsing of tus 1.0.0's request headers and of the metadata they carry. Every malformed value is a 400
 * {@code bad_request} (412 for {@code Tus-Resumable}), never another exception: the headers are the client's.
 */
public final class TusHeaders {

    /** The protocol version this server speaks. */
    public static final String VERSION = "1.0.0";
    /** The content type of a PATCH body. */
    public static final String PATCH_TYPE = "application/offset+octet-stream";
    /** The longest file name, in code points. */
    public static final int MAX_NAME = 255;
    /** The longest content type, in characters. */
    public static final int MAX_CONTENT_TYPE = 255;
    /** The stored type of a file whose type is not known. */
    public static final String OCTET_STREAM = "application/octet-stream";

    // type/subtype, then parameters of RFC 9110 tokens or quoted strings without control characters.
    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
    private static final Pattern MEDIA_TYPE = Pattern.compile(TOKEN + "/" + TOKEN
            + "(?:[ \\t]*;[ \\t]*" + TOKEN + "=(?:" + TOKEN + "|\"[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*\"))*");

    private TusHeaders() {
    }

    /** Checks {@code Tus-Resumable}: exactly {@value #VERSION}, else 412 {@code precondition_failed}. */
    public static void requireResumable(String value) {
        if (value == null) {
            throw ApiException.preconditionFailed("Tus-Resumable: " + VERSION + " is required");
        }
        if (!VERSION.equals(value.trim())) {
            throw ApiException.preconditionFailed("Tus-Resumable " + value.trim() + " is not supported; this server"
                    + " speaks " + VERSION);
        }
    }

    /** Returns a non-negative decimal header ({@code Upload-Length}, {@code Upload-Offset}), else throws 400. */
    public static long nonNegative(String value, String header) {
        if (value == null) {
            throw ApiException.badRequest(header + " is required");
        }
        String v = value.trim();
        if (v.isEmpty() || v.length() > 18) { // 18 digits: below Long.MAX_VALUE, so no overflow to check
            throw ApiException.badRequest(header + " must be a non-negative integer of at most 18 digits");
        }
        long n = 0;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                throw ApiException.badRequest(header + " must be a non-negative integer");
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    /**
     * Returns the pairs of {@code Upload-Metadata}: comma-separated {@code key} or {@code key base64value}, keys
     * unique and without spaces or commas, values base64 of UTF-8. Absent or blank: no pairs.
     */
    public static Map<String, String> metadata(String value) {
        Map<String, String> pairs = new LinkedHashMap<>();
        if (value == null || value.isBlank()) {
            return pairs;
        }
        for (String item : value.split(",", -1)) {
            String pair = item.trim();
            if (pair.isEmpty()) {
                throw ApiException.badRequest("Upload-Metadata has an empty pair");
            }
            int space = pair.indexOf(' ');
            String key = space < 0 ? pair : pair.substring(0, space);
            String encoded = space < 0 ? "" : pair.substring(space + 1).trim();
            if (!key.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                throw ApiException.badRequest("Upload-Metadata keys are printable ASCII without spaces");
            }
            if (encoded.indexOf(' ') >= 0) {
                throw ApiException.badRequest("Upload-Metadata pair " + key + " has more than one value");
            }
            if (pairs.put(key, utf8(base64(encoded, "Upload-Metadata " + key), key)) != null) {
                throw ApiException.badRequest("Upload-Metadata key " + key + " is given twice");
            }
        }
        return pairs;
    }

    /**
     * Returns the file name of the metadata: 1 to {@value #MAX_NAME} code points, without {@code /}, {@code \}
     * or control characters (400 otherwise); absent is 400 too, as every file is shown with a name.
     */
    public static String filename(Map<String, String> metadata) {
        String name = metadata.get("filename");
        if (name == null) {
            throw ApiException.badRequest("Upload-Metadata needs a filename");
        }
        int points = name.codePointCount(0, name.length());
        if (points < 1 || points > MAX_NAME) {
            throw ApiException.badRequest("filename must be 1 to " + MAX_NAME + " characters");
        }
        boolean bad = name.codePoints().anyMatch(c -> c == '/' || c == '\\' || Character.getType(c) == Character.CONTROL
                || Character.getType(c) == Character.SURROGATE);
        if (bad) {
            throw ApiException.badRequest("filename must not hold /, \\ or control characters");
        }
        return name;
    }

    /**
     * Returns the content type of the metadata, {@value #OCTET_STREAM} when absent; a value that is not a
     * media type ({@code type/subtype} and parameters) is 400, as it is sent back in a header.
     */
    public static String contentType(Map<String, String> metadata) {
        String type = metadata.get("contentType");
        if (type == null || type.isEmpty()) {
            return OCTET_STREAM;
        }
        if (type.length() > MAX_CONTENT_TYPE || !MEDIA_TYPE.matcher(type).matches()) {
            throw ApiException.badRequest("contentType must be a media type such as image/png");
        }
        return type.toLowerCase(Locale.ROOT);
    }

    /**
     * Returns the 32-byte digest of {@code Upload-Checksum: sha256 <base64>}, or null when the header is absent;
     * another algorithm or a malformed value is 400.
     */
    public static byte[] checksum(String value) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        int space = v.indexOf(' ');
        String algorithm = space < 0 ? v : v.substring(0, space);
        if (!"sha256".equalsIgnoreCase(algorithm)) {
            throw ApiException.badRequest("Upload-Checksum algorithm must be sha256");
        }
        byte[] digest = base64(space < 0 ? "" : v.substring(space + 1).trim(), "Upload-Checksum");
        if (digest.length != 32) {
            throw ApiException.badRequest("Upload-Checksum must be the base64 of a 32-byte SHA-256");
        }
        return digest;
    }

    /** Returns whether a PATCH's {@code Content-Type} is tus's, parameters and case aside. */
    public static boolean patchType(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
        return PATCH_TYPE.equalsIgnoreCase(type.trim());
    }

    private static byte[] base64(String encoded, String what) {
        try {
            return Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(what + " is not valid base64");
        }
    }

    private static String utf8(byte[] bytes, String key) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw ApiException.badRequest("Upload-Metadata " + key + " is not UTF-8");
        }
    }
}
