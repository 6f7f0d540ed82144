package dev.svc.chat.reference.files;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * Makes a thumbnail with Thumbnailator over ImageIO: the longer side at most the size asked, aspect kept, never
 * upscaled; a JPEG, or a PNG when the image has transparency. A large image is read subsampled (every k-th pixel)
 * so that what is decoded stays near the thumbnail's size, not the image's.
 */
final class Thumbnails {

    /** The smallest, largest and default {@code size}. */
    static final int MIN = 64;
    static final int MAX = 1024;
    static final int DEFAULT = 320;

    private Thumbnails() {
    }

    /** Returns a thumbnail of the image ({@code record} says its type and size), or null when it cannot be read. */
    static Thumbnail make(FileRecord record, int size, ImageSniffer.ByteSource bytes) throws IOException {
        Iterator<ImageReader> readers = ImageIO.getImageReadersByMIMEType(record.contentType());
        if (!readers.hasNext()) {
            return null; // WebP: the JDK has no reader (TwelveMonkeys would add one)
        }
        ImageReader reader = readers.next();
        BufferedImage image;
        try (InputStream in = bytes.open(); ImageInputStream input = ImageIO.createImageInputStream(in)) {
            reader.setInput(input, true, true);
            ImageReadParam param = reader.getDefaultReadParam();
            int longer = Math.max(record.width(), record.height());
            int step = Math.max(1, longer / (2 * size)); // keeps twice the pixels needed, for a smooth downscale
            param.setSourceSubsampling(step, step, 0, 0);
            image = reader.read(0, param);
        } catch (RuntimeException e) {
            return null;
        } finally {
            reader.dispose();
        }
        boolean alpha = image.getColorModel().hasAlpha();
        int longer = Math.max(image.getWidth(), image.getHeight());
        int target = Math.min(size, Math.max(record.width(), record.height())); // never upscaled
        var builder = net.coobird.thumbnailator.Thumbnails.of(image).scale(Math.min(1.0, (double) target / longer));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (alpha) {
            builder.outputFormat("png").toOutputStream(out);
        } else {
            // JPEG has no alpha channel: an image without transparency is drawn onto RGB.
            builder.imageType(BufferedImage.TYPE_INT_RGB).outputFormat("jpg").outputQuality(0.85).toOutputStream(out);
        }
        return new Thumbnail(alpha ? "image/png" : "image/jpeg", out.toByteArray());
    }
}
