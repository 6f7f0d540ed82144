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
