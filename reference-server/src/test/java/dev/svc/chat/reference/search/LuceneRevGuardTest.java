package dev.svc.chat.reference.search;

import static dev.svc.chat.reference.search.RoomHits.found;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.model.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Lucene index keeps a message's newest revision whatever order its writes reach it in: two edits of one
 * message committed by the store in one order may call {@link LuceneIndex#written} in the other (the PostgreSQL
 * index has the same guard in SQL).
 */
class LuceneRevGuardTest {

    private static Message message(long rev, String text) {
        JsonNode part = JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text);
        return new Message("m1", "r1", 1, rev, "alice", List.of(part), "c1", Instant.EPOCH, null, null, Map.of());
    }

    @Test
    void anOlderEditWrittenLastDoesNotReplaceTheNewer() {
        try (LuceneIndex index = LuceneIndex.inMemory()) {
            index.written("t", message(1, "first text"));
            index.written("t", message(3, "newest text"));
            index.written("t", message(2, "older edit"));
            assertEquals(List.of(), found(index, "older"));
            assertEquals(List.of("m1"), found(index, "newest"));
        }
    }

    @Test
    void anEditWrittenAfterTheDeleteDoesNotBringTheMessageBack() {
        try (LuceneIndex index = LuceneIndex.inMemory()) {
            index.written("t", message(1, "first text"));
            index.written("t", message(3, "gone").deleted(Instant.EPOCH));
            index.written("t", message(2, "late edit"));
            assertEquals(List.of(), found(index, "late"));
            assertEquals(List.of(), found(index, "first"));
        }
    }

    @Test
    void concurrentEditsLeaveTheNewest() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (LuceneIndex index = LuceneIndex.inMemory()) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> writes = new ArrayList<>();
            for (int rev = 1; rev <= 200; rev++) {
                final int r = rev;
                writes.add(pool.submit(() -> {
                    start.await();
                    index.written("t", message(r, "rev" + r));
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> w : writes) {
                w.get(60, TimeUnit.SECONDS);
            }
            assertEquals(List.of("m1"), found(index, "rev200"));
            assertEquals(List.of(), found(index, "rev199"));
        } finally {
            pool.shutdownNow();
        }
    }
}
