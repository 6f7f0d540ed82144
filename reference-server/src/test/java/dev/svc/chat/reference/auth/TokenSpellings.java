package dev.svc.chat.reference.auth;

import java.util.ArrayList;
import java.util.List;

/** Other spellings of one compact JWS that lenient base64url decoders read as the same bytes (tests). */
public final class TokenSpellings {

    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    private TokenSpellings() {
    }

    /**
     * Returns spellings of {@code token} that decode to the same header, payload and signature: padding
     * appended to the signature ({@code =}, {@code ==}), the standard alphabet's {@code +} and {@code /} in
     * place of {@code -} and {@code _}, and the signature's last character swapped for a sibling that differs
     * only in bits the decoder drops.
     */
    public static List<String> nonCanonical(String token) {
        String[] parts = token.split("\\.");
        String head = parts[0] + "." + parts[1] + ".";
        String sig = parts[2];
        List<String> out = new ArrayList<>();
        out.add(head + sig + "=");
        out.add(head + sig + "==");
        out.add(head + padded(sig));
        // An HS256 signature is 32 bytes: 43 characters, the last one carrying 4 bits and 2 unused ones.
        char last = sig.charAt(sig.length() - 1);
        int value = ALPHABET.indexOf(last);
        out.add(head + sig.substring(0, sig.length() - 1) + ALPHABET.charAt(value ^ 1));
        out.add(head + sig.substring(0, sig.length() - 1) + ALPHABET.charAt(value | 3));
        // The standard alphabet: a signature with a '-' or '_' somewhere, else a re-signed one is needed;
        // the header is fixed by the test's signer, so spell the payload's or signature's first such char.
        String standard = standardAlphabet(token);
        if (standard != null) {
            out.add(standard);
        }
        // A padded header and payload, with the signature as it is.
        out.add(padded(parts[0]) + "." + parts[1] + "." + sig);
        out.add(parts[0] + "." + padded(parts[1]) + "." + sig);
        out.removeIf(token::equals);
        return out;
    }

    /** Returns {@code token} with its first {@code -} or {@code _} spelled {@code +} or {@code /}, or null. */
    public static String standardAlphabet(String token) {
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '-' || c == '_') {
                return token.substring(0, i) + (c == '-' ? '+' : '/') + token.substring(i + 1);
            }
        }
        return null;
    }

    private static String padded(String part) {
        int pad = (4 - part.length() % 4) % 4;
        return pad == 0 ? part + "====" : part + "=".repeat(pad);
    }
}
