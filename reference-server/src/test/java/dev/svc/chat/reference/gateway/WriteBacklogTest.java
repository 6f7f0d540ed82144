package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** A publisher waits while the writers' work ahead is over its bound, and no longer than its longest wait. */
class WriteBacklogTest {

    @Test
    void aPublisherUnderTheBoundDoesNotWait() {
        WriteBacklog backlog = new WriteBacklog(10, TimeUnit.SECONDS.toNanos(60));
        backlog.add(10);
        backlog.awaitRoom(0);
        assertEquals(0, backlog.waits());
    }

    @Test
    void aPublisherOverTheBoundWaitsUntilTheWritersCatchUp() throws Exception {
        WriteBacklog backlog = new WriteBacklog(10, TimeUnit.SECONDS.toNanos(60));
        backlog.add(11);
        CountDownLatch returned = new CountDownLatch(1);
        Thread publisher = new Thread(() -> {
            backlog.awaitRoom(0);
            returned.countDown();
        }, "test-publisher");
        publisher.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (backlog.waits() == 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polls the condition
            }
            assertEquals(1, backlog.waits(), "the publisher waits");
            assertEquals(1, returned.getCount(), "and has not returned");
            backlog.remove(1);
            assertTrue(returned.await(30, TimeUnit.SECONDS), "the writers' progress woke it");
        } finally {
            backlog.remove(backlog.frames());
            publisher.join(30_000);
        }
    }

    @Test
    void aPublisherWaitsNoLongerThanTheLongestWait() {
        WriteBacklog backlog = new WriteBacklog(0, TimeUnit.MILLISECONDS.toNanos(20));
        backlog.add(1);
        long started = System.nanoTime();
        backlog.awaitRoom(0);
        assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(20), "it waited");
        assertEquals(1, backlog.waits());
    }

    @Test
    void aLargerRoomMayHaveMoreOfItsMessagesAhead() {
        WriteBacklog backlog = new WriteBacklog(512, TimeUnit.MILLISECONDS.toNanos(20));
        backlog.add(WriteBacklog.MESSAGES_AHEAD * 100);
        backlog.awaitRoom(100);
        assertEquals(0, backlog.waits(), "32 messages of a room of 100 ahead: no wait");
        backlog.awaitRoom(10);
        assertEquals(1, backlog.waits(), "a room of 10 waits at its bound, 512 frames");
    }
}
