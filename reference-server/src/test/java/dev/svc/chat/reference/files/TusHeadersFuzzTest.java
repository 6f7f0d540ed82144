package dev.svc.chat.reference.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.svc.chat.reference.contract.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of tus's header parsing ({@link TusHeaders}) and of the {@code Range} header ({@link ByteRange}):
 * any header value parses or is refused with the contract's 400 (412 for {@code Tus-Resumable}, 416 for a range),
 * never another exception; what parses is what the contract allows (a file name without {@code /}, {@code \} or
 * control characters, a media type without line breaks, a 32-byte checksum, a non-negative number, a range
 * inside the file).
 */
class TusHeadersFuzzTest {

    @FuzzTest
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void headers(byte[] bytes) {
        String value = new String(bytes, StandardCharsets.ISO_8859_1); // as Jetty hands header bytes over
        refusedOrValid(() -> TusHeaders.requireResumable(value), 412);
        refusedOrValid(() -> {
            long n = TusHeaders.nonNegative(value, "Upload-Length");
            assertTrue(n >= 0);
            assertEquals(n, Long.parseLong(value.trim()));
        }, 400);
        refusedOrValid(() -> {
            Map<String, String> metadata = TusHeaders.metadata(value);
            refusedOrValid(() -> {
                String name = TusHeaders.filename(metadata);
                assertFalse(name.isEmpty());
                assertTrue(name.codePoints().noneMatch(c -> c == '/' || c == '\\' || Character.isISOControl(c)), name);
            }, 400);
            refusedOrValid(() -> {
                String type = TusHeaders.contentType(metadata);
                assertTrue(type.chars().noneMatch(c -> c < 0x20 || c == 0x7f), type);
                assertTrue(type.contains("/"), type);
            }, 400);
        }, 400);
        refusedOrValid(() -> {
            byte[] digest = TusHeaders.checksum(value);
            assertEquals(32, digest.length);
        }, 400);
        TusHeaders.patchType(value);
        long size = bytes.length == 0 ? 0 : (bytes[0] & 0xff) * 1000L;
        refusedOrValid(() -> {
            ByteRange range = ByteRange.parse(value, size);
            if (range != null) {
                assertTrue(range.start() >= 0 && range.start() <= range.end() && range.end() < size, range::toString);
            }
        }, 416);
    }

    private static void refusedOrValid(Runnable parse, int status) {
        try {
            parse.run();
        } catch (ApiException e) {
            assertEquals(status, e.status(), e.getMessage());
        }
    }
}
