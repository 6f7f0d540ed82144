package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A reconnect storm of 1,000 clients on raw sockets. Presence is published in batches, with each user's net
 * change only, so a client that drops and reconnects at once costs the others nothing; before batching
 * every reconnect sent two frames to every connection of the tenant under one global lock.
 */
class PresenceStormTest {

    private static final int CLIENTS = 1000;

    @Test
    void reconnectStormOf1000ClientsSettles() throws Exception {
        // A presence batch of 3 s, and with it the grace an offline flip waits for its user to come back: each
        // client's drop-and-reconnect below takes one handshake, which a busy machine can stretch far beyond the
        // default 50 ms; the assertions are about what batching saves, not about how fast a handshake is.
        try (ReferenceServer server = ReferenceServer.builder()
                .pingInterval(Duration.ofSeconds(60)).pingTimeout(Duration.ofSeconds(60))
                .presenceInterval(Duration.ofSeconds(3)).build().start();
             SocketFleet fleet = new SocketFleet(server.port())) {
            Http http = new Http(server);
            List<String> tokens = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                tokens.add(http.mint(server.apiKey(), "u" + i));
            }
            List<SocketFleet.Member> members = new ArrayList<>();
            for (String token : tokens) {
                members.add(fleet.connect(auth(token)));
            }
            // Everyone hears of each user who came online after them: client i of N hears N - 1 - i.
            long expected = (long) CLIENTS * (CLIENTS - 1) / 2;
            await(() -> total(members) == expected, "first presence wave", fleet);
            for (int i = 0; i < CLIENTS; i++) {
                assertEquals(CLIENTS - 1 - i, members.get(i).presenceFrames.get(), "client " + i);
            }

            // The storm: every client drops its connection and reconnects at once.
            List<SocketFleet.Member> reconnected = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                members.get(i).drop();
                reconnected.add(fleet.connect(auth(tokens.get(i))));
            }
            // A marker user comes online last: once everyone heard of it, every storm frame has arrived.
            SocketFleet.Member marker = fleet.connect(auth(http.mint(server.apiKey(), "marker")));
            await(() -> reconnected.stream().allMatch(m -> lastIsMarker(m)), "the marker reached everyone", fleet);

            assertEquals(CLIENTS + 1, server.connectionCount());
            assertEquals(CLIENTS + 1, http.bearer("GET", "/v1/presence", tokens.get(0), null).json()
                    .get("online").size());
            int stormFrames = 0;
            int worst = 0;
            for (SocketFleet.Member m : reconnected) {
                assertFalse(m.closedByServer, "no connection was dropped");
                int frames = m.presenceFrames.get() - 1; // all but the marker
                stormFrames += frames;
                worst = Math.max(worst, frames);
            }
            assertFalse(marker.closedByServer);
            // Without batching each client would hear 2 frames per other client's reconnect (~2,000 each).
            assertTrue(worst <= CLIENTS / 10, "worst client heard " + worst + " storm frames");
            assertTrue(stormFrames <= CLIENTS * CLIENTS / 50, "storm frames in all: " + stormFrames);
        }
    }

    private static boolean lastIsMarker(SocketFleet.Member m) {
        List<String> seen = m.presence;
        synchronized (seen) {
            return !seen.isEmpty() && seen.get(seen.size() - 1).contains("\"userId\":\"marker\"");
        }
    }

    private static long total(List<SocketFleet.Member> members) {
        long n = 0;
        for (SocketFleet.Member m : members) {
            n += m.presenceFrames.get();
        }
        return n;
    }

    private static String auth(String token) {
        return "{\"token\":\"" + token + "\"}";
    }

    /** Waits for {@code condition}, failing at once when the fleet's reader failed. */
    private static void await(BooleanSupplier condition, String what, SocketFleet fleet) throws InterruptedException {
        Conditions.until(what, Duration.ofSeconds(60), () -> {
            fleet.checkReader();
            return condition.getAsBoolean();
        }, () -> "");
    }
}
