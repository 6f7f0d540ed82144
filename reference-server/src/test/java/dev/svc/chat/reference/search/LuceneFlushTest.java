package dev.svc.chat.reference.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.model.Message;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link LuceneIndex#flush} writes what the index buffers as a segment, so the server's search thread does that
 * work every second and a send (whose write would otherwise find the buffer full and write the segment itself)
 * never waits for it; what was flushed is still found.
 */
class LuceneFlushTest {

    @Test
    void aFlushEmptiesTheBufferAndLosesNothing() {
        try (LuceneIndex index = LuceneIndex.inMemory()) {
            for (int seq = 1; seq <= 2_000; seq++) {
                JsonNode part = JsonNodeFactory.instance.objectNode().put("type", "text")
                        .put("text", "message number " + seq + " about the weekly deploy");
                index.written("t", new Message("m" + seq, "r1", seq, seq, "alice", List.of(part), "c" + seq,
                        Instant.ofEpochMilli(seq), null, null, Map.of()));
            }
            long before = index.bufferedBytes();
            index.flush();
            long after = index.bufferedBytes();
            assertTrue(after < before / 10, "buffered bytes before the flush " + before + ", after " + after);
            List<SearchIndex.Hit> hits = index.search(new SearchIndex.Request("t", Set.of("r1"), null, null,
                    QueryParser.parse("weekly deploy"), null, 10));
            assertEquals(10, hits.size());
            assertEquals("m2000", hits.get(0).messageId());
        }
    }
}
