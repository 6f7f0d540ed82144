package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.svc.chat.reference.dev.DevChannel;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dev channel (docs/console.md): namespace /dev on {@value DevChannel#PATH}, an API key in the CONNECT
 * payload, a tenant's room events, connections, requests and webhook deliveries pushed to its consoles and to no
 * other tenant's; the dropped fan-out fault; redelivering a webhook.
 */
class DevChannelTest {

    private static final String ACME = "sk_test_acme_dev_channel";
    private static final String GLOBEX = "sk_test_globex_dev_channel";

    private ReferenceServer server;
    private Http http;

    @BeforeEach
    void start() {
        server = ReferenceServer.builder().tenant("acme", ACME).tenant("globex", GLOBEX).build().start();
        http = new Http(server);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aConsoleGetsItsTenantsEventsAndNeverAnotherTenants() {
        String acmeRoom = http.createRoom(ACME, "alice", "bob");
        String globexRoom = http.createRoom(GLOBEX, "alice", "bob"); // the same user ids, another tenant
        try (SocketClient acme = console(ACME); SocketClient globex = console(GLOBEX)) {
            assertEquals(201, http.sendText(http.mint(GLOBEX, "alice"), globexRoom, "g1", "globex secret").status());
            assertEquals(201, http.sendText(http.mint(ACME, "alice"), acmeRoom, "a1", "acme hello").status());
            String event = nextMatching(acme, "room-event");
            assertTrue(event.startsWith("42/dev,[\"room-event\","), event);
            assertTrue(event.contains("\"event\":\"new-message\"") && event.contains("acme hello"), event);
            assertTrue(event.contains("\"roomId\":\"" + acmeRoom + "\""), event);
            nextMatching(acme, "\"request\"");
            String theirs = nextMatching(globex, "globex secret");
            // Globex's own send was its last event; acme's, sent after it, must not have followed it there.
            assertEquals(201, http.sendText(http.mint(GLOBEX, "bob"), globexRoom, "g2", "globex marker").status());
            String frame;
            do {
                frame = globex.next();
                assertFalse(frame.contains("acme") || frame.contains(acmeRoom), "globex saw acme's " + frame);
            } while (!frame.contains("globex marker"));
            assertFalse(theirs.contains(acmeRoom));
        }
    }

    @Test
    void receiptsAndCallsReachTheChannelAndTheTailShowsThem() {
        String room = http.createRoom(ACME, "alice", "bob");
        String bob = http.mint(ACME, "bob");
        try (SocketClient acme = console(ACME)) {
            Http.Response sent = http.sendText(http.mint(ACME, "alice"), room, "r1", "read me");
            String messageId = sent.json().path("id").asText();
            assertEquals(200, http.bearer("POST", "/v1/chat/rooms/" + room + "/read", bob,
                    Map.of("messageId", messageId)).status());
            String read = nextMatching(acme, "\"event\":\"room-read\"");
            assertTrue(read.contains("\"userId\":\"bob\"") && read.contains(messageId), read);
            Http.Response call = http.bearer("POST", "/v1/chat/rooms/" + room + "/calls", bob, Map.of("kind", "audio"));
            assertEquals(201, call.status(), call.json().toString());
            nextMatching(acme, "\"event\":\"call-invite\"");
            JsonNode tail = http.apiKey("GET", "/v1/dev/rooms/" + room + "/messages", ACME, null).json();
            assertEquals("bob", tail.path("receipts").get(0).path("userId").asText(), tail.toString());
            assertEquals(1, tail.path("receipts").get(0).path("seq").asLong());
            assertEquals(call.json().path("id").asText(), tail.path("call").path("id").asText());
            assertEquals("ringing", tail.path("call").path("status").asText());
            JsonNode state = http.apiKey("GET", "/v1/dev/state", ACME, null).json();
            assertEquals("audio", state.path("rooms").get(0).path("call").path("kind").asText(), state.toString());
            // Another tenant's key sees neither the room nor its call.
            assertEquals(404, http.apiKey("GET", "/v1/dev/rooms/" + room + "/messages", GLOBEX, null).status());
        }
    }

    @Test
    void connectionsArePushedWhenTheyChange() {
        try (SocketClient acme = console(ACME);
             SocketClient alice = SocketClient.connectToken(server, http.mint(ACME, "alice"))) {
            // The first push may precede alice's handshake (then it lists none); one lists her.
            String frame = nextMatching(acme, "[\"connections\",{\"connections\":[{\"userId\":\"alice\"");
            assertTrue(frame.contains("\"transport\":\"websocket\""), frame);
        }
        try (SocketClient acme = console(ACME)) {
            // A console that connects later gets the current connections (none) without waiting for a change.
            nextMatching(acme, "[\"connections\",{\"connections\":[]}]");
        }
    }

    @Test
    void theChannelRefusesOtherCredentialsAndNamespaces() {
        try (SocketClient socket = SocketClient.openAt(channelUrl(server))) {
            socket.expectOpen();
            socket.send("40/dev,{\"token\":\"" + http.mint(ACME, "alice") + "\"}");
            assertEquals("44/dev,{\"message\":\"unauthorized\",\"data\":{\"code\":\"unauthorized\"}}", socket.next());
            socket.send("40/dev,{\"apiKey\":\"sk_test_nobody\"}");
            assertTrue(socket.next().startsWith("44/dev,"));
            socket.send("40");
            assertEquals("44{\"message\":\"Invalid namespace\"}", socket.next());
            socket.send("40/dev,{\"apiKey\":\"" + ACME + "\"}");
            assertTrue(socket.next().startsWith("40/dev,{\"sid\":"));
        }
    }

    @Test
    void offWithTheDevApiTheUpgradeIsRefused() {
        try (ReferenceServer off = ReferenceServer.builder().devApi(false).build().start()) {
            CompletionException refused = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class,
                    () -> HttpClient.newHttpClient().newWebSocketBuilder()
                            .buildAsync(URI.create(channelUrl(off)), new WebSocket.Listener() { }).join());
            assertTrue(refused.getCause() instanceof java.net.http.WebSocketHandshakeException, refused.toString());
            HttpResponse<?> answer = ((java.net.http.WebSocketHandshakeException) refused.getCause()).getResponse();
            assertEquals(403, answer.statusCode());
        }
    }

    @Test
    void aDroppedFanOutSkipsTheUsersConnectionsForTheNextEvents() {
        String room = http.createRoom(ACME, "alice", "bob");
        String aliceToken = http.mint(ACME, "alice");
        try (SocketClient bob = SocketClient.connectToken(server, http.mint(ACME, "bob"));
             SocketClient alice = SocketClient.connectToken(server, aliceToken);
             SocketClient acme = console(ACME)) {
            Http.Response drop = http.apiKey("POST", "/v1/dev/users/bob/drop-fanout", ACME, Map.of("count", 1));
            assertEquals(201, drop.status(), drop.json().toString());
            assertEquals(1, http.apiKey("GET", "/v1/dev/faults", ACME, null).json().path("fanOutDrops").size());
            // Another tenant's key sees none of it.
            assertEquals(0, http.apiKey("GET", "/v1/dev/faults", GLOBEX, null).json().path("fanOutDrops").size());
            assertEquals(201, http.sendText(aliceToken, room, "m1", "dropped for bob").status());
            assertEquals(201, http.sendText(aliceToken, room, "m2", "reaches bob").status());
            nextMatching(alice, "reaches bob"); // alice got both: only bob's fan-out was dropped
            assertEquals("42/dev,[\"fan-out-drops\",{\"fanOutDrops\":[]}]", nextMatching(acme, "fan-out-drops"));
            String frame = nextMatching(bob, "new-message");
            assertTrue(frame.contains("reaches bob") && frame.contains("\"seq\":2"), frame);
            // Stored all the same: bob finds it in history.
            JsonNode history = http.bearer("GET", "/v1/chat/rooms/" + room + "/messages", http.mint(ACME, "bob"),
                    null).json();
            assertTrue(history.toString().contains("dropped for bob"), history.toString());
            assertEquals(0, http.apiKey("GET", "/v1/dev/faults", ACME, null).json().path("fanOutDrops").size());
        }
    }

    @Test
    void aWebhookDeliveryIsListedAndRedeliveredWithTheSameId() throws Exception {
        BlockingQueue<String> ids = new LinkedBlockingQueue<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            ids.add(exchange.getRequestHeaders().getFirst("webhook-id"));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        try (SocketClient acme = console(ACME)) {
            assertEquals(200, http.apiKey("PATCH", "/v1/tenant/settings", ACME, Map.of("webhookUrl",
                    "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook")).status());
            String room = http.createRoom(ACME, "alice", "bob");
            assertEquals(201, http.sendText(http.mint(ACME, "alice"), room, "w1", "hook me").status());
            String first = ids.poll(30, TimeUnit.SECONDS);
            assertTrue(first != null && first.startsWith("msg_"), "no webhook delivered");
            String delivered = nextMatching(acme, "\"delivered\"");
            assertTrue(delivered.contains(first), delivered);
            JsonNode list = http.apiKey("GET", "/v1/dev/webhooks", ACME, null).json().path("deliveries");
            assertEquals(1, list.size(), list.toString());
            assertEquals("message.new", list.get(0).path("type").asText());
            assertEquals(1, list.get(0).path("attempts").asInt());
            // Globex can neither see nor redeliver acme's webhook.
            assertEquals(0, http.apiKey("GET", "/v1/dev/webhooks", GLOBEX, null).json().path("deliveries").size());
            assertEquals(404, http.apiKey("POST", "/v1/dev/webhooks/" + first + "/redeliver", GLOBEX, null).status());
            Http.Response again = http.apiKey("POST", "/v1/dev/webhooks/" + first + "/redeliver", ACME, null);
            assertEquals(202, again.status(), again.json().toString());
            assertEquals(first, ids.poll(30, TimeUnit.SECONDS), "the redelivery keeps the webhook-id");
            nextMatching(acme, "\"redeliveries\":1");
        } finally {
            receiver.stop(0);
        }
    }

    /** Opens the dev channel and CONNECTs to /dev with the key; expects success. */
    private SocketClient console(String apiKey) {
        SocketClient socket = SocketClient.openAt(channelUrl(server));
        JsonNode open = socket.expectOpen();
        assertEquals(List.of(), List.copyOf(iterable(open.path("upgrades"))));
        socket.send("40/dev,{\"apiKey\":\"" + apiKey + "\"}");
        String answer = socket.next();
        assertTrue(answer.startsWith("40/dev,{\"sid\":"), answer);
        return socket;
    }

    private static List<JsonNode> iterable(JsonNode array) {
        List<JsonNode> list = new java.util.ArrayList<>();
        array.forEach(list::add);
        return list;
    }

    private static String channelUrl(ReferenceServer server) {
        return "ws://127.0.0.1:" + server.port() + DevChannel.PATH + "?EIO=4&transport=websocket";
    }

    private static String nextMatching(SocketClient socket, String text) {
        long deadline = System.nanoTime() + SocketClient.EXPECTED_FRAME_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            String frame = socket.poll(Duration.ofMillis(Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            if (frame != null && frame.contains(text)) {
                return frame;
            }
        }
        throw new AssertionError("no frame with " + text);
    }
}
