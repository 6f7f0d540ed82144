package dev.svc.chat.reference.auth;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The users whose sessions were expired on demand (the dev API's {@code expire-sessions}): a token of such a
 * user minted before the cut is refused as expired. Token times are whole seconds, so a token issued in the
 * cut's own second is told apart by its {@code jti}: those minted after the cut in that second are noted at
 * mint and spared. Held in memory by this server only.
 */
final class SessionRevocations {

    private record Cut(Instant at, Set<String> sparedJtis) {
    }

    private final Map<String, Cut> cuts = new ConcurrentHashMap<>();

    /** Refuses every token of the user minted up to {@code now}. */
    void expireAll(String tenantId, String userId, Instant now) {
        cuts.put(key(tenantId, userId), new Cut(now, ConcurrentHashMap.newKeySet()));
    }

    /** Notes a token minted at {@code mintedAt} (its iat is that instant's second) after a cut in the same second. */
    void minted(String tenantId, String userId, Instant mintedAt, String jti) {
        if (cuts.isEmpty()) {
            return;
        }
        Cut cut = cuts.get(key(tenantId, userId));
        if (cut != null && !mintedAt.isBefore(cut.at())
                && mintedAt.truncatedTo(ChronoUnit.SECONDS).equals(cut.at().truncatedTo(ChronoUnit.SECONDS))) {
            cut.sparedJtis().add(jti);
        }
    }

    /** Returns whether the user has had a cut (the fast path of every verification is an empty map). */
    boolean hasCut(String tenantId, String userId) {
        return !cuts.isEmpty() && cuts.containsKey(key(tenantId, userId));
    }

    /** Returns whether a token issued at {@code issuedAt} with {@code jti} was minted before the user's cut. */
    boolean isRevoked(String tenantId, String userId, Instant issuedAt, String jti) {
        Cut cut = cuts.get(key(tenantId, userId));
        if (cut == null) {
            return false;
        }
        Instant cutSecond = cut.at().truncatedTo(ChronoUnit.SECONDS);
        if (issuedAt.isBefore(cutSecond)) {
            return true;
        }
        return issuedAt.equals(cutSecond) && !cut.sparedJtis().contains(jti);
    }

    private static String key(String tenantId, String userId) {
        return tenantId + '\u0000' + userId;
    }
}
