package dev.svc.chat.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.bench.support.SvgPlot.Panel;
import dev.svc.chat.bench.support.SvgPlot.Scale;
import dev.svc.chat.bench.support.SvgPlot.Series;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The plot's SVG: well formed, a line per series, points where their values put them. */
class SvgPlotTest {
    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    /** Each polyline's points, as {x, y} pairs. */
    private static List<double[][]> lines(Document svg) {
        List<double[][]> lines = new ArrayList<>();
        NodeList all = svg.getElementsByTagName("polyline");
        for (int i = 0; i < all.getLength(); i++) {
            String points = ((Element) all.item(i)).getAttribute("points").trim();
            String[] pairs = points.isEmpty() ? new String[0] : points.split(" ");
            double[][] line = new double[pairs.length][];
            for (int k = 0; k < pairs.length; k++) {
                String[] xy = pairs[k].split(",");
                line[k] = new double[] {Double.parseDouble(xy[0]), Double.parseDouble(xy[1])};
            }
            lines.add(line);
        }
        return lines;
    }

    @Test
    void aPanelHasALinePerSeriesAndTheTitleIsEscaped() throws Exception {
        Document svg = parse(SvgPlot.svg("a <title> & more", List.of(
                new Panel("one", "ms", Scale.LINEAR, Scale.LINEAR, " min", List.of(
                        new Series("a", new double[] {0, 1, 2}, new double[] {1, 2, 3}, false),
                        new Series("b & c", new double[] {0, 1, 2}, new double[] {3, 2, 1}, true))),
                new Panel("two", "", Scale.LOG, Scale.LOG, " clients", List.of(
                        new Series("a", new double[] {100, 1000}, new double[] {1, 2}, false))))));
        assertEquals("svg", svg.getDocumentElement().getTagName());
        assertEquals(3, lines(svg).size());
        assertEquals("6,4", ((Element) svg.getElementsByTagName("polyline").item(1)).getAttribute("stroke-dasharray"));
        assertTrue(svg.getDocumentElement().getTextContent().contains("a <title> & more"));
    }

    @Test
    void onALogarithmicAxisEachDecadeTakesTheSameHeight() throws Exception {
        Document svg = parse(SvgPlot.svg("t", List.of(new Panel("p", "ms", Scale.LOG, Scale.LOG, "", List.of(
                new Series("s", new double[] {10, 100, 1000}, new double[] {1, 10, 100}, false))))));
        double[][] line = lines(svg).get(0);
        assertEquals(3, line.length);
        assertEquals(line[0][1] - line[1][1], line[1][1] - line[2][1], 0.15);
        assertEquals(line[1][0] - line[0][0], line[2][0] - line[1][0], 0.15);
        assertTrue(line[0][1] > line[2][1], "larger values are drawn higher");
    }

    @Test
    void onALinearAxisAPointSitsInProportionFromZero() throws Exception {
        Document svg = parse(SvgPlot.svg("t", List.of(new Panel("p", "", Scale.LINEAR, Scale.LINEAR, "", List.of(
                new Series("s", new double[] {0, 5, 10}, new double[] {0, 50, 100}, false))))));
        double[][] line = lines(svg).get(0);
        // x from 0 to 10 across the whole width; y from 0 to 100 within a round ceiling (more than 100)
        assertEquals(line[1][0] - line[0][0], line[2][0] - line[1][0], 0.15);
        assertEquals(line[0][1] - line[1][1], line[1][1] - line[2][1], 0.15);
    }

    @Test
    void missingPointsAreLeftOutAndALonePointIsMarked() throws Exception {
        Document svg = parse(SvgPlot.svg("t", List.of(new Panel("p", "", Scale.LOG, Scale.LOG, "", List.of(
                new Series("gaps", new double[] {1, 2, 3, 4}, new double[] {1, Double.NaN, 0, 4}, false),
                new Series("one", new double[] {1000}, new double[] {3}, false),
                new Series("none", new double[0], new double[0], false))))));
        List<double[][]> lines = lines(svg);
        assertEquals(2, lines.get(0).length, "NaN, and 0 on a logarithmic axis, are not drawn");
        assertEquals(1, lines.get(1).length);
        assertEquals(0, lines.get(2).length);
        assertEquals(3, svg.getElementsByTagName("circle").getLength());
    }

    @Test
    void tickLabelsAreRoundNumbers() {
        assertEquals("10,000", SvgPlot.label(10_000));
        assertEquals("2.5", SvgPlot.label(2.5));
        assertEquals("0.05", SvgPlot.label(0.05));
        assertEquals("1.25", SvgPlot.label(1.25));
        assertEquals("0.1", SvgPlot.label(0.1));
    }
}
