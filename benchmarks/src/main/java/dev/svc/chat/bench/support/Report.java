package dev.svc.chat.bench.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One benchmark's section of docs/benchmarks.md. Each benchmark is a {@code main} class that builds a
 * Report and calls {@link #write(String[])}: the section goes to the file named by {@code --out FILE}
 * (benchmarks/run passes benchmarks/target/results/NAME.md) and to standard output. The figures the summary
 * needs go with it, as {@link #result rows} of NAME.tsv beside NAME.md (see {@link ResultRows}); with
 * {@code --rows-only} only the rows are written (a run that feeds a plot and adds no section).
 */
public final class Report {
    private final StringBuilder text = new StringBuilder();
    private final ResultRows rows = new ResultRows();

    public Report(String title) {
        text.append("## ").append(title).append("\n\n");
    }

    /** A paragraph of prose: what was measured, the peers, why we are behind where we are. */
    public Report paragraph(String prose) {
        text.append(prose.trim()).append("\n\n");
        return this;
    }

    /** A markdown table; call {@link Table#end()} to come back to the report. */
    public Table table(String... headers) {
        return new Table(this, headers);
    }

    /**
     * Adds a row for the summary: {@code measure} (a key that the summary's targets and plots name, such as
     * {@code latency.p99@5000}), ours, the peer's figure in the same run (NaN when none) and the unit.
     */
    public Report result(String measure, double ours, double peer, String unit) {
        rows.add(measure, ours, peer, unit);
        return this;
    }

    /**
     * Adds a row for the summary that is the median of rounds: {@code rounds} holds every round's figures (the
     * summary holds a target met only if every round meets it), {@code invalid} why the row is refused ("" when
     * it is not).
     */
    public Report result(ResultRows.Row row) {
        rows.add(row);
        return this;
    }

    public String markdown() {
        return text.toString();
    }

    /**
     * Writes the section to {@code --out FILE} and the rows to FILE's name with {@code .tsv} for {@code .md}
     * when given (only the rows with {@code --rows-only}), and always the section to standard output.
     */
    public void write(String[] args) throws IOException {
        String out = option(args, "--out", null);
        if (out != null) {
            Path path = Paths.get(out);
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            if (!Arrays.asList(args).contains("--rows-only")) {
                Files.write(path, markdown().getBytes(StandardCharsets.UTF_8));
            }
            rows.write(Paths.get(out.replaceFirst("\\.md$", "") + ".tsv"));
        }
        System.out.print(markdown());
        System.out.flush();
    }

    /** The value after {@code name} in {@code args}, or {@code fallback}. */
    public static String option(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }

    /** The median of {@code values} (not modified). */
    public static double median(double[] values) {
        return percentile(values, 50);
    }

    /** The nearest-rank percentile {@code p} (0..100) of {@code values} (not modified). */
    public static double percentile(double[] values, double p) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** A number for a table: thousands separated, {@code decimals} after the point. */
    public static String num(double value, int decimals) {
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    /** A ratio for a table, such as {@code 0.62×}; {@code -} when either figure is missing or the peer's is 0. */
    public static String ratio(double ours, double peer) {
        double ratio = ours / peer;
        return Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.2f×", ratio) : "-";
    }

    public static final class Table {
        private final Report report;
        private final int columns;
        private final List<String> rows = new ArrayList<>();

        Table(Report report, String... headers) {
            this.report = report;
            this.columns = headers.length;
            rows.add("| " + String.join(" | ", headers) + " |");
            String[] rule = new String[headers.length];
            Arrays.fill(rule, "---");
            rows.add("| " + String.join(" | ", rule) + " |");
        }

        public Table row(Object... cells) {
            if (cells.length != columns) {
                throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length);
            }
            String[] text = new String[cells.length];
            for (int i = 0; i < cells.length; i++) {
                text[i] = String.valueOf(cells[i]).replace("|", "\\|");
            }
            rows.add("| " + String.join(" | ", text) + " |");
            return this;
        }

        public Report end() {
            for (String row : rows) {
                report.text.append(row).append('\n');
            }
            report.text.append('\n');
            return report;
        }
    }
}
