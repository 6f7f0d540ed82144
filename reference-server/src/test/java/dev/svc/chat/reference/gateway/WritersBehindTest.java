package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A sender that outpaces the server's own writers (both on the same cores) waits for them: the frames of a
 * room's messages do not pile up behind the writers until readers that read are cut as slow consumers.
 */
class WritersBehindTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** More messages than a connection's outbound queue holds (its bound cuts it). */
    private static final int MESSAGES = GatewayConfig.DEFAULT_OUTBOUND_LIMIT + 200;

    @Test
    void aSenderWaitsForHeldWritersAndNoReaderThatReadsIsCut() throws Exception {
        try (GatewayHarness gateway = new GatewayHarness(Duration.ofSeconds(25))) {
            // more members than a fan-out writes on its own thread: their queues are written by the writers
            String[] members = {"alice", "bob", "carol", "dave", "erin", "frank"};
            String room = gateway.room(members);
            List<RecordingSocket> sockets = new ArrayList<>();
            Thread sender = null;
            CountDownLatch release = new CountDownLatch(1);
            try {
                for (String member : members) {
                    sockets.add(RecordingSocket.connect(gateway.socketUrl(), gateway.token(member)));
                }
                int writers = ((ThreadPoolExecutor) gateway.gateway().writers()).getMaximumPoolSize();
                CountDownLatch held = new CountDownLatch(writers);
                for (int i = 0; i < writers; i++) {
                    gateway.gateway().writers().execute(() -> {
                        held.countDown();
                        awaitQuietly(release);
                    });
                }
                assertTrue(held.await(WAIT.toSeconds(), TimeUnit.SECONDS), "every writer held");
                AtomicInteger answered = new AtomicInteger();
                AtomicReference<Throwable> failed = new AtomicReference<>();
                sender = new Thread(() -> {
                    try {
                        for (int i = 0; i < MESSAGES; i++) {
                            gateway.send("alice", room, "m" + i);
                            answered.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failed.set(e);
                    }
                }, "test-sender");
                sender.start();
                WriteBacklog backlog = gateway.fanOut().writeBacklog();
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (backlog.waits() == 0 && sender.isAlive() && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polls the condition
                }
                int whileHeld = answered.get();
                assertTrue(whileHeld < GatewayConfig.DEFAULT_OUTBOUND_LIMIT,
                        "the sender waited for the held writers: " + whileHeld + " of " + MESSAGES
                                + " sends were answered while no writer ran");
                release.countDown();
                sender.join(WAIT.toMillis());
                assertTrue(!sender.isAlive() && failed.get() == null, "every send answered: " + failed.get());
                String last = "\"m" + (MESSAGES - 1) + "\"";
                for (int i = 0; i < sockets.size(); i++) {
                    String frame = awaitContaining(sockets.get(i), last);
                    assertNotNull(frame, members[i] + " got every message, its connection not cut as a slow"
                            + " consumer");
                }
            } finally {
                release.countDown();
                if (sender != null) {
                    sender.join(WAIT.toMillis());
                }
                sockets.forEach(RecordingSocket::close);
            }
        }
    }

    /** Returns the first new-message frame holding {@code text}, or null if the socket got none in time. */
    private static String awaitContaining(RecordingSocket socket, String text) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String frame = left > 0 ? socket.await("42[\"new-message\"", Duration.ofNanos(left)) : null;
            if (frame == null || frame.contains(text)) {
                return frame;
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
