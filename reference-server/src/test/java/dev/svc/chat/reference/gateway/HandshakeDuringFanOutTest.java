package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A client that handshakes again while a room event is being fanned out to its connection: the interleaving
 * is driven with latches in {@link FanOutSeam}, so it happens on every run. Before the fix the fan-out thread
 * (holding the delivery order's read lock) waited for the connection's monitor, which the handshake held
 * while it waited for the write lock: the fan-out of the whole node stopped for good.
 */
class HandshakeDuringFanOutTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration ANSWER = Duration.ofSeconds(10);
    private static final String NEW_MESSAGE = "42[\"new-message\"";

    @Test
    void aHandshakeDuringAFanOutToItsConnectionCompletesAndTheFanOutGoesOn() throws Exception {
        try (GatewayHarness gateway = new GatewayHarness(Duration.ofSeconds(25))) {
            String aliceToken = gateway.token("alice");
            String room = gateway.room("alice", "bob");
            CountDownLatch handshakeRegistering = new CountDownLatch(1);
            try (RecordingSocket alice = RecordingSocket.connect(gateway.socketUrl(), aliceToken);
                 RecordingSocket bob = RecordingSocket.connect(gateway.socketUrl(), gateway.token("bob"))) {
                HeldDelivery fanOutAtAlice = new HeldDelivery("alice", WAIT) {
                    @Override
                    public void registering(GatewayConnection connection) {
                        if ("alice".equals(connection.userId()) && held()) {
                            handshakeRegistering.countDown();
                        }
                    }
                };
                gateway.fanOut().seam(fanOutAtAlice);
                try {
                    gateway.send("bob", room, "m1");
                    assertTrue(fanOutAtAlice.awaitHeld(), "the fan-out reached alice");
                    // The fan-out holds the delivery order's read lock, about to deliver m1 to alice's connection;
                    // alice ends her session and handshakes again on the same connection.
                    alice.send("41");
                    alice.send("40{\"token\":\"" + aliceToken + "\"}");
                    assertTrue(handshakeRegistering.await(WAIT.toSeconds(), TimeUnit.SECONDS),
                            "alice's second handshake reached its registration");
                } finally {
                    fanOutAtAlice.release();
                }
                List<String> beforeAnswer = new ArrayList<>();
                if (alice.await("40{\"sid\"", ANSWER, beforeAnswer) == null) {
                    fail("alice's second handshake was not answered within " + ANSWER + ": the handshake and the"
                            + " fan-out are deadlocked; " + describe("svc-ref-fanout"));
                }
                // m1 was being delivered when alice registered again: it follows her answer, never precedes it.
                assertTrue(beforeAnswer.stream().noneMatch(frame -> frame.startsWith(NEW_MESSAGE)),
                        "no new-message before the answer: " + beforeAnswer);
                assertTrue(alice.expect(NEW_MESSAGE, ANSWER).contains("\"m1\""));
                assertTrue(bob.expect(NEW_MESSAGE, ANSWER).contains("\"m1\""), "bob got m1 after alice");
                gateway.send("bob", room, "m2");
                assertTrue(alice.expect(NEW_MESSAGE, ANSWER).contains("\"m2\""), "the fan-out goes on");
                assertTrue(bob.expect(NEW_MESSAGE, ANSWER).contains("\"m2\""), "the fan-out goes on");
            }
        }
    }

    @Test
    void aHandshakeIsIndexedWithoutHoldingItsConnectionsMonitor() throws Exception {
        // The delivery order's write lock waits for the fan-out in progress; a handshake holding its connection's
        // monitor meanwhile would make the gateway's one timer thread wait too, when it pings that connection.
        try (GatewayHarness gateway = new GatewayHarness(Duration.ofSeconds(25))) {
            List<Map.Entry<String, Boolean>> held = new CopyOnWriteArrayList<>();
            gateway.fanOut().seam(new FanOutSeam() {
                @Override
                public void registering(GatewayConnection connection) {
                    held.add(Map.entry(connection.userId(), Thread.holdsLock(connection)));
                }
            });
            try (RecordingSocket alice = RecordingSocket.connect(gateway.socketUrl(), gateway.token("alice"))) {
                assertEquals(List.of(Map.entry("alice", false)), held,
                        "(user, whether the handshake held its connection's monitor while it registered)");
            }
        }
    }

    /** Returns the state and top frames of the threads named {@code prefix}..., for a failure message. */
    static String describe(String prefix) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            if (e.getKey().getName().startsWith(prefix)) {
                text.append(e.getKey().getName()).append(' ').append(e.getKey().getState());
                StackTraceElement[] frames = e.getValue();
                for (int i = 0; i < Math.min(4, frames.length); i++) {
                    text.append(" at ").append(frames[i]);
                }
            }
        }
        return text.length() == 0 ? "no thread " + prefix : text.toString();
    }
}
