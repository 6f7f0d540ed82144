package dev.svc.chat.reference.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of the session token verifier ({@link SessionTokens#verify}): a token gives the principal of a
 * user of its tenant, not expired, or a 401 {@link ApiException} ({@code unauthorized} or
 * {@code token_expired}), never another exception. An input starting with {@code {} is a claims set, signed
 * here with the tenant's secret (HS256), so that the claim checks behind the signature are fuzzed too; any
 * other input is the token itself.
 */
class SessionTokensFuzzTest {
    /** The inputs' tenant and time: the committed seeds are signed with this secret and valid at this time. */
    static final byte[] SECRET = "fuzz-secret-of-tenant-t1-0123456".getBytes(StandardCharsets.US_ASCII);
    static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final String HEADER = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
    private static final Set<String> CODES = Set.of("unauthorized", "token_expired");

    @FuzzTest
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void verify(byte[] bytes) throws Exception {
        InMemoryStore store = new InMemoryStore();
        store.createTenant(new TenantRecord("t1", "sk_test_t1", SECRET), TenantSettings.defaults(true));
        SessionTokens tokens = new SessionTokens(store, Clock.fixed(NOW, ZoneOffset.UTC));
        String token = bytes.length > 0 && bytes[0] == '{' ? signed(bytes) : new String(bytes, StandardCharsets.UTF_8);
        Principal principal;
        try {
            principal = tokens.verify(token);
        } catch (ApiException e) {
            assertEquals(401, e.status(), e.getMessage());
            assertTrue(CODES.contains(e.code()), e.code());
            return;
        }
        assertEquals("t1", principal.tenantId());
        assertTrue(Inputs.isUserId(principal.userId()), principal.userId());
        assertFalse(principal.isExpiredAt(NOW), principal.toString());
        assertEquals(principal, tokens.verify(token)); // again, from the cache of verified tokens
    }

    /** Returns {@code claims} as the payload of an HS256 JWT signed with the tenant's secret. */
    static String signed(byte[] claims) throws Exception {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String input = b64.encodeToString(HEADER.getBytes(StandardCharsets.UTF_8)) + "." + b64.encodeToString(claims);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
        return input + "." + b64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
    }
}
