package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A message sent on a socket into a small room is delivered by the reader that handled the send, when the fan-out
 * thread has nothing before it; behind earlier events still with the fan-out thread, it waits its turn there.
 */
class InPlaceFanOutTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String NEW_MESSAGE = "42[\"new-message\"";

    private static String sendFrame(int ackId, String room, String text) {
        return "42" + ackId + "[\"send-message\",{\"roomId\":\"" + room + "\",\"clientMessageId\":\"" + text
                + "\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}]";
    }

    private GatewayHarness gateway;
    private RecordingSocket alice;
    private RecordingSocket bob;
    /** A room of alice and bob, both connected. */
    private String room;

    @BeforeEach
    void connectAliceAndBob() {
        gateway = new GatewayHarness(Duration.ofSeconds(25));
        alice = RecordingSocket.connect(gateway.socketUrl(), gateway.token("alice"));
        bob = RecordingSocket.connect(gateway.socketUrl(), gateway.token("bob"));
        room = gateway.room("alice", "bob");
    }

    @AfterEach
    void close() throws Exception {
        try (GatewayHarness g = gateway; RecordingSocket a = alice; RecordingSocket b = bob) {
            // the sockets close first, then the gateway (resources close in reverse order)
        }
    }

    @Test
    void aMessageIntoASmallRoomGoesFromTheSendersReaderWithNoFanOutThread() throws Exception {
        long dispatched = gateway.fanOut().dispatched();

        bob.send(sendFrame(1, room, "m1"));

        assertTrue(alice.expect(NEW_MESSAGE, WAIT).contains("\"m1\""), "alice got m1");
        assertNotNull(bob.await("431[", WAIT), "bob's send was answered");
        assertEquals(dispatched, gateway.fanOut().dispatched(), "the fan-out thread delivered m1");
    }

    @Test
    void aMessageBehindAnEventTheFanOutThreadHoldsWaitsItsTurn() throws Exception {
        HeldDelivery atAlice = new HeldDelivery("alice", WAIT);
        gateway.fanOut().seam(atAlice);
        Thread rest = new Thread(() -> gateway.send("bob", room, "m1"), "test-rest-send");
        try {
            rest.start(); // m1 through the fan-out thread, held at alice's connection
            assertTrue(atAlice.awaitHeld(), "the fan-out reached alice");
            bob.send(sendFrame(1, room, "m2"));
            assertNotNull(bob.await("431[", WAIT), "bob's send of m2 was answered while m1 was held");
        } finally {
            atAlice.release();
        }
        rest.join(WAIT.toMillis());
        List<String> received = new ArrayList<>();
        received.add(alice.expect(NEW_MESSAGE, WAIT));
        received.add(alice.expect(NEW_MESSAGE, WAIT));
        assertTrue(received.get(0).contains("\"m1\"") && received.get(1).contains("\"m2\""),
                "alice got m1 then m2: " + received);
    }
}
