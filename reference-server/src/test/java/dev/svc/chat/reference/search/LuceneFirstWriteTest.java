package dev.svc.chat.reference.search;

import static dev.svc.chat.reference.search.RoomHits.found;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.model.Message;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A message's first write adds its document without a delete by term only in an index made in this process
 * (which has seen every document it holds); in an index reopened from disk, the first write of a message it
 * already holds replaces that document, so no message is found twice.
 */
class LuceneFirstWriteTest {

    @TempDir
    Path dir;

    private static Message message(long seq, long rev, String text) {
        JsonNode part = JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text);
        return new Message("m" + seq, "r1", seq, rev, "alice", List.of(part), "c" + seq, Instant.ofEpochMilli(seq),
                null, null, Map.of());
    }

    @Test
    void aReopenedIndexReplacesWhatItHeld() {
        try (LuceneIndex index = LuceneIndex.open(dir)) {
            index.written("t", message(1, 1, "shared alpha"));
            index.written("t", message(2, 2, "shared gamma"));
        }
        try (LuceneIndex index = LuceneIndex.open(dir)) {
            index.written("t", message(1, 3, "shared beta"));
            index.written("t", message(2, 4, "gone").deleted(Instant.EPOCH));
            assertEquals(List.of("m1"), found(index, "shared"), "each message once, the deleted one not at all");
            assertEquals(List.of("m1"), found(index, "beta"));
            assertEquals(List.of(), found(index, "alpha"));
            assertEquals(List.of(), found(index, "gamma"));
        }
    }

    @Test
    void aFreshIndexAddsThenReplaces() {
        try (LuceneIndex index = LuceneIndex.inMemory()) {
            for (int seq = 1; seq <= 3_000; seq++) {
                index.written("t", message(seq, seq, "weekly deploy number " + seq));
            }
            index.written("t", message(7, 3_001, "weekly deploy edited"));
            index.written("t", message(8, 3_002, "gone").deleted(Instant.EPOCH));
            index.written("t", message(9, 3_003, "gone").deleted(Instant.EPOCH));
            index.written("t", message(9, 2_999, "an older edit after the delete"));
            assertEquals(List.of("m7"), found(index, "edited"));
            assertEquals(List.of(), found(index, "number 7"));
            assertEquals(List.of(), found(index, "number 8"));
            assertEquals(List.of(), found(index, "older"));
            assertEquals(List.of("m3000", "m2999", "m2998"), found(index, "weekly").subList(0, 3));
            assertEquals(1, found(index, "number 2999").size());
        }
    }
}
