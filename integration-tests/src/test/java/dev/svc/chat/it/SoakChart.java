package dev.svc.chat.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The soak's samples: a table (Markdown), a plot (SVG, drawn here: three panels, heap after GC, threads and file
 * descriptors, one line per process), and the growth verdict. After the warm-up, the median of the last third of
 * the samples may exceed the median of the first third by a tolerance only: 25 % and 16 MB of heap, 10 % and 8
 * threads, 10 % and 16 descriptors (both parts: small absolute wobbles and proportional noise are not growth).
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
  private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};

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
    int width = 900;
    int panelHeight = 220;
    int left = 70;
    int right = 20;
    int top = 40;
    int gap = 50;
    int height = top + METRICS.size() * (panelHeight + gap) + 10;
    double maxMinute = rows.isEmpty() ? 1 : Math.max(rows.get(rows.size() - 1).minute(), 0.1);
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", width, height, width, height));
    s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\">%s</text>%n", left, escape(title)));
    for (int i = 0; i < METRICS.size(); i++) {
      Metric m = METRICS.get(i);
      int y0 = top + i * (panelHeight + gap);
      double max = 1;
      for (Row r : rows) {
        for (ProcessProbe.Sample x : r.samples()) max = Math.max(max, m.value().applyAsDouble(x));
      }
      max = niceCeiling(max * 1.1);
      int plotWidth = width - left - right;
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s%s</text>%n", left, y0 + 14,
          escape(m.title()), m.unit().isEmpty() ? "" : " (" + m.unit() + ")"));
      int py = y0 + 20;
      int ph = panelHeight - 40;
      s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
          + "stroke=\"#999\"/>%n", left, py, plotWidth, ph));
      for (int t = 0; t <= 4; t++) {
        double v = max * t / 4;
        double y = py + ph - ph * t / 4.0;
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>%n",
            left, y, left + plotWidth, y));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left - 6,
            y + 4, trim(v)));
      }
      for (int t = 0; t <= 6; t++) {
        double minute = maxMinute * t / 6;
        double x = left + plotWidth * t / 6.0;
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s min</text>%n", x,
            py + ph + 16, trim(minute)));
      }
      for (int p = 0; p < processes.size(); p++) {
        StringBuilder points = new StringBuilder();
        for (Row r : rows) {
          double x = left + plotWidth * r.minute() / maxMinute;
          double y = py + ph - ph * m.value().applyAsDouble(r.samples().get(p)) / max;
          points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        String colour = COLOURS[p % COLOURS.length];
        s.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>%n",
            colour, points.toString().trim()));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>%n",
            left + plotWidth - 160 + 80 * p - 80 * (processes.size() - 2), y0 + 14, colour, escape(processes.get(p))));
      }
    }
    return s.append("</svg>\n").toString();
  }

  private static double niceCeiling(double v) {
    double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= v) return step * magnitude;
    }
    return 10 * magnitude;
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
