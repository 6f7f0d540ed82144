package dev.svc.chat.reference.gateway;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A text frame encoded to UTF-8 once: a fan-out hands the same instance to every target, and each write
 * takes its own view of the shared bytes (Jetty consumes a buffer's position as it writes it).
 */
final class OutFrame {
    private final byte[] utf8;

    private OutFrame(byte[] utf8) {
        this.utf8 = utf8;
    }

    /** Encodes {@code text} (one Engine.IO packet). */
    static OutFrame of(String text) {
        return new OutFrame(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Encodes {@code head + json + tail} ({@code head} and {@code tail} ASCII, {@code json} one payload's text)
     * into one array: when {@code json} is ASCII, as a message's JSON usually is, its characters go straight into
     * the frame's bytes, with no joined String in between (which was a second copy of the payload for the
     * collector); otherwise as {@link #of(String)} of the joined text.
     */
    static OutFrame of(String head, String json, String tail) {
        int h = head.length();
        int n = json.length();
        byte[] utf8 = new byte[h + n + tail.length()];
        for (int i = 0; i < n; i++) {
            char c = json.charAt(i);
            if (c >= 0x80) {
                return of(head + json + tail);
            }
            utf8[h + i] = (byte) c;
        }
        ascii(head, utf8, 0);
        ascii(tail, utf8, h + n);
        return new OutFrame(utf8);
    }

    private static void ascii(String text, byte[] into, int at) {
        for (int i = 0; i < text.length(); i++) {
            into[at + i] = (byte) text.charAt(i);
        }
    }

    /** Returns the size in bytes, counted against a connection's outbound byte bound. */
    int size() {
        return utf8.length;
    }

    /** Returns a fresh read view of the payload. */
    ByteBuffer payload() {
        return ByteBuffer.wrap(utf8);
    }

    /** Returns the text (for logs and tests). */
    @Override
    public String toString() {
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
