package dev.svc.chat.reference.auth;

import java.security.SecureRandom;

/** Makes the server's random strings: API keys, secrets, tenant and connection ids. */
public final class RandomIds {

    private static final char[] BASE62 =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final char[] BASE64URL =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private RandomIds() {
    }

    /** Returns a new test API key: {@code sk_test_} and 32 random base62 characters. */
    public static String testApiKey() {
        return "sk_test_" + base62(32);
    }

    /** Returns {@code length} random base62 characters. */
    public static String base62(int length) {
        return pick(BASE62, length);
    }

    /** Returns {@code length} random base64url characters, the alphabet of Engine.IO and Socket.IO ids. */
    public static String base64Url(int length) {
        return pick(BASE64URL, length);
    }

    /** Returns {@code length} random bytes. */
    public static byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static String pick(char[] alphabet, int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = alphabet[RANDOM.nextInt(alphabet.length)];
        }
        return new String(out);
    }
}
