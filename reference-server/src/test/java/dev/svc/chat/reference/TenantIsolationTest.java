package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tenant-isolation matrix: every route and every client event tried by one tenant ("acme") with the
 * other's ("globex") ids, and with tokens and keys crossed or re-labelled. Each answer is 404 or 401 (or,
 * for a route without ids, the caller's own data) and carries none of the other tenant's data; no event
 * crosses tenants, proven by a marker event on the same connections.
 */
class TenantIsolationTest {

    private static final String ACME_KEY = "sk_test_acme_isolation";
    private static final String GLOBEX_KEY = "sk_test_globex_isolation";
    private static final String GLOBEX_TEXT = "globex-confidential-text";

    private static ReferenceServer server;
    private static Http http;
    // acme, the caller
    private static String acmeAlice;
    private static String acmeBob;
    private static String acmeRoom;
    private static String acmeMessage;
    // globex, whose data must never show
    private static String gxBob;
    private static String gxGina;
    private static String gxRoom;
    private static String gxMessage;
    private static String gxCall;
    private static String gxWebhookSecret;
    private static List<String> globexSecrets;

    @BeforeAll
    static void start() {
        server = Backends.builder()
                .tenant("acme", ACME_KEY)
                .tenant(new TenantConfig("globex", GLOBEX_KEY, true, true, "http://127.0.0.1:9/globex-hook", null))
                .build().start();
        http = new Http(server);
        acmeRoom = http.createRoom(ACME_KEY, "alice", "bob");
        acmeAlice = http.mint(ACME_KEY, "alice");
        acmeBob = http.mint(ACME_KEY, "bob");
        acmeMessage = http.sendText(acmeAlice, acmeRoom, "a1", "acme hello").json().get("id").asText();

        http.apiKey("POST", "/v1/users", GLOBEX_KEY, Map.of("userId", "bob", "username", "Bob of Globex"));
        gxRoom = http.createRoom(GLOBEX_KEY, "bob", "gina");
        gxBob = http.mint(GLOBEX_KEY, "bob");
        gxGina = http.mint(GLOBEX_KEY, "gina");
        gxMessage = http.sendText(gxBob, gxRoom, "g1", GLOBEX_TEXT).json().get("id").asText();
        assertEquals(201, http.bearer("POST", "/v1/push/devices", gxGina,
                Map.of("token", "globex-device-token", "platform", "fcm")).status());
        http.bearer("POST", "/v1/chat/rooms/" + gxRoom + "/read", gxGina, Map.of("messageId", gxMessage));
        gxCall = http.bearer("POST", "/v1/chat/rooms/" + gxRoom + "/calls", gxBob, Map.of("kind", "audio"))
                .json().get("id").asText();
        gxWebhookSecret = http.apiKey("GET", "/v1/tenant/settings", GLOBEX_KEY, null).json()
                .get("webhookSecret").asText();
        globexSecrets = List.of(gxRoom, gxMessage, gxCall, GLOBEX_TEXT, "Bob of Globex", "globex-hook",
                gxWebhookSecret, GLOBEX_KEY, "globex-device-token", "gina");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** Asserts 404 or 401 with the contract's body and nothing of globex in it. */
    private static void assertRefused(Http.Response r, String what) {
        assertTrue(r.status() == 404 || r.status() == 401, what + ": " + r.status() + " " + r.raw().body());
        assertTrue(r.errorCode() != null, what);
        assertNothingOfGlobex(r, what);
    }

    private static void assertNothingOfGlobex(Http.Response r, String what) {
        for (String secret : globexSecrets) {
            assertFalse(r.raw().body().contains(secret), what + " leaks " + secret + ": " + r.raw().body());
        }
    }

    @Test
    void sessionRoutesWithTheOtherTenantsIds() {
        String room = "/v1/chat/rooms/" + gxRoom;
        String inAcmeRoom = "/v1/chat/rooms/" + acmeRoom;
        Map<String, Http.Response> answers = new java.util.LinkedHashMap<>();
        answers.put("history", http.bearer("GET", room + "/messages", acmeBob, null));
        answers.put("changes", http.bearer("GET", room + "/changes?since=0", acmeBob, null));
        answers.put("receipts", http.bearer("GET", room + "/receipts", acmeBob, null));
        answers.put("send", http.bearer("POST", room + "/messages", acmeBob,
                Map.of("clientMessageId", "x", "parts", List.of(Map.of("type", "text", "text", "x")))));
        answers.put("edit", http.bearer("PATCH", room + "/messages/" + gxMessage, acmeBob,
                Map.of("parts", List.of(Map.of("type", "text", "text", "x")))));
        answers.put("edit in own room", http.bearer("PATCH", inAcmeRoom + "/messages/" + gxMessage, acmeBob,
                Map.of("parts", List.of(Map.of("type", "text", "text", "x")))));
        answers.put("delete", http.bearer("DELETE", room + "/messages/" + gxMessage, acmeBob, null));
        answers.put("delete in own room", http.bearer("DELETE", inAcmeRoom + "/messages/" + gxMessage, acmeBob, null));
        answers.put("react", http.bearer("POST", room + "/messages/" + gxMessage + "/reactions", acmeBob,
                Map.of("emoji", "x")));
        answers.put("react in own room", http.bearer("POST", inAcmeRoom + "/messages/" + gxMessage + "/reactions",
                acmeBob, Map.of("emoji", "x")));
        answers.put("read", http.bearer("POST", room + "/read", acmeBob, Map.of("messageId", gxMessage)));
        answers.put("read in own room", http.bearer("POST", inAcmeRoom + "/read", acmeBob,
                Map.of("messageId", gxMessage)));
        answers.put("start call", http.bearer("POST", room + "/calls", acmeBob, Map.of("kind", "audio")));
        answers.put("active call", http.bearer("GET", room + "/calls/active", acmeBob, null));
        for (String move : List.of("accept", "decline", "end")) {
            answers.put(move, http.bearer("POST", "/v1/calls/" + gxCall + "/" + move, acmeBob, null));
        }
        // globex's token on acme's ids, the other way round
        answers.put("globex history of acme", http.bearer("GET", inAcmeRoom + "/messages", gxBob, null));
        answers.put("globex changes of acme", http.bearer("GET", inAcmeRoom + "/changes?since=0", gxBob, null));
        answers.put("globex receipts of acme", http.bearer("GET", inAcmeRoom + "/receipts", gxBob, null));
        answers.put("globex edit of acme", http.bearer("PATCH", inAcmeRoom + "/messages/" + acmeMessage, gxBob,
                Map.of("parts", List.of(Map.of("type", "text", "text", "x")))));
        answers.forEach((what, r) -> {
            assertRefused(r, what);
            assertEquals(404, r.status(), what);
        });
        // Routes without ids answer the caller's own tenant only.
        Http.Response rooms = http.bearer("GET", "/v1/chat/rooms", acmeBob, null);
        assertEquals(1, rooms.json().get("rooms").size());
        assertEquals(acmeRoom, rooms.json().get("rooms").get(0).get("id").asText());
        assertNothingOfGlobex(rooms, "list rooms");
        // globex's message, call and receipt are untouched
        JsonNode first = http.bearer("GET", room + "/messages?limit=1&after=0", gxGina, null).json().at("/messages/0");
        assertEquals(gxMessage, first.get("id").asText());
        assertEquals(GLOBEX_TEXT, first.at("/parts/0/text").asText());
        assertEquals(0, first.get("reactions").size());
        assertFalse(first.has("deletedAt"));
    }

    @Test
    void apiKeyRoutesWithTheOtherTenantsIds() {
        String room = "/v1/chat/rooms/" + gxRoom;
        assertRefused(http.apiKey("GET", "/v1/users/gina", ACME_KEY, null), "get user");
        assertRefused(http.apiKey("POST", room + "/members", ACME_KEY, Map.of("userIds", List.of("alice"))),
                "add members");
        assertRefused(http.apiKey("DELETE", room + "/members/gina", ACME_KEY, null), "remove member");
        // Same userId in both tenants: separate users, nothing of globex's shows.
        Http.Response bob = http.apiKey("GET", "/v1/users/bob", ACME_KEY, null);
        assertEquals(200, bob.status());
        assertNothingOfGlobex(bob, "acme's bob");
        Http.Response mint = http.apiKey("POST", "/v1/auth/token", ACME_KEY, Map.of("userId", "bob"));
        assertNothingOfGlobex(mint, "mint for bob");
        assertEquals("acme", claims(mint.json().get("token").asText()).get("tid").asText());
        Http.Response settings = http.apiKey("GET", "/v1/tenant/settings", ACME_KEY, null);
        assertNothingOfGlobex(settings, "settings");
        assertNotEquals(gxWebhookSecret, settings.json().get("webhookSecret").asText());
        Http.Response patched = http.apiKey("PATCH", "/v1/tenant/settings", ACME_KEY, Map.of("callsEnabled", true));
        assertNothingOfGlobex(patched, "patch settings");
        assertNothingOfGlobex(http.apiKey("GET", "/v1/push/outbox?userId=gina", ACME_KEY, null), "outbox");
        assertNothingOfGlobex(http.apiKey("GET", "/v1/push/outbox", ACME_KEY, null), "whole outbox");
        // The globex room still has its members.
        assertEquals(2, http.apiKey("POST", room + "/members", GLOBEX_KEY, Map.of("userIds", List.of("gina")))
                .json().get("memberIds").size());
    }

    @Test
    void deviceTokensStayWithTheirTenant() {
        // acme registers and unregisters a token string that globex uses: acme's own registration only.
        Http.Response registered = http.bearer("POST", "/v1/push/devices", acmeAlice,
                Map.of("token", "globex-device-token", "platform", "apns"));
        assertEquals(201, registered.status());
        assertEquals("alice", registered.json().get("userId").asText());
        assertEquals(204, http.bearer("DELETE", "/v1/push/devices/globex-device-token", acmeAlice, null).status());
        // gina (offline) still gets globex's push on her token, and acme's outbox never shows it.
        http.apiKey("DELETE", "/v1/push/outbox", GLOBEX_KEY, null);
        assertEquals(201, http.sendText(gxBob, gxRoom, "push-" + System.nanoTime(), "to gina").status());
        JsonNode pushes = http.apiKey("GET", "/v1/push/outbox?userId=gina", GLOBEX_KEY, null).json().get("pushes");
        assertEquals(1, pushes.size(), pushes.toString());
        assertTrue(pushes.toString().contains("globex-device-token"));
        assertFalse(http.apiKey("GET", "/v1/push/outbox", ACME_KEY, null).raw().body().contains("to gina"));
    }

    @Test
    void crossedAndRelabelledCredentialsAreUnauthorized() {
        String[] acme = acmeBob.split("\\.");
        String[] globex = gxBob.split("\\.");
        // acme's signature on a payload re-labelled globex, and globex's token re-labelled acme
        String relabelled = acme[0] + "." + b64(decode(acme[1]).replace("\"acme\"", "\"globex\"")) + "." + acme[2];
        String reverse = globex[0] + "." + b64(decode(globex[1]).replace("\"globex\"", "\"acme\"")) + "." + globex[2];
        // an unknown tenant
        String unknown = acme[0] + "." + b64(decode(acme[1]).replace("\"acme\"", "\"initech\"")) + "." + acme[2];
        for (String token : List.of(relabelled, reverse, unknown, GLOBEX_KEY)) {
            Http.Response r = http.bearer("GET", "/v1/chat/rooms/" + gxRoom + "/messages", token, null);
            assertEquals(401, r.status(), token);
            assertRefused(r, "relabelled token");
        }
        // A session token as an API key, an API key as a token, and a key that is not anyone's.
        assertRefused(http.send("GET", "/v1/tenant/settings", null, Map.of("x-api-key", gxBob)), "token as key");
        assertRefused(http.bearer("GET", "/v1/presence", GLOBEX_KEY, null), "key as token");
        assertRefused(http.apiKey("GET", "/v1/users/gina", "sk_test_globex_isolatioN", null), "near key");
        try (SocketClient client = SocketClient.open(server)) {
            client.expectOpen();
            for (String auth : List.of("{\"token\":\"" + relabelled + "\"}", "{\"token\":\"" + unknown + "\"}",
                    "{\"apiKey\":\"sk_test_globex_isolatioN\"}")) {
                client.send("40" + auth);
                assertEquals("44{\"message\":\"unauthorized\",\"data\":{\"code\":\"unauthorized\"}}", client.next());
            }
        }
    }

    @Test
    void noEventCrossesTenants() {
        try (SocketClient acmeUser = SocketClient.connectToken(server, acmeAlice);
             SocketClient acmeKey = SocketClient.connect(server, "{\"apiKey\":\"" + ACME_KEY + "\"}");
             SocketClient gxObserver = SocketClient.connectToken(server, gxGina);
             SocketClient gxKey = SocketClient.connect(server, "{\"apiKey\":\"" + GLOBEX_KEY + "\"}")) {
            assertTrue(acmeKey.emitWithAck(1, "join-room", "{\"roomId\":\"" + acmeRoom + "\"}").get("ok").asBoolean());
            assertTrue(gxKey.emitWithAck(1, "join-room", "{\"roomId\":\"" + gxRoom + "\"}").get("ok").asBoolean());
            assertTrue(gxObserver.emitWithAck(1, "join-room", "{\"roomId\":\"" + gxRoom + "\"}").get("ok").asBoolean());
            // acme's connections cannot join, type in or leave into globex's room
            for (SocketClient c : List.of(acmeUser, acmeKey)) {
                JsonNode join = c.emitWithAck(2, "join-room", "{\"roomId\":\"" + gxRoom + "\"}");
                assertEquals("not_found", join.at("/error/code").asText());
                assertFalse(join.toString().contains(GLOBEX_TEXT));
            }
            JsonNode typing = acmeUser.emitWithAck(3, "typing", "{\"roomId\":\"" + gxRoom + "\",\"isTyping\":true}");
            assertEquals("bad_request", typing.at("/error/code").asText());
            assertEquals("{\"ok\":true}", acmeKey.emitWithAck(4, "leave-room", "{\"roomId\":\"" + gxRoom + "\"}")
                    .toString(), "leaving a room one is not in changes nothing and says nothing");
            // globex's gina is online; acme's presence does not list her
            Http.Response presence = http.bearer("GET", "/v1/presence", acmeBob, null);
            assertEquals("[\"alice\"]", presence.json().get("online").toString());

            // Everything globex can cause, each seen by globex's own observer first.
            List<String> seen = new ArrayList<>();
            try (SocketClient gxBobSocket = SocketClient.connectToken(server, gxBob)) {
                seen.add(eventName(gxObserver)); // tenant-presence: bob online
                assertTrue(gxBobSocket.emitWithAck(1, "join-room", "{\"roomId\":\"" + gxRoom + "\"}").get("ok")
                        .asBoolean());
                gxBobSocket.emitWithAck(2, "typing", "{\"roomId\":\"" + gxRoom + "\",\"isTyping\":true}");
                seen.add(eventName(gxObserver)); // typing
                String id = http.sendText(gxBob, gxRoom, "g2", GLOBEX_TEXT).json().get("id").asText();
                seen.add(eventName(gxObserver)); // new-message
                http.bearer("PATCH", "/v1/chat/rooms/" + gxRoom + "/messages/" + id, gxBob,
                        Map.of("parts", List.of(Map.of("type", "text", "text", GLOBEX_TEXT + " edited"))));
                seen.add(eventName(gxObserver)); // message-updated
                http.bearer("POST", "/v1/chat/rooms/" + gxRoom + "/messages/" + id + "/reactions", gxBob,
                        Map.of("emoji", "+1"));
                seen.add(eventName(gxObserver));
                http.bearer("POST", "/v1/chat/rooms/" + gxRoom + "/read", gxBob, Map.of("messageId", id));
                seen.add(eventName(gxObserver)); // room-read
                http.bearer("POST", "/v1/calls/" + gxCall + "/accept", gxGina, null);
                seen.add(eventName(gxObserver)); // call-accepted
                http.bearer("POST", "/v1/calls/" + gxCall + "/end", gxBob, null);
                seen.add(eventName(gxObserver)); // call-ended
                http.bearer("DELETE", "/v1/chat/rooms/" + gxRoom + "/messages/" + id, gxBob, null);
                seen.add(eventName(gxObserver));
            }
            seen.add(eventName(gxObserver)); // tenant-presence: bob offline
            assertEquals(List.of("tenant-presence", "typing", "new-message", "message-updated", "message-updated",
                    "room-read", "call-accepted", "call-ended", "message-updated", "tenant-presence"), seen);

            // The marker: acme's next message is the first frame either acme connection gets.
            String marker = http.sendText(acmeBob, acmeRoom, "marker", "marker").json().get("id").asText();
            for (SocketClient c : List.of(acmeUser, acmeKey)) {
                JsonNode event = c.nextEvent();
                assertEquals("new-message", event.get(0).asText(), event.toString());
                assertEquals(marker, event.get(1).get("id").asText());
            }
        }
    }

    private static String eventName(SocketClient client) {
        return client.nextEvent().get(0).asText();
    }

    private static JsonNode claims(String token) {
        try {
            return Http.JSON.readTree(decode(token.split("\\.")[1]));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String decode(String part) {
        return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
    }

    private static String b64(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
