package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.auth.TokenSpellings;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The authentication matrix (issue 22, item 4): every REST route of the contract, and the gateway's handshake
 * followed by each of its events, against each bad credential, and every route and event that carries a body against a body naming another
 * user; each answered with the contract's error, and nothing stored. Built from two tables (routes and
 * credentials) on one server for the class; the server's clock stands still, so token times are exact.
 */
class AuthMatrixTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final String SESSION = "session";
    private static final String API_KEY = "apiKey";

    /** A route of the contract: which credential it takes, and a body that would succeed with a good one. */
    record Route(String kind, String method, String path, Object body) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /**
     * A credential as sent: REST headers and the Socket.IO CONNECT payload, and the error code expected on
     * a session-token route and on an API-key route.
     */
    record Credential(String name, Map<String, String> headers, String connectAuth, String onSession,
                      String onApiKey) {
    }

    private static ReferenceServer server;
    private static Http http;
    private static String alice;
    private static String bob;
    private static String roomId;
    private static String messageId;
    private static String otherTenantToken;
    private static String otherTenantKey;

    @BeforeAll
    static void start() {
        server = Backends.builder().clock(new MutableClock(NOW)).sendRateLimit(10_000, 10_000).build().start();
        http = new Http(server);
        roomId = http.createRoom(server.apiKey(), "alice", "bob");
        alice = http.mint(server.apiKey(), "alice");
        bob = http.mint(server.apiKey(), "bob");
        messageId = http.sendText(alice, roomId, "first", "hello").json().get("id").asText();
        TenantInfo other = server.createTenant();
        otherTenantKey = other.apiKey();
        otherTenantToken = http.mint(other.apiKey(), "alice");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static List<Route> routes() {
        String room = "/v1/chat/rooms/" + roomId;
        String msg = room + "/messages/" + messageId;
        String call = "/v1/calls/" + UUID.randomUUID();
        Map<String, Object> text = Map.of("clientMessageId", "matrix", "parts",
                List.of(Map.of("type", "text", "text", "x")));
        return List.of(
                new Route(API_KEY, "POST", "/v1/auth/token", Map.of("userId", "zed")),
                new Route(API_KEY, "POST", "/v1/users", Map.of("userId", "zed")),
                new Route(API_KEY, "GET", "/v1/users/alice", null),
                new Route(API_KEY, "POST", "/v1/chat/rooms", Map.of("memberIds", List.of("alice", "zed"))),
                new Route(API_KEY, "POST", room + "/members", Map.of("userIds", List.of("zed"))),
                new Route(API_KEY, "DELETE", room + "/members/bob", null),
                new Route(API_KEY, "GET", "/v1/tenant/settings", null),
                new Route(API_KEY, "PATCH", "/v1/tenant/settings", Map.of("callsEnabled", false)),
                new Route(SESSION, "GET", "/v1/chat/rooms", null),
                new Route(SESSION, "GET", room + "/messages", null),
                new Route(SESSION, "POST", room + "/messages", text),
                new Route(SESSION, "PATCH", msg, Map.of("parts", List.of(Map.of("type", "text", "text", "y")))),
                new Route(SESSION, "DELETE", msg, null),
                new Route(SESSION, "POST", msg + "/reactions", Map.of("emoji", "👍")),
                new Route(SESSION, "POST", room + "/read", Map.of("messageId", messageId)),
                new Route(SESSION, "GET", room + "/changes?since=0", null),
                new Route(SESSION, "GET", room + "/receipts", null),
                new Route(SESSION, "GET", "/v1/presence", null),
                new Route(SESSION, "GET", "/v1/search/messages?q=hello", null),
                new Route(SESSION, "POST", room + "/calls", Map.of("kind", "audio")),
                new Route(SESSION, "POST", call + "/accept", null),
                new Route(SESSION, "POST", call + "/decline", null),
                new Route(SESSION, "POST", call + "/end", null),
                new Route(SESSION, "GET", room + "/calls/active", null),
                new Route(SESSION, "POST", "/v1/push/devices", Map.of("token", "dev-tok-1", "platform", "fcm")),
                new Route(SESSION, "DELETE", "/v1/push/devices/dev-tok-1", null));
    }

    private static List<Credential> badCredentials() {
        byte[] secret = server.tokenSecret(server.tenantId());
        long now = NOW.getEpochSecond();
        String claims = claims(now - 10, now + 3600, null);
        String hs256 = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
        List<Credential> out = new ArrayList<>();
        out.add(new Credential("none", Map.of(), "{}", "unauthorized", "unauthorized"));
        out.add(bearer("malformed", "not.a.token"));
        out.add(new Credential("malformed key", Map.of("x-api-key", "sk_test_nope"), "{\"apiKey\":\"sk_test_nope\"}",
                "unauthorized", "unauthorized"));
        out.add(bearer("alg none", b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + b64(claims) + "."));
        out.add(bearer("HS256 keyed 'secret'", jws(hs256, claims, "secret".getBytes(StandardCharsets.UTF_8))));
        out.add(bearer("HS256 empty key", jws(hs256, claims, new byte[1]))); // HMAC pads an empty key with zeros
        out.add(bearer("kid injection", jws("{\"alg\":\"HS256\",\"kid\":\"../../../../dev/null\"}", claims,
                new byte[1])));
        out.add(bearer("jwk injection", jws("{\"alg\":\"HS256\",\"jwk\":{\"kty\":\"oct\",\"k\":\"c2VjcmV0\"}}",
                claims, "secret".getBytes(StandardCharsets.UTF_8))));
        out.add(bearer("another tenant's token relabelled", relabelled(otherTenantToken, "dev")));
        out.add(new Credential("API key as bearer", Map.of("Authorization", "Bearer " + server.apiKey()),
                "{\"token\":\"" + server.apiKey() + "\"}", "unauthorized", "unauthorized"));
        out.add(new Credential("API key on a session route", Map.of("x-api-key", server.apiKey()), null,
                "unauthorized", null));
        out.add(new Credential("session token on an API-key route", Map.of("Authorization", "Bearer " + alice),
                null, null, "unauthorized"));
        out.add(expectOnSession(bearer("expired", jws(hs256, claims(now - 7200, now - 3600, null), secret)),
                "token_expired"));
        out.add(bearer("nbf an hour ahead", jws(hs256, claims(now - 10, now + 3600, now + 3600), secret)));
        out.add(bearer("iat a day ahead", jws(hs256, claims(now + 86_400, now + 90_000, null), secret)));
        out.add(bearer("lifetime 25 h", jws(hs256, claims(now, now + 25 * 3600, null), secret)));
        out.add(bearer("lifetime 10 years", jws(hs256, claims(now, now + 3650L * 86_400, null), secret)));
        String good = jws(hs256, claims, secret);
        int i = 0;
        for (String spelling : TokenSpellings.nonCanonical(good)) {
            out.add(bearer("non-canonical spelling " + i++, spelling));
        }
        return out;
    }

    @Test
    void everyRouteRefusesEveryBadCredentialAndStoresNothing() {
        String before = snapshot();
        List<String> wrong = new ArrayList<>();
        int cases = 0;
        for (Route route : routes()) {
            for (Credential credential : badCredentials()) {
                String expected = SESSION.equals(route.kind()) ? credential.onSession() : credential.onApiKey();
                if (expected == null) {
                    continue; // the right kind of credential for this route
                }
                cases++;
                Http.Response r = http.send(route.method(), route.path(),
                        route.body() == null ? null : Http.toJson(route.body()), credential.headers());
                if (!isError(r, 401, expected)) {
                    wrong.add(route + " with " + credential.name() + ": " + r.status() + " " + r.json());
                }
            }
        }
        assertNoneWrong(wrong, cases);
        assertEquals(before, snapshot(), "nothing stored");
        assertNoDeviceRegistered();
    }

    @Test
    void anotherTenantsCredentialsCannotReachThisTenantsRooms() {
        String before = snapshot();
        List<String> wrong = new ArrayList<>();
        for (Route route : routes()) {
            if (!route.path().contains(roomId)) {
                continue; // elsewhere another tenant's credential acts in its own tenant, as it should
            }
            Map<String, String> headers = SESSION.equals(route.kind())
                    ? Map.of("Authorization", "Bearer " + otherTenantToken) : Map.of("x-api-key", otherTenantKey);
            Http.Response r = http.send(route.method(), route.path(),
                    route.body() == null ? null : Http.toJson(route.body()), headers);
            if (!isError(r, 404, "not_found")) {
                wrong.add(route + ": " + r.status() + " " + r.json());
            }
        }
        assertNoneWrong(wrong, -1);
        assertEquals(before, snapshot(), "nothing stored");
        assertNoDeviceRegistered();
    }

    @Test
    void theGatewayRefusesEveryBadCredentialWithConnectError() {
        String before = snapshot();
        String parts = "\"parts\":[{\"type\":\"text\",\"text\":\"x\"}],\"clientMessageId\":\"ws-refused\"";
        // After the refusal each event of the contract is tried in turn: the connection has no session, so the
        // server closes it (Socket.IO's "invalid state") without an ack, and the event does nothing.
        List<String> events = List.of(
                "42[\"send-message\",{\"roomId\":\"" + roomId + "\"," + parts + "}]",
                "42[\"join-room\",{\"roomId\":\"" + roomId + "\"}]",
                "42[\"typing\",{\"roomId\":\"" + roomId + "\",\"isTyping\":true}]",
                "42[\"leave-room\",{\"roomId\":\"" + roomId + "\"}]");
        int tried = 0;
        List<String> wrong = new ArrayList<>();
        List<Credential> credentials = new ArrayList<>(badCredentials());
        credentials.add(new Credential("another tenant's key, relabelled", Map.of(),
                "{\"apiKey\":\"" + otherTenantKey + "x\"}", "unauthorized", "unauthorized"));
        credentials.add(new Credential("no object", Map.of(), "", "unauthorized", "unauthorized"));
        for (Credential credential : credentials) {
            if (credential.connectAuth() == null) {
                continue;
            }
            try (SocketClient client = SocketClient.open(server)) {
                client.expectOpen();
                client.send("40" + credential.connectAuth());
                String answer = client.poll(SocketClient.EXPECTED_FRAME_DEADLINE);
                if (answer == null) {
                    wrong.add(credential.name() + ": no answer within " + SocketClient.EXPECTED_FRAME_DEADLINE + "; "
                            + client.state());
                    continue;
                }
                String expected = credential.onSession();
                String want = "44{\"message\":\"" + expected + "\",\"data\":{\"code\":\"" + expected + "\"}}";
                if (!want.equals(answer)) {
                    wrong.add(credential.name() + ": " + answer);
                }
                String event = events.get(tried++ % events.size());
                client.send(event.replace("42[", "421["));
                client.awaitClose();
            }
        }
        assertNoneWrong(wrong, -1);
        assertEquals(before, snapshot(), "nothing stored");
    }

    @Test
    void aBodyNamingAnotherUserIsForbiddenOnEveryRouteAndEvent() {
        String before = snapshot();
        List<String> wrong = new ArrayList<>();
        for (Route route : routes()) {
            if (!SESSION.equals(route.kind()) || route.body() == null) {
                continue;
            }
            for (String field : List.of("userId", "senderId")) {
                Map<String, Object> body = new LinkedHashMap<>(castMap(route.body()));
                body.put(field, "bob");
                Http.Response r = http.bearer(route.method(), route.path(), alice, body);
                if (!isError(r, 403, "forbidden") || !"Cannot act as another user".equals(r.errorMessage())) {
                    wrong.add(route + " with " + field + ": " + r.status() + " " + r.json());
                }
            }
        }
        // Validation comes before permission (contract, section 1): a bad field and another user is a 400.
        Http.Response invalid = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", alice,
                Map.of("userId", "bob"));
        assertTrue(isError(invalid, 400, "bad_request"), invalid.status() + " " + invalid.json());
        // Existence comes before permission too: another user in a body about an unknown room is a 404.
        for (Route route : routes()) {
            if (!SESSION.equals(route.kind()) || route.body() == null || !route.path().contains(roomId)) {
                continue;
            }
            Map<String, Object> body = new LinkedHashMap<>(castMap(route.body()));
            body.put("userId", "bob");
            String unknownRoom = route.path().replace(roomId, "00000000-0000-4000-8000-000000000000");
            Http.Response r = http.bearer(route.method(), unknownRoom, alice, body);
            if (!isError(r, 404, "not_found")) {
                wrong.add(route + " in an unknown room with userId: " + r.status() + " " + r.json());
            }
        }
        String parts = "\"parts\":[{\"type\":\"text\",\"text\":\"x\"}],\"clientMessageId\":\"ws-matrix\"";
        Map<String, String> events = Map.of(
                "join-room", "\"roomId\":\"" + roomId + "\"",
                "leave-room", "\"roomId\":\"" + roomId + "\"",
                "typing", "\"roomId\":\"" + roomId + "\",\"isTyping\":true",
                "send-message", "\"roomId\":\"" + roomId + "\"," + parts);
        try (SocketClient client = SocketClient.connectToken(server, alice)) {
            int ack = 1;
            for (Map.Entry<String, String> event : events.entrySet()) {
                for (String field : List.of("userId", "senderId")) {
                    JsonNode answer = client.emitWithAck(ack++, event.getKey(),
                            "{" + event.getValue() + ",\"" + field + "\":\"bob\"}");
                    if (answer.path("ok").asBoolean(true)
                            || !"forbidden".equals(answer.path("error").path("code").asText())
                            || !"Cannot act as another user".equals(answer.path("error").path("message").asText())) {
                        wrong.add(event.getKey() + " with " + field + ": " + answer);
                    }
                }
            }
            // Naming oneself is fine.
            assertTrue(client.emitWithAck(ack, "join-room", "{\"roomId\":\"" + roomId + "\",\"userId\":\"alice\"}")
                    .path("ok").asBoolean(), "naming oneself");
        }
        assertNoneWrong(wrong, -1);
        assertEquals(before, snapshot(), "nothing stored");
        assertNoDeviceRegistered();
    }

    @Test
    void duplicateKeysAreBadRequestAndStoreNothing() {
        String before = snapshot();
        Http.Response send = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/messages", alice,
                "{\"senderId\":\"bob\",\"senderId\":\"alice\",\"clientMessageId\":\"dup\","
                        + "\"parts\":[{\"type\":\"text\",\"text\":\"x\"}]}");
        assertTrue(isError(send, 400, "bad_request"), send.status() + " " + send.json());
        assertEquals("Duplicate field name in a JSON object", send.errorMessage());
        Http.Response user = http.apiKey("POST", "/v1/users", server.apiKey(),
                "{\"userId\":\"zed\",\"userId\":\"zed\"}");
        assertTrue(isError(user, 400, "bad_request"), user.status() + " " + user.json());
        Http.Response read = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", alice,
                "{\"messageId\":\"" + messageId + "\",\"userId\":\"bob\",\"userId\":\"alice\"}");
        assertTrue(isError(read, 400, "bad_request"), read.status() + " " + read.json());
        Http.Response number = http.bearer("POST", "/v1/chat/rooms/" + roomId + "/read", alice,
                "{\"messageId\":\"" + messageId + "\",\"n\":" + "9".repeat(5_000) + "}");
        assertTrue(isError(number, 400, "bad_request"), number.status() + " " + number.json());
        assertEquals("JSON number longer than 1000 characters", number.errorMessage());
        assertEquals(before, snapshot(), "nothing stored");
        assertNoDeviceRegistered();
    }

    private static void assertNoneWrong(List<String> wrong, int cases) {
        assertTrue(wrong.isEmpty(), wrong.size() + " wrong" + (cases > 0 ? " of " + cases : "") + ", the first: "
                + wrong.subList(0, Math.min(wrong.size(), 8)));
    }

    /** Returns whether {@code r} is exactly the contract's error: status, code, and a body of that shape only. */
    private static boolean isError(Http.Response r, int status, String code) {
        JsonNode error = r.json().path("error");
        return r.status() == status && r.json().size() == 1 && error.size() == 2
                && code.equals(error.path("code").asText()) && error.path("message").isTextual();
    }

    /** What the routes could have changed, read with good credentials. */
    private static String snapshot() {
        String room = "/v1/chat/rooms/" + roomId;
        StringBuilder s = new StringBuilder();
        s.append(http.bearer("GET", room + "/messages", alice, null).json());
        s.append(http.bearer("GET", room + "/receipts", alice, null).json());
        s.append(http.bearer("GET", "/v1/chat/rooms", alice, null).json());
        s.append(http.bearer("GET", room + "/calls/active", alice, null).status());
        s.append(http.apiKey("GET", "/v1/tenant/settings", server.apiKey(), null).json());
        s.append(http.apiKey("GET", "/v1/users/zed", server.apiKey(), null).status());
        s.append(http.apiKey("GET", "/v1/users/bob", server.apiKey(), null).json());
        return s.toString();
    }

    /** Asserts that alice has no device: a message to her while offline would be pushed to one. */
    private static void assertNoDeviceRegistered() {
        String probe = "probe-" + UUID.randomUUID();
        assertEquals(201, http.sendText(bob, roomId, probe, "probe").status());
        assertEquals(0, http.apiKey("GET", "/v1/push/outbox?userId=alice", server.apiKey(), null).json()
                .path("pushes").size(), "pushes to a device of alice");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object body) {
        return (Map<String, Object>) body;
    }

    private static Credential bearer(String name, String token) {
        return new Credential(name, Map.of("Authorization", "Bearer " + token),
                "{\"token\":\"" + token + "\"}", "unauthorized", "unauthorized");
    }

    private static Credential expectOnSession(Credential c, String code) {
        return new Credential(c.name(), c.headers(), c.connectAuth(), code, c.onApiKey());
    }

    private static String claims(long iat, long exp, Long nbf) {
        return "{\"iss\":\"svc\",\"sub\":\"alice\",\"tid\":\"dev\",\"iat\":" + iat + ",\"exp\":" + exp
                + (nbf != null ? ",\"nbf\":" + nbf : "") + ",\"jti\":\"" + UUID.randomUUID() + "\"}";
    }

    /** Another tenant's token with its {@code tid} changed to {@code tid}, keeping its signature. */
    private static String relabelled(String otherToken, String tid) {
        String[] parts = otherToken.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replaceAll("\"tid\":\"[^\"]*\"", "\"tid\":\"" + tid + "\"");
        return parts[0] + "." + b64(payload) + "." + parts[2];
    }

    private static String jws(String header, String claims, byte[] key) {
        String signingInput = b64(header) + "." + b64(claims);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] sig = mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(sig);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String b64(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
