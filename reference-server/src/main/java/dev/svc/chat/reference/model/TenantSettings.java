package dev.svc.chat.reference.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The settings of one tenant.
 *
 * @param autoCreateUsers whether minting a token for an unknown user creates that user
 * @param callsEnabled whether call operations are allowed
 * @param webhookUrl where webhooks go, or null for none (omitted from JSON)
 * @param webhookSecret the {@code whsec_} secret webhooks are signed with (shown to the API key only)
 * @param maxFileBytes the largest upload allowed, in bytes (contract section 9, {@code Tus-Max-Size})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TenantSettings(boolean autoCreateUsers, boolean callsEnabled, String webhookUrl,
                             String webhookSecret, long maxFileBytes) {

    /** The default {@code maxFileBytes}: 100 MiB. */
    public static final long DEFAULT_MAX_FILE_BYTES = 100L * 1024 * 1024;
    /** The largest {@code maxFileBytes} a tenant may set: 1 TiB (a bound that no arithmetic on offsets overflows). */
    public static final long MAX_MAX_FILE_BYTES = 1L << 40;

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Creates settings with the default {@code maxFileBytes}. */
    public TenantSettings(boolean autoCreateUsers, boolean callsEnabled, String webhookUrl, String webhookSecret) {
        this(autoCreateUsers, callsEnabled, webhookUrl, webhookSecret, DEFAULT_MAX_FILE_BYTES);
    }

    /** Returns the settings of a new tenant: calls on, no webhook, a fresh webhook secret, the given auto-creation. */
    public static TenantSettings defaults(boolean autoCreateUsers) {
        return new TenantSettings(autoCreateUsers, true, null, newWebhookSecret());
    }

    /** Returns these settings with another webhook secret. */
    public TenantSettings withWebhookSecret(String secret) {
        return new TenantSettings(autoCreateUsers, callsEnabled, webhookUrl, secret, maxFileBytes);
    }

    /** Returns a new secret: {@code whsec_} and the base64 of 24 random bytes, as Standard Webhooks suggests. */
    public static String newWebhookSecret() {
        byte[] key = new byte[24];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }
}
