package dev.svc.chat.bench.summary;

import dev.svc.chat.bench.support.Report;
import dev.svc.chat.bench.support.ResultRows;
import dev.svc.chat.bench.support.ResultRows.Row;
import dev.svc.chat.bench.support.ResultRows.Sheet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The summary that leads docs/benchmarks.md: one table of the targets ({@link Target#ALL}) against the
 * benchmarks' latest rows, and the plots ({@link SummaryPlots}). benchmarks/run runs it last, on the result files
 * kept in benchmarks/results (one per benchmark, replaced by each run of it), so that a run of some benchmarks
 * only still shows the others' figures from their last run.
 *
 * <p>Arguments: {@code --rows DIR} (default benchmarks/results), {@code --svg DIR} where the plots go (default
 * docs), {@code --out FILE} the section (as every benchmark's).
 */
public final class Summary {
    static final String TITLE = "Summary";

    private Summary() {
    }

    public static void main(String[] args) throws IOException {
        Path rowsDir = Paths.get(Report.option(args, "--rows", "benchmarks/results"));
        Path svgDir = Paths.get(Report.option(args, "--svg", "docs"));
        List<Sheet> sheets = new ArrayList<>();
        if (Files.isDirectory(rowsDir)) {
            try (Stream<Path> files = Files.list(rowsDir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".tsv")).sorted().toList()) {
                    sheets.add(ResultRows.read(file));
                }
            }
        }
        Map<String, Row> rows = merge(sheets);
        Files.createDirectories(svgDir);
        for (Map.Entry<String, String> plot : SummaryPlots.all(rows).entrySet()) {
            Files.write(svgDir.resolve(plot.getKey()), plot.getValue().getBytes(StandardCharsets.UTF_8));
        }
        report(sheets, rows).write(args);
    }

    /** Every sheet's rows by measure; a measure in two sheets keeps the later sheet's row. */
    static Map<String, Row> merge(List<Sheet> sheets) {
        Map<String, Row> rows = new LinkedHashMap<>();
        for (Sheet sheet : sheets) {
            for (Row row : sheet.rows()) rows.put(row.measure(), row);
        }
        return rows;
    }

    /** The section: the table, where its figures come from, then the plots. */
    static Report report(List<Sheet> sheets, Map<String, Row> rows) {
        Report report = new Report(TITLE);
        report.paragraph("The targets of the performance issue against each benchmark's latest run; the sections"
                + " below give each method and the full tables. Ratio: ours ÷ the peer's figure in the same run."
                + " \"not measured\": no run has written the figure (or its peer's) yet; 0 deliveries/s at Node's"
                + " p99: none of the offered loads met it. A row measured in rounds (the fan-out and latency"
                + " benchmarks) gives the medians of its rounds, and the worst round's figure (its ratio, or ours for"
                + " a bound on ours alone): a target is met only if that worst round meets it. \"invalid run\": the"
                + " benchmark refused the row (its section says why, say a load-side process above 80 % of a"
                + " core).");
        Report.Table table = report.table("measure", "ours", "best peer", "ratio", "worst round", "target", "met");
        for (Target t : Target.ALL) {
            Row row = rows.get(t.measure());
            boolean ours = row != null && !Double.isNaN(row.ours());
            boolean peer = row != null && !Double.isNaN(row.peer());
            double ratio = Target.ratio(row);
            table.row(t.label(), ours ? figure(row.ours()) + " " + t.unit() : "not measured",
                    peer ? figure(row.peer()) + " (" + t.peer() + ")" : "-",
                    Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f×", ratio), worstRound(t, row),
                    t.describe(), t.verdict(row).text);
        }
        table.end();
        List<String> from = new ArrayList<>();
        for (Sheet sheet : sheets) {
            from.add("`" + sheet.name() + "` " + (sheet.written().isEmpty() ? "(undated)" : sheet.written()));
        }
        report.paragraph("Figures from benchmarks/results: " + (from.isEmpty() ? "none yet" : String.join("; ", from))
                + " (`benchmarks/run NAME` replaces NAME's).");
        report.paragraph("![latency percentiles by rate](" + SummaryPlots.LATENCY + ")\n"
                + "![fan-out deliveries and p99 by room size](" + SummaryPlots.FANOUT + ")\n"
                + "![threads and heap per client by client count](" + SummaryPlots.FLEET + ")");
        return report;
    }

    /** The worst round's figure of a row in rounds, and how many rounds: "2.31× of 5"; "-" without rounds. */
    static String worstRound(Target t, Row row) {
        if (row == null || row.rounds().isEmpty()) {
            return "-";
        }
        double worst = t.worst(row);
        String figure = Double.isNaN(worst) ? "-" : t.kind() == Target.Kind.RATIO_AT_MOST
                || t.kind() == Target.Kind.RATIO_AT_LEAST ? String.format(Locale.ROOT, "%.2f×", worst)
                : figure(worst) + " " + t.unit();
        return figure + " of " + row.rounds().size();
    }

    /** A figure for the table: three significant digits or the whole number, thousands separated. */
    static String figure(double v) {
        double a = Math.abs(v);
        int decimals = a >= 100 || a == Math.rint(a) ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
        String s = String.format(Locale.ROOT, "%,." + decimals + "f", v);
        return decimals > 0 ? s.replaceFirst("0+$", "").replaceFirst("\\.$", "") : s;
    }
}
