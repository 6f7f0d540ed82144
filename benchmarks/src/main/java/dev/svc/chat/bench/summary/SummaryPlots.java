package dev.svc.chat.bench.summary;

import dev.svc.chat.bench.support.ResultRows.Row;
import dev.svc.chat.bench.support.SvgPlot;
import dev.svc.chat.bench.support.SvgPlot.Panel;
import dev.svc.chat.bench.support.SvgPlot.Scale;
import dev.svc.chat.bench.support.SvgPlot.Series;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The summary's plots, from the rows whose measures end in {@code @x}: latency percentiles by rate, fan-out
 * deliveries and p99 by room size, threads and heap per client by client count (one line per fleet kind, at
 * whatever counts the runs wrote). Ours solid, the peer dashed.
 */
final class SummaryPlots {
    static final String LATENCY = "bench-latency.svg";
    static final String FANOUT = "bench-fanout.svg";
    static final String FLEET = "bench-fleet.svg";
    private static final Pattern FLEET_ROW = Pattern.compile("fleet\\.threads\\.([^@]+)@.*");

    private SummaryPlots() {
    }

    /** Each plot's file name and SVG text. */
    static Map<String, String> all(Map<String, Row> rows) {
        Map<String, String> plots = new LinkedHashMap<>();
        List<Series> latency = new ArrayList<>();
        String[][] percentiles = {{"p50", "p50"}, {"p99", "p99"}, {"p999", "p99.9"}};
        for (String[] p : percentiles) latency.add(series(rows, "latency." + p[0], "ours " + p[1], Row::ours, false));
        for (String[] p : percentiles) latency.add(series(rows, "latency." + p[0], "Node " + p[1], Row::peer, true));
        plots.put(LATENCY, SvgPlot.svg("Latency sender → server → receiver by send rate (medians of the rounds)",
                List.of(new Panel("latency", "ms", Scale.LOG, Scale.LOG, " msg/s", latency))));

        plots.put(FANOUT, SvgPlot.svg("Fan-out to one room by room size", List.of(
                new Panel("deliveries a second", "", Scale.LOG, Scale.LOG, " members", List.of(
                        series(rows, "fanout.deliveries", "ours, unpaced", Row::ours, false),
                        series(rows, "fanout.atNodeP99", "ours at Node's p99", Row::ours, false),
                        series(rows, "fanout.deliveries", "Node", Row::peer, true))),
                new Panel("p99, unpaced", "ms", Scale.LOG, Scale.LOG, " members", List.of(
                        series(rows, "fanout.p99.unpaced", "ours", Row::ours, false),
                        series(rows, "fanout.p99.unpaced", "Node", Row::peer, true))))));

        TreeSet<String> kinds = new TreeSet<>();
        for (String measure : rows.keySet()) {
            Matcher m = FLEET_ROW.matcher(measure);
            if (m.matches()) kinds.add(m.group(1));
        }
        List<Series> threads = new ArrayList<>();
        List<Series> heap = new ArrayList<>();
        for (String kind : kinds) {
            threads.add(series(rows, "fleet.threads." + kind, kind, Row::ours, kind.equals("raw")));
            heap.add(series(rows, "fleet.heap." + kind, kind, Row::ours, kind.equals("raw")));
        }
        plots.put(FLEET, SvgPlot.svg("Bot fleets: per client, by clients in one JVM", List.of(
                new Panel("threads per client", "", Scale.LOG, Scale.LINEAR, " clients", threads),
                new Panel("heap per client", "KiB", Scale.LOG, Scale.LINEAR, " clients", heap))));
        return plots;
    }

    /** The rows {@code prefix@x} as a series, x going up. */
    static Series series(Map<String, Row> rows, String prefix, String name, ToDoubleFunction<Row> value,
            boolean dashed) {
        TreeMap<Double, Double> points = new TreeMap<>();
        for (Row row : rows.values()) {
            String m = row.measure();
            if (m.startsWith(prefix + "@")) {
                try {
                    points.put(Double.parseDouble(m.substring(prefix.length() + 1)), value.applyAsDouble(row));
                } catch (NumberFormatException notAnX) {
                    // a measure of another shape that shares the prefix: not a point of this plot
                }
            }
        }
        double[] x = points.keySet().stream().mapToDouble(Double::doubleValue).toArray();
        double[] y = points.values().stream().mapToDouble(Double::doubleValue).toArray();
        return new Series(name, x, y, dashed);
    }
}
