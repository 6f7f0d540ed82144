package dev.svc.chat.bench.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * A line plot as SVG text, drawn here without a library: panels one above the other, each with its own axes and
 * one line per series, named in a legend under the panel (a sample of the line, then the name). Drawn for the
 * benchmarks' summary (docs/bench-*.svg) and for the soak (build-tools/soak). A linear axis starts at 0; a
 * logarithmic one spans the decades around the data. On a linear x axis the ticks are evenly spaced, on a
 * logarithmic one they are the data's x values (a rate, a room size, a client count). A point whose x or y is
 * NaN, or not positive on a logarithmic axis, is left out; a series of up to 20 points also marks each point,
 * so that a series of one point shows.
 */
public final class SvgPlot {
    /** An axis scale. */
    public enum Scale { LINEAR, LOG }

    /** One line: its name in the legend, its points, and whether it is drawn dashed (a peer, say). */
    public record Series(String name, double[] x, double[] y, boolean dashed) {
        public Series {
            if (x.length != y.length) {
                throw new IllegalArgumentException(name + ": " + x.length + " x values, " + y.length + " y values");
            }
        }
    }

    /** One panel: its title, the y axis's unit, the scales, the suffix of the x ticks (" min"), its lines. */
    public record Panel(String title, String unit, Scale x, Scale y, String xSuffix, List<Series> series) {
    }

    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    private static final int WIDTH = 900;
    private static final int PANEL_HEIGHT = 220;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 40;
    private static final int GAP = 50;

    private SvgPlot() {
    }

    /** The colour of the {@code i}th series of a panel. */
    public static String colour(int i) {
        return COLOURS[i % COLOURS.length];
    }

    /** The plot: {@code title} above {@code panels}. */
    public static String svg(String title, List<Panel> panels) {
        int height = TOP + panels.size() * (PANEL_HEIGHT + GAP) + 10;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                WIDTH, height, WIDTH, height));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\">%s</text>%n", LEFT,
                escape(title)));
        for (int i = 0; i < panels.size(); i++) {
            panel(s, panels.get(i), TOP + i * (PANEL_HEIGHT + GAP));
        }
        return s.append("</svg>\n").toString();
    }

    private static void panel(StringBuilder s, Panel panel, int y0) {
        int plotWidth = WIDTH - LEFT - RIGHT;
        int py = y0 + 20;
        int ph = PANEL_HEIGHT - 40;
        Axis xAxis = Axis.of(panel.x(), values(panel, true), 1.0, panel.x() == Scale.LOG ? 0.05 : 0);
        Axis yAxis = Axis.of(panel.y(), values(panel, false), 1.1, 0);
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s%s</text>%n", LEFT,
                y0 + 14, escape(panel.title()), panel.unit().isEmpty() ? "" : " (" + escape(panel.unit()) + ")"));
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#999\"/>%n", LEFT, py, plotWidth, ph));
        for (double v : yAxis.ticks()) {
            double y = py + ph - ph * yAxis.position(v);
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>%n",
                    LEFT, y, LEFT + plotWidth, y));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 6,
                    y + 4, label(v)));
        }
        List<Double> xTicks = panel.x() == Scale.LOG ? new ArrayList<>(values(panel, true)) : xAxis.ticks();
        for (double v : xTicks) {
            double x = LEFT + plotWidth * xAxis.position(v);
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s%s</text>%n", x,
                    py + ph + 16, label(v), escape(panel.xSuffix())));
        }
        double legendX = LEFT;
        for (int i = 0; i < panel.series().size(); i++) {
            Series series = panel.series().get(i);
            String colour = colour(i);
            String dash = series.dashed() ? " stroke-dasharray=\"6,4\"" : "";
            StringBuilder points = new StringBuilder();
            List<double[]> kept = new ArrayList<>();
            for (int k = 0; k < series.x().length; k++) {
                if (xAxis.shows(series.x()[k]) && yAxis.shows(series.y()[k])) {
                    double x = LEFT + plotWidth * xAxis.position(series.x()[k]);
                    double y = py + ph - ph * yAxis.position(series.y()[k]);
                    kept.add(new double[] {x, y});
                    points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                }
            }
            s.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
                    + "points=\"%s\"/>%n", colour, dash, points.toString().trim()));
            if (series.x().length <= 20) {
                for (double[] p : kept) {
                    s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n",
                            p[0], p[1], colour));
                }
            }
            // the legend runs along under the x axis's labels: a sample of the line, then the name
            int legendY = py + ph + 34;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"2\"%s/>%n", legendX, legendY - 4, legendX + 22, legendY - 4, colour, dash));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"%s\">%s</text>%n", legendX + 26,
                    legendY, colour, escape(series.name())));
            legendX += 26 + 7 * series.name().length() + 18;
        }
    }

    private static TreeSet<Double> values(Panel panel, boolean x) {
        TreeSet<Double> all = new TreeSet<>();
        for (Series series : panel.series()) {
            for (double v : x ? series.x() : series.y()) {
                if (!Double.isNaN(v) && !Double.isInfinite(v)) all.add(v);
            }
        }
        return all;
    }

    /**
     * From a value to its position along the axis, {@code inset} to 1 - {@code inset} (an inset keeps the end
     * points' tick labels, which a logarithmic x axis puts at its ends, inside the plot).
     */
    private record Axis(Scale scale, double low, double high, double inset) {
        /** A linear axis from 0 to a round number at least {@code headroom} times the largest value. */
        static Axis of(Scale scale, TreeSet<Double> values, double headroom, double inset) {
            if (scale == Scale.LINEAR) {
                double max = values.isEmpty() || values.last() <= 0 ? 1 : values.last();
                return new Axis(scale, 0, niceCeiling(max * headroom), inset);
            }
            TreeSet<Double> positive = new TreeSet<>(values.tailSet(0.0, false));
            double low = positive.isEmpty() ? 1 : Math.pow(10, Math.floor(Math.log10(positive.first())));
            double high = positive.isEmpty() ? 10 : Math.pow(10, Math.ceil(Math.log10(positive.last())));
            return new Axis(scale, low, high > low ? high : low * 10, inset);
        }

        boolean shows(double v) {
            return !Double.isNaN(v) && !Double.isInfinite(v) && (scale == Scale.LINEAR || v > 0);
        }

        double position(double v) {
            double along = scale == Scale.LINEAR ? v / high
                    : (Math.log10(v) - Math.log10(low)) / (Math.log10(high) - Math.log10(low));
            return inset + (1 - 2 * inset) * along;
        }

        /** Five even ticks on a linear axis, one a decade on a logarithmic one. */
        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            if (scale == Scale.LINEAR) {
                for (int t = 0; t <= 4; t++) ticks.add(high * t / 4);
            } else {
                for (double v = low; v <= high * 1.0001; v *= 10) ticks.add(v);
            }
            return ticks;
        }
    }

    private static double niceCeiling(double v) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (step * magnitude >= v * 0.9999) return step * magnitude;
        }
        return 10 * magnitude;
    }

    /** A tick's label: whole numbers with thousands separated, else up to two decimals. */
    static String label(double v) {
        if (v == Math.rint(v)) return String.format(Locale.ROOT, "%,d", (long) v);
        return String.format(Locale.ROOT, "%.2f", v).replaceFirst("0$", "");
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
