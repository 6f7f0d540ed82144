package dev.svc.chat.reference.contract;

import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The contract's input rules and the limits this server chose where the contract is silent. Every limit
 * lives here so that docs/protocol.md can list them from one place.
 */
public final class Inputs {

    /** The largest request body, in bytes (contract: 64 KiB). */
    public static final int MAX_BODY_BYTES = 64 * 1024;
    /** The longest userId, in characters (contract). */
    public static final int MAX_USER_ID = 128;
    /** The longest username, in code points (chosen). */
    public static final int MAX_USERNAME = 200;
    /** The longest room name, in code points (chosen). */
    public static final int MAX_ROOM_NAME = 200;
    /** The most members of one room (chosen). */
    public static final int MAX_ROOM_MEMBERS = 10_000;
    /** The most parts of one message (contract). */
    public static final int MAX_PARTS = 10;
    /** The longest text part, in code points (contract). */
    public static final int MAX_TEXT = 4000;
    /** The longest part type, in code points (chosen). */
    public static final int MAX_PART_TYPE = 64;
    /** The longest clientMessageId, in code points (contract). */
    public static final int MAX_CLIENT_MESSAGE_ID = 64;
    /** The longest webhook URL, in code points (chosen). */
    public static final int MAX_WEBHOOK_URL = 2048;
    /** Token lifetime bounds and default, in seconds (contract). */
    public static final int MIN_EXPIRES_IN = 1;
    /** The longest token lifetime, in seconds (contract). */
    public static final int MAX_EXPIRES_IN = 86_400;
    /** The token lifetime when none is asked, in seconds (contract). */
    public static final int DEFAULT_EXPIRES_IN = 3_600;
    /** Page size bounds and default (contract). */
    public static final int MAX_PAGE = 100;
    /** The page size when none is asked (contract). */
    public static final int DEFAULT_PAGE = 50;
    /** The page size of changes when none is asked (contract). */
    public static final int DEFAULT_CHANGES_PAGE = 100;

    /** The longest reaction emoji, in code points (chosen: room for ZWJ sequences and skin tones). */
    public static final int MAX_EMOJI = 32;
    /** The most distinct emoji on one message (chosen). */
    public static final int MAX_REACTIONS_PER_MESSAGE = 50;

    private static final Pattern USER_ID = Pattern.compile("[A-Za-z0-9_\\-.@:]{1,128}");
    /** At most 18 digits: every such number fits a long. */
    private static final Pattern NON_NEGATIVE = Pattern.compile("[0-9]{1,18}");

    private Inputs() {
    }

    /** Returns whether {@code value} is a valid userId (1 to 128 of {@code A-Za-z0-9_-.@:}). */
    public static boolean isUserId(String value) {
        return value != null && USER_ID.matcher(value).matches();
    }

    /** Returns {@code value} if it is a valid userId, else throws 400 naming {@code field}. */
    public static String userId(String value, String field) {
        if (!isUserId(value)) {
            throw ApiException.badRequest(field + " must be 1 to 128 characters of A-Z a-z 0-9 _ - . @ :");
        }
        return value;
    }

    /**
     * Returns the non-negative integer of a query parameter ({@code limit}, {@code before}, {@code after},
     * {@code since}): null when {@code raw} is absent or empty, else throws 400 naming {@code name} unless it is
     * 1 to 18 ASCII digits.
     */
    public static Long queryNumber(String raw, String name) {
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        if (!NON_NEGATIVE.matcher(raw).matches()) {
            throw ApiException.badRequest(name + " must be a non-negative integer");
        }
        return Long.parseLong(raw);
    }

    /** Returns the number of Unicode code points of {@code s}. */
    public static int codePoints(String s) {
        return s.codePointCount(0, s.length());
    }

    /** Returns {@code value} if it has 1 to {@code max} code points, else throws 400 naming {@code field}. */
    public static String text(String value, String field, int max) {
        int n = codePoints(value);
        if (n < 1 || n > max) {
            throw ApiException.badRequest(field + " must be 1 to " + max + " characters");
        }
        return value;
    }

    /**
     * Returns {@code value} if it holds no control character (Unicode category Cc: U+0000 to U+001F and
     * U+007F to U+009F), else throws 400 naming {@code field}. For identifiers chosen by clients, such as a
     * {@code clientMessageId}: text fields may hold line breaks, identifiers may not.
     */
    public static String id(String value, String field) {
        for (int i = 0; i < value.length(); i++) {
            if (Character.getType(value.charAt(i)) == Character.CONTROL) {
                throw ApiException.badRequest(field + " must not contain control characters");
            }
        }
        return value;
    }

    /**
     * Returns whether {@code id} is in the canonical form of the ids this server makes. Anything else names
     * no room, so callers answer 404 for it rather than 400.
     */
    public static boolean isServerId(String id) {
        if (id == null || id.length() != 36) {
            return false;
        }
        try {
            return UUID.fromString(id).toString().equals(id);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
