package dev.svc.chat.bench.support;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The collector's pauses of a child JVM, from the log it writes with {@link #jvmArgument()} ({@code -Xlog:gc}):
 * {@link #mark()} before a measured window, {@link #pausesSince(long)} after it reads the lines written meanwhile.
 */
public final class GcLog {
    private static final Pattern PAUSE = Pattern.compile("Pause.* ([0-9.]+)ms$");

    private final Path file;

    /** A log in a new temporary file. */
    public GcLog() throws IOException {
        file = Files.createTempFile("svc-bench-gc", ".log");
        file.toFile().deleteOnExit();
    }

    /** Returns the JVM option that writes the log. */
    public String jvmArgument() {
        return "-Xlog:gc:file=" + file;
    }

    /** Returns where the log ends now. */
    public long mark() {
        return file.toFile().length();
    }

    /** Returns the pauses logged since {@code mark}: their count and their longest and total ms. */
    public Pauses pausesSince(long mark) {
        int count = 0;
        double longest = 0;
        double total = 0;
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            byte[] bytes = new byte[(int) Math.max(0, in.length() - mark)];
            in.seek(mark);
            in.readFully(bytes);
            for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
                Matcher m = PAUSE.matcher(line.trim());
                if (m.find()) {
                    double ms = Double.parseDouble(m.group(1));
                    count++;
                    longest = Math.max(longest, ms);
                    total += ms;
                }
            }
        } catch (IOException | RuntimeException e) {
            return new Pauses(-1, Double.NaN, Double.NaN);
        }
        return new Pauses(count, longest, total);
    }

    /** Collector pauses in a window: how many, the longest and their sum (ms). */
    public record Pauses(int count, double longestMillis, double totalMillis) {
        @Override
        public String toString() {
            if (count <= 0) {
                return count < 0 ? "-" : "0";
            }
            return Double.isNaN(longestMillis)
                    ? String.format(java.util.Locale.ROOT, "%d, %.0f ms in all", count, totalMillis)
                    : String.format(java.util.Locale.ROOT, "%d, longest %.0f ms, %.0f ms in all", count,
                            longestMillis, totalMillis);
        }
    }
}
