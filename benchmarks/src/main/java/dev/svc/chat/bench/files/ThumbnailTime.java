package dev.svc.chat.bench.files;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;

import dev.svc.chat.ChatClient;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.FileSource;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;

/**
 * A 12-megapixel JPEG (4000×3000, made here once: gradients under seeded noise, so it compresses like a photo
 * rather than a flat image) through the server's path, in rounds, each a new file: the SDK's upload and send; the
 * reader's first {@code thumbnail(file, 320)} (the server decodes the image subsampled, scales and encodes the
 * thumbnail, then answers); and a second one of the same size, which the server answers from what it kept. The
 * first minus the second is the generation alone.
 */
final class ThumbnailTime {
    static final int WIDTH = 4000;
    static final int HEIGHT = 3000;
    static final int SIZE = 320;

    /** Each round's times in ms, and the JPEG's and thumbnail's bytes. */
    record Result(double[] uploadMs, double[] firstMs, double[] cachedMs, long jpegBytes, long thumbnailBytes) {
        double[] generationMs() {
            double[] g = new double[firstMs.length];
            for (int i = 0; i < g.length; i++) g[i] = firstMs[i] - cachedMs[i];
            return g;
        }
    }

    private ThumbnailTime() {
    }

    static Result run(FilesFixture fixture, ChatClient sender, ChatClient reader, File dir, int rounds)
            throws Exception {
        File jpeg = photo(new File(dir, "photo-12mp.jpg"));
        double[] upload = new double[rounds];
        double[] first = new double[rounds];
        double[] cached = new double[rounds];
        long thumbnailBytes = 0;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            Message sent = sender.sendMessage(fixture.room, List.of(MessagePart.file(FileSource.builder(jpeg)
                    .contentType("image/jpeg").build()))).get(2, TimeUnit.MINUTES);
            long t1 = System.nanoTime();
            FileAttachment file = sent.files().get(0);
            if (!file.isImage()) throw new IllegalStateException("the server did not take it as an image: " + file);
            byte[] thumbnail = reader.thumbnail(file, SIZE).get(2, TimeUnit.MINUTES);
            long t2 = System.nanoTime();
            reader.thumbnail(file, SIZE).get(2, TimeUnit.MINUTES);
            long t3 = System.nanoTime();
            upload[r] = (t1 - t0) / 1e6;
            first[r] = (t2 - t1) / 1e6;
            cached[r] = (t3 - t2) / 1e6;
            thumbnailBytes = thumbnail.length;
            System.out.printf("thumbnail round %d: upload %.0f ms, first GET %.0f ms, again %.1f ms%n", r + 1,
                    upload[r], first[r], cached[r]);
        }
        return new Result(upload, first, cached, jpeg.length(), thumbnailBytes);
    }

    private static File photo(File target) throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Random random = new Random(12);
        for (int y = 0; y < HEIGHT; y++) {
            for (int x = 0; x < WIDTH; x++) {
                int noise = random.nextInt(24);
                int red = Math.min(255, x * 231 / WIDTH + noise);
                int green = Math.min(255, y * 231 / HEIGHT + noise);
                int blue = Math.min(255, (x + y) * 231 / (WIDTH + HEIGHT) + noise);
                image.setRGB(x, y, red << 16 | green << 8 | blue);
            }
        }
        if (!ImageIO.write(image, "jpg", target)) throw new IOException("no JPEG writer");
        return target;
    }
}
