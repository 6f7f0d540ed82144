package dev.svc.chat.reference.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.auth.RandomIds;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link IndexQueue}: a send only enqueues, the search thread indexes; with that thread held, a flood of sends
 * far over the queue's capacity loses no index entry once it runs again (the overflow is read from the store), a
 * message's edit and delete end in its newest state, and a search drains first, so it finds every write that
 * returned before it.
 */
class IndexQueueTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    private final LuceneIndex lucene = LuceneIndex.inMemory();
    private final ScheduledExecutorService searchThread = Executors.newSingleThreadScheduledExecutor();
    private final CountDownLatch held = new CountDownLatch(1);
    private InMemoryStore store;
    private IndexQueue queue;

    @BeforeEach
    void holdTheSearchThread() {
        // The seam: a task ahead of the drains keeps the search thread busy until the test releases it.
        searchThread.execute(() -> {
            try {
                held.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private void open(int capacity) {
        queue = new IndexQueue(lucene, capacity);
        store = new InMemoryStore(queue);
        queue.readFrom(store);
        store.createTenant(new TenantRecord("t", "sk_test_t_queue", RandomIds.bytes(32)), TenantSettings.defaults(true));
        store.ensureUser("t", "alice", NOW);
        searchThread.scheduleWithFixedDelay(queue::drainQuietly, 5, 5, TimeUnit.MILLISECONDS);
    }

    @AfterEach
    void close() throws InterruptedException {
        held.countDown();
        searchThread.shutdownNow();
        assertTrue(searchThread.awaitTermination(10, TimeUnit.SECONDS));
        lucene.close();
    }

    private static List<JsonNode> text(String text) {
        return List.of(JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text));
    }

    /** The ids the index itself (not the queue, which would drain first) finds in {@code rooms}. */
    private Set<String> indexed(Set<String> rooms, String q) {
        Set<String> ids = new HashSet<>();
        for (SearchIndex.Hit hit : lucene.search(new SearchIndex.Request("t", rooms, null, null,
                QueryParser.parse(q), null, 10_000))) {
            ids.add(hit.messageId());
        }
        return ids;
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 20 s: " + what);
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
    }

    @Test
    void aFloodWithTheSearchThreadHeldLosesNoEntry() throws Exception {
        open(64);
        List<String> rooms = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            rooms.add(store.createRoom("t", "room" + r, List.of("alice"), NOW).id());
        }
        ExecutorService senders = Executors.newFixedThreadPool(4);
        Set<String> sent = ConcurrentHashMap.newKeySet();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int s = 0; s < 4; s++) {
                int sender = s;
                done.add(senders.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        String room = rooms.get((sender + i) % rooms.size());
                        sent.add(store.appendMessage("t", room, "alice", "c" + sender + "-" + i,
                                text("flood number " + i), NOW).message().id());
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            senders.shutdownNow();
        }
        Set<String> all = new HashSet<>(rooms);
        assertEquals(Set.of(), indexed(all, "flood"), "nothing indexed on the senders' threads");
        assertTrue(queue.overflowed() > 1_000, "the flood overflowed the queue: " + queue.overflowed());
        held.countDown();
        await(() -> indexed(all, "flood").size() == sent.size(), "every message indexed by the search thread");
        assertEquals(sent, indexed(all, "flood"));
    }

    @ParameterizedTest(name = "queue of {0}")
    @ValueSource(ints = {1, 2, 1_000})
    void editsAndDeletesEndInTheNewestState(int capacity) {
        open(capacity);
        String room = store.createRoom("t", "room", List.of("alice"), NOW).id();
        Message edited = store.appendMessage("t", room, "alice", "c1", text("alpha draft"), NOW).message();
        Message deleted = store.appendMessage("t", room, "alice", "c2", text("gamma note"), NOW).message();
        store.changeMessage("t", edited.edited(text("beta draft"), List.of(), NOW));
        store.changeMessage("t", deleted.deleted(NOW));
        Message twice = store.appendMessage("t", room, "alice", "c3", text("delta one"), NOW).message();
        Message first = store.changeMessage("t", twice.edited(text("delta two"), List.of(), NOW)).message();
        store.changeMessage("t", first.edited(text("delta three"), List.of(), NOW));
        held.countDown();
        await(() -> indexed(Set.of(room), "three").size() == 1, "the last edit indexed");
        assertEquals(Set.of(edited.id()), indexed(Set.of(room), "beta"));
        assertEquals(Set.of(edited.id()), indexed(Set.of(room), "draft"));
        assertEquals(Set.of(), indexed(Set.of(room), "alpha"), "the send indexed after its edit");
        assertEquals(Set.of(), indexed(Set.of(room), "gamma"), "the delete undone");
        assertEquals(Set.of(), indexed(Set.of(room), "one"));
        assertEquals(Set.of(), indexed(Set.of(room), "two"));
    }

    @Test
    void aSearchFindsEveryWriteThatReturnedBeforeIt() {
        open(16);
        String room = store.createRoom("t", "room", List.of("alice"), NOW).id();
        Set<String> sent = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            sent.add(store.appendMessage("t", room, "alice", "c" + i, text("fresh words"), NOW).message().id());
        }
        Set<String> found = new HashSet<>();
        for (SearchIndex.Hit hit : queue.search(new SearchIndex.Request("t", Set.of(room), null, null,
                QueryParser.parse("fresh"), null, 100))) {
            found.add(hit.messageId());
        }
        assertEquals(sent, found, "found with the search thread still held");
    }
    @Test
    void whatFollowsASearchThreadDrainRunsBeforeAnyOtherDrain() throws Exception {
        open(16);
        String room = store.createRoom("t", "room", List.of("alice"), NOW).id();
        CountDownLatch inCommit = new CountDownLatch(1);
        CountDownLatch commitDone = new CountDownLatch(1);
        Thread committer = new Thread(() -> queue.drainQuietly(() -> {
            inCommit.countDown();
            try {
                commitDone.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        committer.start();
        assertTrue(inCommit.await(20, TimeUnit.SECONDS));
        String id = store.appendMessage("t", room, "alice", "c1", text("waiting words"), NOW).message().id();
        List<String> found = new ArrayList<>();
        Thread searcher = new Thread(() -> queue.search(new SearchIndex.Request("t", Set.of(room), null, null,
                QueryParser.parse("waiting"), null, 10)).forEach(hit -> found.add(hit.messageId())));
        searcher.start();
        try {
            // the search's drain waits for the commit that follows the other drain
            await(() -> searcher.getState() == Thread.State.BLOCKED, "the search blocked behind the commit");
        } finally {
            commitDone.countDown();
            committer.join(20_000);
            searcher.join(20_000);
        }
        assertEquals(List.of(id), found);
    }
}
