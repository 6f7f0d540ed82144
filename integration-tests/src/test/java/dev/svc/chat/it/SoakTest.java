package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The soak ({@link Soak}) at CI size by default: 24 clients for 45 s, sampled every 3 s (so that each third after
 * the warm-up has three samples, and one burst of a thread pool is not taken for growth). {@code build-tools/soak}
 * runs it for an hour with 200 clients ({@code -Dsoak.*}); its table and plot land in {@code soak.out}.
 */
@Tag("chaos")
@Timeout(value = 2, unit = TimeUnit.HOURS)
class SoakTest {
  @Test
  void heapThreadsAndDescriptorsStayFlatAndNothingIsLostOrRepeatedUnderChurn() throws Exception {
    List<String> problems;
    try (Soak soak = new Soak(Soak.Config.fromSystemProperties())) {
      problems = soak.run();
    }
    assertEquals(List.of(), problems, "the soak's problems");
  }
}
