package dev.svc.chat.reference.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.store.Store;
import dev.svc.chat.reference.store.TenantRecord;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.UUID;

/**
 * Mints and verifies session tokens: JWT, HS256 only, one secret per tenant. Verification checks the
 * spelling first (one canonical unpadded base64url spelling per token, {@link CanonicalJws}), then the
 * signature, then the claims and their times ({@link TokenTimes}), and the expiry last, so a forged token is
 * {@code unauthorized} even when also expired.
 */
public final class SessionTokens {

    /** The {@code iss} claim of every token. */
    public static final String ISSUER = "svc";

    private final Store store;
    private final Clock clock;
    private final VerifiedTokens verified = new VerifiedTokens();
    private final SessionRevocations revocations = new SessionRevocations();

    /** Creates a token service over the tenants of {@code store}, telling time by {@code clock}. */
    public SessionTokens(Store store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /**
     * A minted token.
     *
     * @param token the compact JWT
     * @param expiresAt its {@code exp}
     */
    public record Minted(String token, Instant expiresAt) {
        /** Hides the token: it must never reach a log. */
        @Override
        public String toString() {
            return "Minted[expiresAt=" + expiresAt + "]";
        }
    }

    /** Mints a token for {@code userId} of {@code tenant}, valid {@code expiresInSeconds} from now. */
    public Minted mint(TenantRecord tenant, String userId, String name, int expiresInSeconds) {
        // JWT times are whole seconds: iat is rounded down and exp up, so a token never expires earlier than
        // asked (a 2 s token minted at .9 s would otherwise have lived 1.1 s); expiresAt equals the exp claim.
        Instant now = clock.instant();
        Instant issuedAt = now.truncatedTo(ChronoUnit.SECONDS);
        Instant asked = now.plusSeconds(expiresInSeconds);
        Instant expiresAt = asked.equals(asked.truncatedTo(ChronoUnit.SECONDS)) ? asked
                : asked.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .subject(userId)
                .claim("tid", tenant.id())
                .issueTime(Date.from(issuedAt))
                .expirationTime(Date.from(expiresAt))
                .jwtID(UUID.randomUUID().toString());
        if (name != null) {
            claims.claim("name", name);
        }
        JWTClaimsSet claimSet = claims.build();
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.HS256).type(JOSEObjectType.JWT).build(), claimSet);
        try {
            jwt.sign(new MACSigner(tenant.jwtSecret()));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign", e);
        }
        revocations.minted(tenant.id(), userId, now, claimSet.getJWTID());
        return new Minted(jwt.serialize(), expiresAt);
    }

    /**
     * Expires every token of the user minted up to now (the dev API): each is then refused as
     * {@code token_expired}, as if its {@code exp} had come; tokens minted afterwards are valid.
     */
    public void expireSessions(String tenantId, String userId) {
        revocations.expireAll(tenantId, userId, clock.instant());
    }

    /**
     * Returns the principal of a token that is valid now, or that was valid when last verified (expired or
     * revoked since), else null: who made a request, for the dev request log. Never throws.
     */
    public Principal identify(String token) {
        if (token == null) {
            return null;
        }
        Principal known = verified.get(token);
        if (known != null) {
            return known;
        }
        try {
            return verify(token);
        } catch (ApiException e) {
            return null;
        }
    }

    /**
     * Returns the principal of a valid token, else throws 401 {@code unauthorized} (anything wrong with it)
     * or 401 {@code token_expired} (well signed, complete, but {@code exp <= now}). A token verified before
     * is not parsed nor HMAC-checked again (a bounded cache), but its expiry is checked on every call.
     */
    public Principal verify(String token) {
        if (token != null && token.startsWith("sk_")) {
            throw ApiException.wrongCredential(false);
        }
        if (token == null || token.isEmpty()) {
            throw ApiException.unauthorized();
        }
        Principal known = verified.get(token);
        if (known != null) {
            if (known.isExpiredAt(clock.instant())) {
                throw ApiException.tokenExpired();
            }
            checkNotRevoked(known, token);
            return known;
        }
        Principal principal = verifyFully(token);
        verified.put(token, principal);
        checkNotRevoked(principal, token);
        return principal;
    }

    /** Throws 401 {@code token_expired} for a token minted before its user's sessions were expired. */
    private void checkNotRevoked(Principal principal, String token) {
        if (!revocations.hasCut(principal.tenantId(), principal.userId())) {
            return;
        }
        try {
            JWTClaimsSet claims = SignedJWT.parse(token).getJWTClaimsSet(); // verified already: only read
            if (revocations.isRevoked(principal.tenantId(), principal.userId(),
                    claims.getIssueTime().toInstant(), claims.getJWTID())) {
                throw ApiException.tokenExpired();
            }
        } catch (ParseException e) {
            throw ApiException.unauthorized();
        }
    }

    /** Returns how many verified tokens are remembered (tests). */
    int rememberedTokens() {
        return verified.size();
    }

    private Principal verifyFully(String token) {
        if (!CanonicalJws.isCanonical(token)) {
            throw ApiException.unauthorized();
        }
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            // Only HS256: "none", other HMAC sizes and every asymmetric algorithm are refused.
            if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm())) {
                throw ApiException.unauthorized();
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            String tenantId = claims.getStringClaim("tid");
            if (tenantId == null) {
                throw ApiException.unauthorized();
            }
            TenantRecord tenant = store.tenant(tenantId).orElseThrow(ApiException::unauthorized);
            if (!jwt.verify(new MACVerifier(tenant.jwtSecret()))) {
                throw ApiException.unauthorized();
            }
            String subject = claims.getSubject();
            Date issuedAt = claims.getIssueTime();
            Date expiresAt = claims.getExpirationTime();
            if (!ISSUER.equals(claims.getIssuer()) || !Inputs.isUserId(subject) || issuedAt == null
                    || expiresAt == null || claims.getJWTID() == null) {
                throw ApiException.unauthorized();
            }
            Instant now = clock.instant();
            TokenTimes.check(claims.getNotBeforeTime(), issuedAt, expiresAt, now);
            Principal principal = new Principal(tenant, subject, expiresAt.toInstant());
            if (principal.isExpiredAt(now)) {
                throw ApiException.tokenExpired();
            }
            return principal;
        } catch (ParseException | JOSEException | RuntimeException e) {
            if (e instanceof ApiException) {
                throw (ApiException) e;
            }
            throw ApiException.unauthorized();
        }
    }
}
