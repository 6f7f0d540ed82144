package dev.svc.chat.reference.files;

import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Set;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * Finds what a file's bytes are, whatever the client declared: one of the four image types served inline
 * (PNG, JPEG, GIF, WebP) by their signature, and the image's dimensions from its header (ImageIO's readers for
 * PNG, JPEG and GIF; the RIFF header for WebP, which the JDK cannot read). Bytes that carry a signature but
 * no readable header are no image.
 */
public final class ImageSniffer {

    /** The types served inline and thumbnailed. */
    public static final Set<String> IMAGE_TYPES = Set.of("image/png", "image/jpeg", "image/gif", "image/webp");
    /** How many leading bytes {@link #signature} looks at. */
    public static final int HEAD = 32;
    /** The largest image (in pixels) the server treats as one: past it, a header is more likely a decompression bomb. */
    public static final long MAX_PIXELS = 100_000_000L;

    private ImageSniffer() {
    }

    /** Returns the image type whose signature starts {@code head} (its first bytes, up to {@value #HEAD}), or null. */
    public static String signature(byte[] head, int length) {
        if (length >= 8 && u(head, 0) == 0x89 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G'
                && head[4] == '\r' && head[5] == '\n' && head[6] == 0x1a && head[7] == '\n') {
            return "image/png";
        }
        if (length >= 3 && u(head, 0) == 0xff && u(head, 1) == 0xd8 && u(head, 2) == 0xff) {
            return "image/jpeg";
        }
        if (length >= 6 && head[0] == 'G' && head[1] == 'I' && head[2] == 'F' && head[3] == '8'
                && (head[4] == '7' || head[4] == '9') && head[5] == 'a') {
            return "image/gif";
        }
        if (length >= 16 && head[0] == 'R' && head[1] == 'I' && head[2] == 'F' && head[3] == 'F'
                && head[8] == 'W' && head[9] == 'E' && head[10] == 'B' && head[11] == 'P') {
            return "image/webp";
        }
        return null;
    }

    /**
     * Returns the stored type of a file declared as {@code declared} with these bytes: an image with its
     * dimensions when the bytes are the declared image type and its header reads; the declared type without
     * dimensions when it is no image type; {@code application/octet-stream} when the bytes contradict a declared
     * image type (contract section 9). {@code bytes} opens the stored bytes from their start.
     */
    public static FileType sniff(String declared, ByteSource bytes) throws IOException {
        String mediaType = baseType(declared);
        if (!IMAGE_TYPES.contains(mediaType)) {
            return new FileType(declared, null, null);
        }
        byte[] head = new byte[HEAD];
        int n;
        try (InputStream in = bytes.open()) {
            n = in.readNBytes(head, 0, HEAD);
        }
        if (!mediaType.equals(signature(head, n))) {
            return new FileType(TusHeaders.OCTET_STREAM, null, null);
        }
        int[] size = "image/webp".equals(mediaType) ? webpSize(head, n) : imageIoSize(mediaType, bytes);
        if (size == null || size[0] < 1 || size[1] < 1 || (long) size[0] * size[1] > MAX_PIXELS) {
            return new FileType(TusHeaders.OCTET_STREAM, null, null);
        }
        return new FileType(mediaType, size[0], size[1]);
    }

    /** Opens a file's stored bytes from their start. */
    @FunctionalInterface
    public interface ByteSource {
        /** Returns a new stream over the bytes; the caller closes it. */
        InputStream open() throws IOException;
    }

    /** Returns a content type without its parameters, lowercase. */
    static String baseType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim()
                .toLowerCase(java.util.Locale.ROOT);
    }

    /** Returns width and height from the header ImageIO's reader of the type reads, or null when it cannot. */
    private static int[] imageIoSize(String mediaType, ByteSource bytes) throws IOException {
        Iterator<ImageReader> readers = ImageIO.getImageReadersByMIMEType(mediaType);
        if (!readers.hasNext()) {
            return null;
        }
        ImageReader reader = readers.next();
        try (InputStream in = bytes.open(); ImageInputStream image = ImageIO.createImageInputStream(in)) {
            if (image == null) {
                return null;
            }
            reader.setInput(image, true, true);
            return new int[] {reader.getWidth(0), reader.getHeight(0)};
        } catch (IOException | RuntimeException e) {
            return null; // a broken header: no image (readers throw IllegalArgumentException and the like too)
        } finally {
            reader.dispose();
        }
    }

    /** Returns a WebP's width and height from its first chunk (VP8, VP8L or VP8X), or null. */
    static int[] webpSize(byte[] h, int n) {
        if (n < 30) {
            return null;
        }
        String chunk = new String(h, 12, 4, java.nio.charset.StandardCharsets.US_ASCII);
        switch (chunk) {
            case "VP8 " -> {
                // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
                if (u(h, 23) != 0x9d || u(h, 24) != 0x01 || u(h, 25) != 0x2a) {
                    return null;
                }
                return new int[] {(u(h, 26) | u(h, 27) << 8) & 0x3fff, (u(h, 28) | u(h, 29) << 8) & 0x3fff};
            }
            case "VP8L" -> {
                if (u(h, 20) != 0x2f) {
                    return null;
                }
                int bits = u(h, 21) | u(h, 22) << 8 | u(h, 23) << 16 | u(h, 24) << 24;
                return new int[] {(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1};
            }
            case "VP8X" -> {
                return new int[] {(u(h, 24) | u(h, 25) << 8 | u(h, 26) << 16) + 1,
                        (u(h, 27) | u(h, 28) << 8 | u(h, 29) << 16) + 1};
            }
            default -> {
                return null;
            }
        }
    }

    private static int u(byte[] b, int i) {
        return b[i] & 0xff;
    }
}
