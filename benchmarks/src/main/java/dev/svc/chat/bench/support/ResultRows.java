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
 * then one row per measure, {@code measure  ours  peer  unit}, a missing figure as {@code -}, and for a row that
 * is the median of rounds two more fields: the rounds' figures ({@code ours/peer} pairs, space-separated, in the
 * order they ran) and why the row is invalid (empty when it is not: say, a load-side process above its bound). A measure is a key
 * such as {@code latency.p99@5000} (what, then {@code @} and the x of a plot: a rate, a room size, a client
 * count); a measure added twice keeps the last figures.
 */
public final class ResultRows {
    /**
     * One measure: ours, the peer's in the same run (NaN when none), the unit; for the median of rounds, every
     * round's pair (ours and the peer's of that round) and why the row is invalid ("" when it is valid).
     */
    public record Row(String measure, double ours, double peer, String unit, List<Round> rounds, String invalid) {
        public Row {
            rounds = List.copyOf(rounds);
            if (invalid.matches("(?s).*[\t\r\n].*")) {
                throw new IllegalArgumentException("a reason is one field: " + invalid);
            }
        }

        /** A row of one run: no rounds, valid. */
        public Row(String measure, double ours, double peer, String unit) {
            this(measure, ours, peer, unit, List.of(), "");
        }
    }

    /** One round of a row: ours and the peer's figure measured in that round. */
    public record Round(double ours, double peer) {
    }

    /** The rows of one file and the time its comment line gives (empty when it has none). */
    public record Sheet(String name, String written, List<Row> rows) {
    }

    private final Map<String, Row> rows = new LinkedHashMap<>();

    /** Adds a row; a measure or unit must hold no tab or line break. */
    public void add(String measure, double ours, double peer, String unit) {
        add(new Row(measure, ours, peer, unit));
    }

    /** Adds a row (a measure or unit holds no tab or line break). */
    public void add(Row row) {
        if (row.measure().isEmpty() || (row.measure() + row.unit()).matches("(?s).*[\t\r\n].*")) {
            throw new IllegalArgumentException("a measure and a unit are one field each: " + row.measure() + " "
                    + row.unit());
        }
        rows.put(row.measure(), row);
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
            String line = r.measure() + "\t" + figure(r.ours()) + "\t" + figure(r.peer()) + "\t" + r.unit();
            if (!r.rounds().isEmpty() || !r.invalid().isEmpty()) {
                List<String> pairs = new ArrayList<>();
                for (Round round : r.rounds()) {
                    pairs.add(figure(round.ours()) + "/" + figure(round.peer()));
                }
                line += "\t" + String.join(" ", pairs) + "\t" + r.invalid();
            }
            lines.add(line);
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
                if (f.length != 4 && f.length != 6) {
                    throw new IOException(file + ": not a row of four or six fields: " + line);
                }
                List<Round> rounds = new ArrayList<>();
                if (f.length == 6 && !f[4].isBlank()) {
                    for (String pair : f[4].trim().split(" ")) {
                        String[] two = pair.split("/");
                        if (two.length != 2) {
                            throw new IOException(file + ": not a round ours/peer: " + pair);
                        }
                        rounds.add(new Round(parse(two[0]), parse(two[1])));
                    }
                }
                read.add(new Row(f[0], parse(f[1]), parse(f[2]), f[3], rounds, f.length == 6 ? f[5] : ""));
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
