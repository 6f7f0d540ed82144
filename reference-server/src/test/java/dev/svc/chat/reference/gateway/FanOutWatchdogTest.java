package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The watchdog over a deliberately stalled dispatcher: a delivery that waits on a latch, with another queued
 * behind it. Time is a manual ticker and the checks are called here; only the last test, of the gateway's own
 * watchdog thread, polls the health it reports, with a deadline.
 */
class FanOutWatchdogTest {

    private static final Duration THRESHOLD = Duration.ofSeconds(5);

    private final AtomicLong nanos = new AtomicLong();

    @Test
    void reportsAStalledFanOutOnceAndItsRecovery() throws Exception {
        try (FanOutDispatcher dispatcher = new FanOutDispatcher();
             FanOutWatchdog watchdog = new FanOutWatchdog(dispatcher, THRESHOLD, nanos::get)) {
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch behind = new CountDownLatch(1);
            watchdog.check();
            advance(Duration.ofMinutes(1));
            watchdog.check();
            assertFalse(watchdog.stalled(), "an idle fan-out is not stuck, however long it idles");

            dispatcher.submit(() -> stuckDelivery(entered, release));
            dispatcher.submit(behind::countDown);
            assertTrue(entered.await(30, TimeUnit.SECONDS));
            watchdog.check();
            advance(THRESHOLD.minusMillis(1));
            watchdog.check();
            assertFalse(watchdog.stalled(), "under the threshold");
            assertEquals(0, watchdog.stalls());

            advance(Duration.ofMillis(1));
            watchdog.check();
            assertTrue(watchdog.stalled(), "work waiting and no progress for the threshold");
            assertEquals(1, watchdog.stalls());
            String report = watchdog.lastReport();
            assertTrue(report.contains("svc-ref-fanout") && report.contains("stuckDelivery"),
                    "the report names the thread and where it is stuck: " + report);

            advance(Duration.ofMinutes(1));
            watchdog.check();
            assertEquals(1, watchdog.stalls(), "one stall is reported once");

            release.countDown();
            assertTrue(behind.await(30, TimeUnit.SECONDS));
            watchdog.check();
            assertFalse(watchdog.stalled(), "the fan-out made progress again");
            assertEquals(1, watchdog.stalls());
        }
    }

    @Test
    void aBusyFanOutThatMakesProgressIsNotStuck() throws Exception {
        try (FanOutDispatcher dispatcher = new FanOutDispatcher();
             FanOutWatchdog watchdog = new FanOutWatchdog(dispatcher, THRESHOLD, nanos::get)) {
            for (int i = 0; i < 5; i++) {
                CountDownLatch entered = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                dispatcher.submit(() -> stuckDelivery(entered, release));
                dispatcher.submit(() -> { });
                assertTrue(entered.await(30, TimeUnit.SECONDS));
                watchdog.check();
                advance(THRESHOLD.minusMillis(1)); // each delivery takes just under the threshold
                watchdog.check();
                release.countDown();
            }
            assertEquals(0, watchdog.stalls());
        }
    }

    @Test
    void theServersFanOutReportsAStallOnItsHealth() throws Exception {
        // The gateway's own watchdog, on its own thread with real time and a short threshold: the test waits for
        // the report with a deadline.
        try (GatewayHarness gateway = new GatewayHarness(Duration.ofSeconds(25), Duration.ofMillis(200))) {
            String room = gateway.room("alice", "bob");
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            try (RecordingSocket alice = RecordingSocket.connect(gateway.socketUrl(), gateway.token("alice"))) {
                gateway.fanOut().seam(new FanOutSeam() {
                    @Override
                    public void delivering(GatewayConnection connection) {
                        stuckDelivery(entered, release);
                    }
                });
                try {
                    gateway.send("bob", room, "m1");
                    assertTrue(entered.await(30, TimeUnit.SECONDS));
                    awaitHealth(gateway.gateway(), true);
                    assertEquals(1, gateway.gateway().fanOutHealth().stalls());
                } finally {
                    gateway.fanOut().seam(FanOutSeam.NONE);
                    release.countDown();
                }
                awaitHealth(gateway.gateway(), false);
                assertTrue(alice.expect("42[\"new-message\"", Duration.ofSeconds(30)).contains("\"m1\""));
                assertEquals(new FanOutHealth(false, 1, 0, 0), gateway.gateway().fanOutHealth());
            }
        }
    }

    private static void awaitHealth(Gateway gateway, boolean stalled) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (gateway.fanOutHealth().stalled() != stalled) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("fan-out health not stalled=" + stalled + " within 30 s: "
                        + gateway.fanOutHealth());
            }
            TimeUnit.MILLISECONDS.sleep(10); // polling a condition, with a deadline
        }
    }

    private void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }

    /** A delivery stuck until the test releases it; its name appears in the watchdog's report. */
    private static void stuckDelivery(CountDownLatch entered, CountDownLatch release) {
        entered.countDown();
        try {
            release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
