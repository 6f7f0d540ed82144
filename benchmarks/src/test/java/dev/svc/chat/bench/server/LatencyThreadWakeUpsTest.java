package dev.svc.chat.bench.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.svc.chat.bench.server.LatencyThreadWakeUps.Sample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where our wake-ups go: each process's threads per message, and the medians of the rounds. */
class LatencyThreadWakeUpsTest {

    @Test
    void aRoundIsEachProcessThreadsWakeUpsSinceTheStartPerMessage() {
        List<Map<String, Long>> before = List.of(Map.of("OkHttp TaskRunn", 100L, "main", 10L),
                Map.of("svc-chat-callbacks-#", 5L), Map.of("JettyServerThre", 0L));
        List<Map<String, Long>> after = List.of(Map.of("OkHttp TaskRunn", 3_600L, "main", 1_010L, "new", 50L),
                Map.of("svc-chat-callbacks-#", 1_005L), Map.of("JettyServerThre", 2_900L));
        List<Sample> samples = LatencyThreadWakeUps.since(1000, true, before, after, 1000);
        assertEquals(List.of("sender", "receiver", "server"), samples.stream().map(Sample::process).toList());
        assertEquals(Map.of("OkHttp TaskRunn", 3.5, "main", 1.0, "new", 0.05), samples.get(0).perMessage(),
                "a thread started in the round counts all of its own");
        assertEquals(Map.of("svc-chat-callbacks-#", 1.0), samples.get(1).perMessage());
        assertEquals(Map.of("JettyServerThre", 2.9), samples.get(2).perMessage());
    }

    @Test
    void inOneProcessThePairCountsOnce() {
        List<Map<String, Long>> same = List.of(Map.of("main", 0L), Map.of("main", 0L), Map.of("x", 0L));
        List<Map<String, Long>> after = List.of(Map.of("main", 10L), Map.of("main", 10L), Map.of("x", 10L));
        List<Sample> samples = LatencyThreadWakeUps.since(1000, false, same, after, 10);
        assertEquals(List.of("sender and receiver", "server"), samples.stream().map(Sample::process).toList());
    }

    @Test
    void aThreadMissingFromARoundCountsZeroThereAndSmallOnesGoTogether() {
        List<Sample> rounds = List.of(
                new Sample(1000, true, "sender", Map.of("OkHttp TaskRunn", 3.4, "main", 1.0, "a", 0.02)),
                new Sample(1000, true, "sender", Map.of("OkHttp TaskRunn", 3.6, "a", 0.03, "b", 0.01)),
                new Sample(1000, true, "sender", Map.of("OkHttp TaskRunn", 3.5, "main", 1.0)));
        List<String[]> rows = LatencyThreadWakeUps.rows(rounds);
        assertEquals(3, rows.size());
        assertArrayEquals(new String[] {"`OkHttp TaskRunn`", "3.50 [3.40–3.60]"}, rows.get(0));
        assertArrayEquals(new String[] {"`main`", "1.00 [0.00–1.00]"}, rows.get(1),
                "the round without the thread is a 0, not a round left out");
        assertArrayEquals(new String[] {"the rest", "0.02 [0.00–0.04]"}, rows.get(2));
    }
}
