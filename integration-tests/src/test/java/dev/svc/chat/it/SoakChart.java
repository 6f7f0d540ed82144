package dev.svc.chat.it;

import dev.svc.chat.bench.support.SvgPlot;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The soak's samples: a table (Markdown), a plot (SVG, drawn by the benchmarks' {@link SvgPlot}: three panels,
 * heap after GC, threads and file descriptors, one line per process), and the growth verdict. After the warm-up,
 * the median of the last third of the samples may exceed the median of the first third by a tolerance only: 25 %
 * and 16 MB of heap, 10 % and 8 threads, 10 % and 16 descriptors (both parts: small absolute wobbles and
 * proportional noise are not growth).
 */
final class SoakChart {
  /** One row: the minute since the start, and a sample per process, in the order of {@code processes}. */
  record Row(double minute, List<ProcessProbe.Sample> samples) {
  }

  private record Metric(String title, String unit, ToDoubleFunction<ProcessProbe.Sample> value, double relative,
      double absolute) {
  }

  private static final List<Metric> METRICS = List.of(
      new Metric("heap after GC", "MB", s -> s.heapAfterGc() / (1024.0 * 1024.0), 0.25, 16),
      new Metric("threads", "", ProcessProbe.Sample::threads, 0.10, 8),
      new Metric("file descriptors", "", s -> s.descriptors(), 0.10, 16));

  private final List<String> processes;
  private final List<Row> rows = new ArrayList<>();

  SoakChart(List<String> processes) {
    this.processes = List.copyOf(processes);
  }

  synchronized void add(Row row) {
    rows.add(row);
  }

  synchronized List<Row> rows() {
    return List.copyOf(rows);
  }

  /** The header of the table and its separator line. */
  String header() {
    StringBuilder h = new StringBuilder("| minute |");
    StringBuilder line = new StringBuilder("|---:|");
    for (String p : processes) {
      h.append(' ').append(p).append(" heap MB | ").append(p).append(" threads | ").append(p).append(" fds |");
      line.append("---:|---:|---:|");
    }
    return h + "\n" + line;
  }

  /** One row of the table. */
  String format(Row row) {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "| %.1f |", row.minute()));
    for (ProcessProbe.Sample s : row.samples()) {
      b.append(String.format(Locale.ROOT, " %.1f | %d | %d |", s.heapAfterGc() / (1024.0 * 1024.0), s.threads(),
          s.descriptors()));
    }
    return b.toString();
  }

  /** The whole table. */
  synchronized String table() {
    StringBuilder b = new StringBuilder(header()).append('\n');
    for (Row r : rows) b.append(format(r)).append('\n');
    return b.toString();
  }

  /**
   * The lines that grew after the first {@code warmUpRows} rows, described ("server threads 40 -> 61"); empty
   * when every line is flat. Needs at least three rows after the warm-up.
   */
  synchronized List<String> growth(int warmUpRows) {
    List<String> grew = new ArrayList<>();
    List<Row> steady = rows.subList(Math.min(warmUpRows, rows.size()), rows.size());
    if (steady.size() < 3) {
      grew.add("only " + steady.size() + " samples after the warm-up: too few to judge growth");
      return grew;
    }
    int third = Math.max(1, steady.size() / 3);
    for (int p = 0; p < processes.size(); p++) {
      for (Metric m : METRICS) {
        double first = median(steady.subList(0, third), p, m);
        double last = median(steady.subList(steady.size() - third, steady.size()), p, m);
        if (last > first * (1 + m.relative()) && last > first + m.absolute()) {
          grew.add(String.format(Locale.ROOT, "%s %s grew from %.1f to %.1f%s (median of the first and last third "
              + "after the warm-up)", processes.get(p), m.title(), first, last, m.unit().isEmpty() ? "" : " " + m.unit()));
        }
      }
    }
    return grew;
  }

  private static double median(List<Row> rows, int process, Metric m) {
    double[] v = rows.stream().mapToDouble(r -> m.value().applyAsDouble(r.samples().get(process))).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** The plot: one panel per metric, minutes across, one line per process, with a legend. */
  synchronized String svg(String title) {
    double[] minutes = rows.stream().mapToDouble(Row::minute).toArray();
    List<SvgPlot.Panel> panels = new ArrayList<>();
    for (Metric m : METRICS) {
      List<SvgPlot.Series> series = new ArrayList<>();
      for (int p = 0; p < processes.size(); p++) {
        int process = p;
        double[] values = rows.stream().mapToDouble(r -> m.value().applyAsDouble(r.samples().get(process))).toArray();
        series.add(new SvgPlot.Series(processes.get(p), minutes, values, false));
      }
      panels.add(new SvgPlot.Panel(m.title(), m.unit(), SvgPlot.Scale.LINEAR, SvgPlot.Scale.LINEAR, " min", series));
    }
    return SvgPlot.svg(title, panels);
  }
}
