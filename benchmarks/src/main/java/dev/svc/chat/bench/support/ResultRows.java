package dev.svc.chat.bench.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A benchmark's figures for the summary, as a tab-separated file: a comment line with the time it was written,
 * then one row per measure, {@code measure  ours  peer  unit}, a missing figure as {@code -}. A measure is a key
 * such as {@code latency.p99@5000} (what, then {@code @} and the x of a plot: a rate, a room size, a client
 * count); a measure added twice keeps the last figures.
 */
public final class ResultRows {
    /** One measure: ours, the peer's in the same run (NaN when none), the unit. */
    public record Row(String measure, double ours, double peer, String unit) {
    }

    /** The rows of one file and the time its comment line gives (empty when it has none). */
    public record Sheet(String name, String written, List<Row> rows) {
    }

    private final Map<String, Row> rows = new LinkedHashMap<>();

    /** Adds a row; a measure or unit must hold no tab or line break. */
    public void add(String measure, double ours, double peer, String unit) {
        if (measure.isEmpty() || (measure + unit).matches("(?s).*[\t\r\n].*")) {
            throw new IllegalArgumentException("a measure and a unit are one field each: " + measure + " " + unit);
        }
        rows.put(measure, new Row(measure, ours, peer, unit));
    }

    /** The rows, in the order their measures were first added. */
    public List<Row> rows() {
        return List.copyOf(rows.values());
    }

    /** Writes the rows to {@code file} (replacing it). */
    public void write(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("# written " + DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC)
                .format(Instant.now()));
        for (Row r : rows.values()) {
            lines.add(r.measure() + "\t" + figure(r.ours()) + "\t" + figure(r.peer()) + "\t" + r.unit());
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    /** Reads a file written by {@link #write}; its name without {@code .tsv} names the sheet. */
    public static Sheet read(Path file) throws IOException {
        String written = "";
        List<Row> read = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.startsWith("# written ")) {
                written = line.substring("# written ".length()).trim();
            } else if (!line.isBlank() && !line.startsWith("#")) {
                String[] f = line.split("\t", -1);
                if (f.length != 4) {
                    throw new IOException(file + ": not a row of four fields: " + line);
                }
                read.add(new Row(f[0], parse(f[1]), parse(f[2]), f[3]));
            }
        }
        return new Sheet(file.getFileName().toString().replaceFirst("\\.tsv$", ""), written, read);
    }

    private static String figure(double v) {
        return Double.isNaN(v) ? "-" : Double.toString(v);
    }

    private static double parse(String field) {
        return field.equals("-") ? Double.NaN : Double.parseDouble(field);
    }
}
