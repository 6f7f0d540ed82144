package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The fan-out thread outlives whatever one delivery throws, and a stray interrupt. */
class FanOutDispatcherTest {

    @Test
    void survivesAnErrorAndAnException() throws Exception {
        try (FanOutDispatcher dispatcher = new FanOutDispatcher()) {
            CountDownLatch after = new CountDownLatch(1);
            dispatcher.submit(() -> {
                throw new StackOverflowError("deliberate, from a test");
            });
            dispatcher.submit(() -> {
                throw new IllegalStateException("deliberate, from a test");
            });
            dispatcher.submit(after::countDown);
            assertTrue(after.await(30, TimeUnit.SECONDS),
                    "the delivery after a failing one ran: " + HandshakeDuringFanOutTest.describe("svc-ref-fanout"));
            assertEquals(2, dispatcher.failures(), "both failures counted");
        }
    }

    @Test
    void survivesAStrayInterrupt() throws Exception {
        try (FanOutDispatcher dispatcher = new FanOutDispatcher()) {
            CountDownLatch after = new CountDownLatch(1);
            dispatcher.submit(() -> Thread.currentThread().interrupt());
            dispatcher.submit(after::countDown);
            assertTrue(after.await(30, TimeUnit.SECONDS),
                    "the delivery after an interrupt ran: " + HandshakeDuringFanOutTest.describe("svc-ref-fanout"));
        }
    }
}
