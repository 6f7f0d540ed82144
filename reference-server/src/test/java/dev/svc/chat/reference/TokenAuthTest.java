package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Minting, and which credentials each kind of route accepts. */
class TokenAuthTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00.250Z"));
    private ReferenceServer server;
    private Http http;

    @BeforeEach
    void start() {
        server = Backends.builder().clock(clock).build().start();
        http = new Http(server);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void mintUsesDefaultExpiryAndAnswersTheContractShape() {
        Http.Response r = http.apiKey("POST", "/v1/auth/token", server.apiKey(),
                Map.of("userId", "alice", "username", "Alice"));
        assertEquals(200, r.status());
        assertEquals("alice", r.json().get("userId").asText());
        assertEquals("Alice", r.json().get("username").asText());
        // exp is a whole second, rounded up: the token lives at least the 3600 s asked (minted at 10:00:00.250)
        assertEquals("2026-11-21T11:00:01.000Z", r.json().get("expiresAt").asText());
        assertEquals(server.apiUrl(), r.json().get("apiUrl").asText());
        JsonNode claims = claims(r.json().get("token").asText());
        assertEquals("svc", claims.get("iss").asText());
        assertEquals("alice", claims.get("sub").asText());
        assertEquals("dev", claims.get("tid").asText());
        assertEquals("Alice", claims.get("name").asText());
        assertEquals(claims.get("iat").asLong() + 3601, claims.get("exp").asLong());
        assertTrue(claims.hasNonNull("jti"));
        // The minted user exists now.
        Http.Response user = http.apiKey("GET", "/v1/users/alice", server.apiKey(), null);
        assertEquals(200, user.status());
        assertEquals("Alice", user.json().get("username").asText());
        assertEquals("2026-11-21T10:00:00.250Z", user.json().get("createdAt").asText());
    }

    @Test
    void mintWithoutUsernameOmitsIt() {
        Http.Response r = http.apiKey("POST", "/v1/auth/token", server.apiKey(), Map.of("userId", "bob"));
        assertEquals(200, r.status());
        assertFalse(r.json().has("username"));
        assertFalse(claims(r.json().get("token").asText()).has("name"));
    }

    @Test
    void mintRefusesBadExpiresIn() {
        for (Object bad : new Object[] {86401, 0, -5, 1.5, "60"}) {
            Http.Response r = http.apiKey("POST", "/v1/auth/token", server.apiKey(),
                    Map.of("userId", "alice", "expiresIn", bad));
            assertEquals(400, r.status(), "expiresIn " + bad);
            assertEquals("bad_request", r.errorCode());
        }
        Http.Response max = http.apiKey("POST", "/v1/auth/token", server.apiKey(),
                Map.of("userId", "alice", "expiresIn", 86400));
        assertEquals(200, max.status());
        // minted at 10:00:00.250: exp rounded up to the second, and the token with it is accepted
        assertEquals("2026-11-22T10:00:01.000Z", max.json().get("expiresAt").asText());
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", max.json().get("token").asText(), null).status());
    }

    @Test
    void mintRefusesBadUserIds() {
        for (String bad : new String[] {"", "has space", "x".repeat(129), "é"}) {
            Http.Response r = http.apiKey("POST", "/v1/auth/token", server.apiKey(), Map.of("userId", bad));
            assertEquals(400, r.status(), "userId " + bad);
        }
        assertEquals(200, http.apiKey("POST", "/v1/auth/token", server.apiKey(),
                Map.of("userId", "A-z_0.9@x:y")).status());
    }

    @Test
    void mintWithoutAutoCreateNeedsTheUserFirst() {
        Http.Response patch = http.apiKey("PATCH", "/v1/tenant/settings", server.apiKey(),
                Map.of("autoCreateUsers", false));
        assertEquals(200, patch.status());
        assertFalse(patch.json().get("autoCreateUsers").asBoolean());
        assertTrue(patch.json().get("callsEnabled").asBoolean());
        assertFalse(patch.json().has("webhookUrl"));

        Http.Response first = http.apiKey("POST", "/v1/auth/token", server.apiKey(), Map.of("userId", "carol"));
        assertEquals(404, first.status());
        assertEquals("user_not_found", first.errorCode());

        Http.Response upsert = http.apiKey("POST", "/v1/users", server.apiKey(),
                Map.of("userId", "carol", "username", "Carol"));
        assertEquals(200, upsert.status());
        assertEquals("carol", upsert.json().get("userId").asText());

        Http.Response second = http.apiKey("POST", "/v1/auth/token", server.apiKey(), Map.of("userId", "carol"));
        assertEquals(200, second.status());
        assertEquals("Carol", second.json().get("username").asText());
    }

    @Test
    void autoCreateOffFromTheBuilder() {
        try (ReferenceServer strict = Backends.builder().autoCreateUsers(false).build().start()) {
            Http strictHttp = new Http(strict);
            Http.Response r = strictHttp.apiKey("POST", "/v1/auth/token", strict.apiKey(), Map.of("userId", "x"));
            assertEquals("user_not_found", r.errorCode());
        }
    }

    @Test
    void apiKeyRoutesRefuseSessionTokensAndBadKeys() {
        String token = http.mint(server.apiKey(), "alice");
        Http.Response withToken = http.bearer("POST", "/v1/auth/token", token, Map.of("userId", "alice"));
        assertEquals(401, withToken.status());
        assertEquals("unauthorized", withToken.errorCode());
        assertEquals("This route takes an API key (x-api-key: sk_...); a session token was given",
                withToken.json().get("error").get("message").asText());
        assertEquals(401, http.bearer("GET", "/v1/tenant/settings", token, null).status());
        assertEquals(401, http.send("GET", "/v1/tenant/settings", null, Map.of()).status());
        Http.Response wrongKey = http.apiKey("GET", "/v1/tenant/settings", "sk_test_nope", null);
        assertEquals(401, wrongKey.status());
        assertEquals("unauthorized", wrongKey.errorCode());
        // 401 comes before the 400 of a malformed body.
        Http.Response malformed = http.send("POST", "/v1/users", "{nope", Map.of());
        assertEquals(401, malformed.status());
    }

    @Test
    void sessionRoutesRefuseApiKeysAndBadTokens() {
        String token = http.mint(server.apiKey(), "alice");
        TenantInfo other = server.createTenant();
        String otherTenantToken = http.mint(other.apiKey(), "alice");
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", token, null).status());
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", otherTenantToken, null).status());

        String[] parts = token.split("\\.");
        String tamperedPayload = b64(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("\"alice\"", "\"mallory\""));
        String algNone = b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + parts[1] + ".";
        String hs512 = b64("{\"alg\":\"HS512\",\"typ\":\"JWT\"}") + "." + parts[1] + "." + parts[2];
        // The other tenant's token re-labelled for the dev tenant: signed with the wrong secret.
        String[] o = otherTenantToken.split("\\.");
        String crossTenant = o[0] + "." + b64(new String(Base64.getUrlDecoder().decode(o[1]),
                StandardCharsets.UTF_8).replace("\"" + other.id() + "\"", "\"dev\"")) + "." + o[2];
        String[] bad = {
            parts[0] + "." + parts[1] + "." + flip(parts[2]),
            parts[0] + "." + tamperedPayload + "." + parts[2],
            algNone, hs512, crossTenant, "garbage", "a.b.c", server.apiKey(), ""
        };
        for (String candidate : bad) {
            Http.Response r = http.bearer("GET", "/v1/chat/rooms", candidate, null);
            assertEquals(401, r.status(), candidate);
            assertEquals("unauthorized", r.errorCode(), candidate);
        }
        Http.Response apiKeyHeader = http.apiKey("GET", "/v1/chat/rooms", server.apiKey(), null);
        assertEquals(401, apiKeyHeader.status());
        assertEquals("unauthorized", apiKeyHeader.errorCode());
        assertEquals("This route takes a session token (Authorization: Bearer ...); an API key was given",
                apiKeyHeader.json().get("error").get("message").asText());
        Http.Response apiKeyAsBearer = http.bearer("GET", "/v1/chat/rooms", server.apiKey(), null);
        assertEquals("This route takes a session token (Authorization: Bearer ...); an API key was given",
                apiKeyAsBearer.json().get("error").get("message").asText());
        assertEquals(401, http.send("GET", "/v1/chat/rooms", null, Map.of()).status());
        assertEquals(401, http.send("GET", "/v1/chat/rooms", null, Map.of("Authorization", "Basic x")).status());
    }

    @Test
    void expiredTokenIsTokenExpiredButForgedExpiredIsUnauthorized() {
        Http.Response minted = http.apiKey("POST", "/v1/auth/token", server.apiKey(),
                Map.of("userId", "alice", "expiresIn", 60));
        String token = minted.json().get("token").asText();
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", token, null).status());
        clock.advance(Duration.ofSeconds(59));
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", token, null).status());
        clock.advance(Duration.ofSeconds(1)); // 60 s after minting: exp, rounded up, is 750 ms later
        assertEquals(200, http.bearer("GET", "/v1/chat/rooms", token, null).status());
        clock.advance(Duration.ofMillis(750));
        Http.Response expired = http.bearer("GET", "/v1/chat/rooms", token, null);
        assertEquals(401, expired.status());
        assertEquals("token_expired", expired.errorCode());
        assertEquals("The session token has expired", expired.json().get("error").get("message").asText());
        String[] parts = token.split("\\.");
        String forged = parts[0] + "." + parts[1] + "." + flip(parts[2]);
        assertEquals("unauthorized", http.bearer("GET", "/v1/chat/rooms", forged, null).errorCode());
    }

    @Test
    void tokenDifferingOnlyInLetterCaseIsUnauthorizedOnTheSameConnection() {
        // Regression: Jetty's per-connection header cache is case-insensitive unless configured otherwise.
        String token = http.mint(server.apiKey(), "alice");
        String[] parts = token.split("\\.");
        int i = 0;
        while (!Character.isLetter(parts[2].charAt(i))) {
            i++;
        }
        char c = parts[2].charAt(i);
        char swapped = Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
        String caseFlipped = parts[0] + "." + parts[1] + "." + parts[2].substring(0, i) + swapped
                + parts[2].substring(i + 1);
        for (int round = 0; round < 3; round++) {
            assertEquals(200, http.bearer("GET", "/v1/chat/rooms", token, null).status());
            assertEquals(401, http.bearer("GET", "/v1/chat/rooms", caseFlipped, null).status());
        }
    }

    @Test
    void tenantsHaveDistinctKeysAndIds() {
        TenantInfo a = server.createTenant();
        TenantInfo b = server.createTenant();
        assertNotEquals(a.id(), b.id());
        assertNotEquals(a.apiKey(), b.apiKey());
        assertTrue(a.apiKey().startsWith("sk_test_"));
        assertTrue(server.apiKey().matches("sk_test_[A-Za-z0-9]{32}"));
        assertEquals("dev", server.tenantId());
        assertFalse(a.toString().contains(a.apiKey()));
    }

    private static JsonNode claims(String token) {
        try {
            return Http.JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Changes one character in the middle of a signature (never at the end, whose low bits may be unused). */
    private static String flip(String signature) {
        char c = signature.charAt(5) == 'A' ? 'B' : 'A';
        return signature.substring(0, 5) + c + signature.substring(6);
    }

    private static String b64(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aTokenLivesAtLeastTheSecondsAsked() {
        for (long millis : new long[] {0, 1, 250, 900, 999}) {
            // to the next whole second, then millis into it
            clock.advance(Duration.ofNanos(1_000_000_000L - clock.instant().getNano()).plusMillis(millis));
            Instant minted = clock.instant();
            Http.Response r = http.apiKey("POST", "/v1/auth/token", server.apiKey(),
                    Map.of("userId", "alice", "expiresIn", 2));
            String token = r.json().get("token").asText();
            Instant expiresAt = Instant.parse(r.json().get("expiresAt").asText());
            assertTrue(!expiresAt.isBefore(minted.plusSeconds(2)), minted + " -> " + expiresAt);
            assertTrue(expiresAt.isBefore(minted.plusSeconds(3)), minted + " -> " + expiresAt);
            assertEquals(expiresAt.getEpochSecond(), claims(token).get("exp").asLong());
            clock.advance(Duration.ofMillis(1999));
            assertEquals(200, http.bearer("GET", "/v1/chat/rooms", token, null).status(), minted.toString());
            clock.advance(Duration.between(clock.instant(), expiresAt));
            assertEquals("token_expired", http.bearer("GET", "/v1/chat/rooms", token, null).errorCode());
        }
    }
}
