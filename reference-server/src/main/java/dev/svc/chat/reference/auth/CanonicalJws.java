package dev.svc.chat.reference.auth;

import java.util.Base64;

/**
 * The one spelling of a compact JWS accepted: three parts, each the unpadded base64url of its bytes exactly
 * as this server's encoder writes them. Parsers accept more (padding {@code =}, the standard alphabet's
 * {@code +} and {@code /}, a last character whose unused low bits are set), which gave one token several
 * spellings: anything keyed on the token string (the cache of verified tokens) saw several tokens. Each part
 * is decoded and encoded again, and must come back unchanged.
 */
final class CanonicalJws {

    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private CanonicalJws() {
    }

    /** Returns whether {@code token} is three dot-separated parts, each in canonical unpadded base64url. */
    static boolean isCanonical(String token) {
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        if (second < 0 || token.indexOf('.', second + 1) >= 0) {
            return false;
        }
        return isCanonicalPart(token.substring(0, first)) && isCanonicalPart(token.substring(first + 1, second))
                && isCanonicalPart(token.substring(second + 1));
    }

    private static boolean isCanonicalPart(String part) {
        if (part.isEmpty()) {
            return false; // no part of an HS256 token is empty ("alg: none" has an empty signature)
        }
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            boolean alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_';
            if (!alphabet) {
                return false; // padding, the standard alphabet, whitespace
            }
        }
        try {
            return ENCODER.encodeToString(DECODER.decode(part)).equals(part);
        } catch (IllegalArgumentException e) {
            return false; // a length no encoder writes (4n + 1)
        }
    }
}
