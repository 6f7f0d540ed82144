package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The tests' raw client itself: its sends and its automatic pongs share the JDK's one send in flight. */
class SocketClientTest {
    private static final int SENDS = 60;

    @Test
    void sendsFromTheTestAndPongsFromTheListenerTakeTurns() throws Exception {
        assumeTrue("memory".equals(Backends.current()), "the client is the same on every backend");
        // a ping a millisecond after each pong, answered on the JDK's thread while the test thread's large frames
        // are on their way: a pong started while a frame is in flight is refused by the JDK ("Send pending"), or
        // the frame is, and a refused pong stops the server's pings
        try (ReferenceServer beating = Backends.builder().pingInterval(Duration.ofMillis(1))
                .pingTimeout(Duration.ofSeconds(60)).build().start()) {
            String token = new Http(beating).mint(beating.apiKey(), "alice");
            try (SocketClient client = SocketClient.connectToken(beating, token)) {
                String large = "42[\"no-such-event\",{\"text\":\"" + "x".repeat(900_000) + "\"}]"; // no ack asked
                for (int i = 0; i < SENDS; i++) {
                    client.send(large);
                }
                int answered = client.pongs();
                Conditions.until("the pings go on", Conditions.WAIT, () -> client.pongs() >= answered + 10,
                        () -> "the pings stopped after " + client.pongs() + " pongs");
                assertFalse(client.isClosed(), "the connection lived through the sends");
            }
        }
    }
}
