package dev.svc.chat.reference.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of the image sniffing ({@link ImageSniffer}): any bytes declared as any of the four image types
 * come out as that image with dimensions inside the pixel bound, or as {@code application/octet-stream} without
 * dimensions, never an exception; an image's bytes start with its type's signature.
 */
class ImageSnifferFuzzTest {

    private static final List<String> TYPES = List.of("image/png", "image/jpeg", "image/gif", "image/webp");

    @FuzzTest
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void sniff(byte[] bytes) throws IOException {
        String declared = TYPES.get(bytes.length == 0 ? 0 : (bytes[bytes.length - 1] & 0xff) % TYPES.size());
        FileType type = ImageSniffer.sniff(declared, () -> new ByteArrayInputStream(bytes));
        if (type.width() == null) {
            assertEquals("application/octet-stream", type.contentType());
            assertNull(type.height());
            return;
        }
        assertEquals(declared, type.contentType());
        assertTrue(type.width() >= 1 && type.height() >= 1);
        assertTrue((long) type.width() * type.height() <= ImageSniffer.MAX_PIXELS);
        assertEquals(declared, ImageSniffer.signature(bytes, Math.min(bytes.length, ImageSniffer.HEAD)));
    }
}
