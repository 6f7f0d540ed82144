package dev.svc.chat.bench.support;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The collector's pauses of a child JVM, from the log it writes with {@link #jvmArgument()} ({@code -Xlog:gc}
 * with {@code gc+phases} and {@code safepoint}): {@link #mark()} before a measured window,
 * {@link #pausesSince(long)} after it reads the lines written meanwhile. Beside each pause, G1's phases say how
 * long it evacuated (copied the live young objects, with the roots' scan), and the safepoint lines how long the
 * JVM took to stop its threads (on a loaded machine, a thread that waits for a core delays every stop).
 */
public final class GcLog {
    private static final Pattern PAUSE = Pattern.compile("\\[gc *\\].*Pause.* ([0-9.]+)ms$");
    private static final Pattern EVACUATE =
            Pattern.compile("\\[gc,phases *\\].*GC\\([0-9]+\\) +Evacuate Collection Set: ([0-9.]+)ms$");
    private static final Pattern REACHING = Pattern.compile("\\[safepoint *\\].*Reaching safepoint: ([0-9]+) ns");

    private final Path file;

    /** A log in a new temporary file. */
    public GcLog() throws IOException {
        this(Files.createTempFile("svc-bench-gc", ".log"));
        file.toFile().deleteOnExit();
    }

    /** A log in {@code file} (tests). */
    GcLog(Path file) {
        this.file = file;
    }

    /** Returns the JVM option that writes the log. */
    public String jvmArgument() {
        return "-Xlog:gc,gc+phases,safepoint:file=" + file;
    }

    /** Returns where the log ends now. */
    public long mark() {
        return file.toFile().length();
    }

    /**
     * Returns the pauses logged since {@code mark}: their count, their longest and total ms, the ms they spent
     * evacuating, and the longest time to reach a safepoint (any safepoint, a collection's or another).
     */
    public Pauses pausesSince(long mark) {
        int count = 0;
        double longest = 0;
        double total = 0;
        double evacuating = 0;
        double toSafepoint = 0;
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            byte[] bytes = new byte[(int) Math.max(0, in.length() - mark)];
            in.seek(mark);
            in.readFully(bytes);
            for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
                String trimmed = line.trim();
                Matcher m = PAUSE.matcher(trimmed);
                if (m.find()) {
                    double ms = Double.parseDouble(m.group(1));
                    count++;
                    longest = Math.max(longest, ms);
                    total += ms;
                    continue;
                }
                m = EVACUATE.matcher(trimmed);
                if (m.find()) {
                    evacuating += Double.parseDouble(m.group(1));
                    continue;
                }
                m = REACHING.matcher(trimmed);
                if (m.find()) {
                    toSafepoint = Math.max(toSafepoint, Long.parseLong(m.group(1)) / 1e6);
                }
            }
        } catch (IOException | RuntimeException e) {
            return new Pauses(-1, Double.NaN, Double.NaN);
        }
        return new Pauses(count, longest, total, evacuating, toSafepoint);
    }

    /**
     * Collector pauses in a window: how many, the longest and their sum (ms); of that sum, the ms spent evacuating
     * (G1's "Evacuate Collection Set"); and the longest time any safepoint took to reach (ms). The last two are
     * NaN when not known (a JVM's collector beans give neither).
     */
    public record Pauses(int count, double longestMillis, double totalMillis, double evacuatingMillis,
                         double longestToSafepointMillis) {

        /** Pauses without their phases or safepoints. */
        public Pauses(int count, double longestMillis, double totalMillis) {
            this(count, longestMillis, totalMillis, Double.NaN, Double.NaN);
        }

        @Override
        public String toString() {
            if (count <= 0) {
                return count < 0 ? "-" : "0" + safepoints();
            }
            String pauses = Double.isNaN(longestMillis)
                    ? String.format(java.util.Locale.ROOT, "%d, %.0f ms in all", count, totalMillis)
                    : String.format(java.util.Locale.ROOT, "%d, longest %.0f ms, %.0f ms in all", count,
                            longestMillis, totalMillis);
            if (!Double.isNaN(evacuatingMillis)) {
                pauses += String.format(java.util.Locale.ROOT, ", %.0f ms evacuating", evacuatingMillis);
            }
            return pauses + safepoints();
        }

        private String safepoints() {
            return Double.isNaN(longestToSafepointMillis) ? ""
                    : String.format(java.util.Locale.ROOT, "; safepoint reached within %.1f ms",
                            longestToSafepointMillis);
        }
    }
}
