package dev.svc.chat.reference.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Claim checks that need a validly signed token, so they are made here with the tenant's secret. */
class SessionTokensTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private final byte[] secret = RandomIds.bytes(32);
    private final InMemoryStore store = new InMemoryStore();
    private final SessionTokens tokens = new SessionTokens(store, Clock.fixed(NOW, ZoneOffset.UTC));

    SessionTokensTest() {
        store.createTenant(new TenantRecord("t1", "sk_test_t1", secret), TenantSettings.defaults(true));
    }

    @Test
    void validTokenVerifies() throws Exception {
        Principal p = tokens.verify(sign(b -> { }));
        assertEquals("alice", p.userId());
        assertEquals("t1", p.tenantId());
    }

    @Test
    void everyMissingClaimIsUnauthorized() throws Exception {
        String[] claims = {"iss", "sub", "tid", "iat", "exp", "jti"};
        for (String claim : claims) {
            String token = sign(b -> b.claim(claim, null));
            ApiException e = assertThrows(ApiException.class, () -> tokens.verify(token), claim);
            assertEquals("unauthorized", e.code(), claim);
        }
    }

    @Test
    void wrongIssuerOrBadSubjectIsUnauthorized() throws Exception {
        assertEquals("unauthorized", assertThrows(ApiException.class,
                () -> tokens.verify(sign(b -> b.issuer("other")))).code());
        assertEquals("unauthorized", assertThrows(ApiException.class,
                () -> tokens.verify(sign(b -> b.subject("bad subject")))).code());
        assertEquals("unauthorized", assertThrows(ApiException.class,
                () -> tokens.verify(sign(b -> b.claim("tid", "nobody")))).code());
    }

    @Test
    void expiryIsCheckedAfterTheSignature() throws Exception {
        String expired = sign(b -> b.expirationTime(Date.from(NOW)));
        assertEquals("token_expired", assertThrows(ApiException.class, () -> tokens.verify(expired)).code());
        String[] parts = expired.split("\\.");
        char flipped = parts[2].charAt(10) == 'x' ? 'y' : 'x';
        String forged = parts[0] + "." + parts[1] + "." + parts[2].substring(0, 10) + flipped
                + parts[2].substring(11);
        assertEquals("unauthorized", assertThrows(ApiException.class, () -> tokens.verify(forged)).code());
    }

    @Test
    void otherHmacSizeIsUnauthorized() throws Exception {
        JWTClaimsSet claims = base().build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS384), claims);
        jwt.sign(new MACSigner(RandomIds.bytes(48)));
        assertEquals("unauthorized", assertThrows(ApiException.class, () -> tokens.verify(jwt.serialize())).code());
    }

    @Test
    void aVerifiedTokenIsRememberedButItsExpiryStillCounts() throws Exception {
        Instant[] now = {NOW};
        Clock moving = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now[0];
            }
        };
        SessionTokens cached = new SessionTokens(store, moving);
        String token = sign(b -> b.expirationTime(Date.from(NOW.plusSeconds(60))));
        Principal first = cached.verify(token);
        assertEquals(1, cached.rememberedTokens());
        assertSame(first, cached.verify(token), "the second use is answered from the cache");
        now[0] = NOW.plusSeconds(60);
        assertEquals("token_expired", assertThrows(ApiException.class, () -> cached.verify(token)).code());
    }

    @Test
    void refusedTokensAreNotRemembered() throws Exception {
        String token = sign(b -> { });
        String[] parts = token.split("\\.");
        String forged = parts[0] + "." + parts[1] + "." + parts[2].substring(0, 10)
                + (parts[2].charAt(10) == 'x' ? 'y' : 'x') + parts[2].substring(11);
        for (int i = 0; i < 2; i++) {
            assertEquals("unauthorized", assertThrows(ApiException.class, () -> tokens.verify(forged)).code());
        }
        String otherTenant = sign(b -> b.claim("tid", "nobody"));
        assertEquals("unauthorized", assertThrows(ApiException.class, () -> tokens.verify(otherTenant)).code());
        assertEquals(0, tokens.rememberedTokens());
        assertEquals("t1", tokens.verify(token).tenantId());
        assertEquals(1, tokens.rememberedTokens());
    }

    @Test
    void claimsFromTheFutureOrTooLongALifetimeAreUnauthorized() throws Exception {
        String[] names = {"nbf an hour ahead", "iat a day ahead", "lifetime 25 h", "lifetime 10 years",
            "iat 61 s ahead"};
        String[] bad = {
            sign(b -> b.notBeforeTime(Date.from(NOW.plusSeconds(3600)))),
            sign(b -> b.issueTime(Date.from(NOW.plusSeconds(86_400))).expirationTime(Date.from(NOW.plusSeconds(90_000)))),
            sign(b -> b.issueTime(Date.from(NOW)).expirationTime(Date.from(NOW.plusSeconds(25 * 3600)))),
            sign(b -> b.issueTime(Date.from(NOW)).expirationTime(Date.from(NOW.plusSeconds(3650L * 86_400)))),
            sign(b -> b.issueTime(Date.from(NOW.plusSeconds(61)))),
        };
        for (int i = 0; i < bad.length; i++) {
            String token = bad[i];
            assertEquals("unauthorized", assertThrows(ApiException.class, () -> tokens.verify(token), names[i])
                    .code(), names[i]);
        }
        assertEquals(0, tokens.rememberedTokens());
        // Within the skew, and exactly the longest lifetime, are accepted.
        assertEquals("alice", tokens.verify(sign(b -> b.notBeforeTime(Date.from(NOW.plusSeconds(60)))
                .issueTime(Date.from(NOW.plusSeconds(60))).expirationTime(Date.from(NOW.plusSeconds(3660))))).userId());
        assertEquals("alice", tokens.verify(sign(b -> b.issueTime(Date.from(NOW))
                .expirationTime(Date.from(NOW.plusSeconds(86_400))))).userId());
        // A mint rounds iat down and exp up, so the longest lifetime minted at a fraction of a second is 1 s more.
        assertEquals("alice", tokens.verify(sign(b -> b.issueTime(Date.from(NOW))
                .expirationTime(Date.from(NOW.plusSeconds(86_401))))).userId());
        assertEquals("unauthorized", assertThrows(ApiException.class, () -> tokens.verify(sign(b -> b.issueTime(
                Date.from(NOW)).expirationTime(Date.from(NOW.plusSeconds(86_402)))))).code());
        // A passed exp with a too long lifetime is unauthorized, not token_expired: the claims are wrong.
        String longAndExpired = sign(b -> b.issueTime(Date.from(NOW.minusSeconds(100_000)))
                .expirationTime(Date.from(NOW.minusSeconds(1))));
        assertEquals("unauthorized", assertThrows(ApiException.class, () -> tokens.verify(longAndExpired)).code());
    }

    @Test
    void onlyTheCanonicalSpellingOfATokenIsAccepted() throws Exception {
        String token = sign(b -> { });
        for (String spelling : TokenSpellings.nonCanonical(token)) {
            assertEquals("unauthorized", assertThrows(ApiException.class, () -> tokens.verify(spelling), spelling)
                    .code(), spelling);
        }
        assertEquals(0, tokens.rememberedTokens());
        assertEquals("alice", tokens.verify(token).userId());
        for (String spelling : TokenSpellings.nonCanonical(token)) {
            // Not even once the canonical one is remembered.
            assertThrows(ApiException.class, () -> tokens.verify(spelling), spelling);
        }
        assertEquals(1, tokens.rememberedTokens());
    }

    private JWTClaimsSet.Builder base() {
        return new JWTClaimsSet.Builder().issuer("svc").subject("alice").claim("tid", "t1")
                .issueTime(Date.from(NOW.minusSeconds(10))).expirationTime(Date.from(NOW.plusSeconds(3600)))
                .jwtID("j1");
    }

    private String sign(Consumer<JWTClaimsSet.Builder> change) throws Exception {
        JWTClaimsSet.Builder builder = base();
        change.accept(builder);
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), builder.build());
        jwt.sign(new MACSigner(secret));
        return jwt.serialize();
    }
}
