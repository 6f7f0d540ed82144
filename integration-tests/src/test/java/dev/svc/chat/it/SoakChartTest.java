package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.IntFunction;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** The soak's verdict on growth, and its table and plot, on made-up samples. */
class SoakChartTest {
  private static final long MB = 1024 * 1024;

  private static SoakChart chart(int rows, IntFunction<ProcessProbe.Sample> server) {
    SoakChart chart = new SoakChart(List.of("server", "clients"));
    for (int i = 0; i < rows; i++) {
      chart.add(new SoakChart.Row(i, List.of(server.apply(i), new ProcessProbe.Sample(30 * MB, 100, 150))));
    }
    return chart;
  }

  @Test
  void flatLinesWithOneBurstPerThirdAreNotGrowth() {
    // a thread pool that bursts now and then, a heap that alternates: no line's floor moves
    SoakChart chart = chart(14, i -> new ProcessProbe.Sample((i % 2 == 0 ? 20 : 28) * MB, i % 3 == 0 ? 72 : 31, 280));
    assertEquals(List.of(), chart.growth(2));
  }

  @Test
  void aLeakOfThreadsDescriptorsOrHeapIsGrowth() {
    SoakChart chart = chart(14, i -> new ProcessProbe.Sample((20 + 3L * i) * MB, 30 + 2 * i, 280 + 4L * i));
    List<String> grew = chart.growth(2);
    assertEquals(3, grew.size(), grew.toString());
    assertTrue(grew.get(0).startsWith("server heap after GC grew from"), grew.get(0));
    assertTrue(grew.get(1).startsWith("server threads grew from"), grew.get(1));
    assertTrue(grew.get(2).startsWith("server file descriptors grew from"), grew.get(2));
  }

  @Test
  void tooFewSamplesAfterTheWarmUpAreAProblemNotAPass() {
    assertEquals(1, chart(4, i -> new ProcessProbe.Sample(20 * MB, 30, 280)).growth(2).size());
  }

  @Test
  void theTableHasARowPerSampleAndThePlotIsWellFormedSvg() throws Exception {
    SoakChart chart = chart(5, i -> new ProcessProbe.Sample(20 * MB, 30, 280));
    assertEquals(2 + 5, chart.table().split("\n").length);
    assertTrue(chart.table().contains("| 4.0 | 20.0 | 30 | 280 | 30.0 | 100 | 150 |"), chart.table());
    Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(chart.svg("a <title> & more").getBytes(StandardCharsets.UTF_8)));
    assertEquals("svg", svg.getDocumentElement().getTagName());
    assertEquals(6, svg.getElementsByTagName("polyline").getLength(), "three panels, two processes each");
  }
}
