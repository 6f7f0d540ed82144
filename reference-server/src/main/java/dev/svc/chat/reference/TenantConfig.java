package dev.svc.chat.reference;

import dev.svc.chat.reference.webhook.WebhookSigner;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A tenant configured at start: its id, its API key and its initial settings. Its token signing secret is
 * made by the server and never leaves it.
 *
 * @param id the tenant id, the {@code tid} of its tokens: 1 to 64 of {@code A-Z a-z 0-9 _ -}, not {@code dev}
 * @param apiKey the tenant's secret API key: {@code sk_} and at least 5 more characters
 * @param autoCreateUsers the initial {@code autoCreateUsers} setting
 * @param callsEnabled the initial {@code callsEnabled} setting
 * @param webhookUrl the initial {@code webhookUrl}, or null for none
 * @param webhookSecret the webhook secret ({@code whsec_...}), or null for a generated one
 */
public record TenantConfig(String id, String apiKey, boolean autoCreateUsers, boolean callsEnabled,
                           String webhookUrl, String webhookSecret) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** Checks every field, with messages that name it (never its secret value). */
    public TenantConfig {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(apiKey, "apiKey");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("tenant id must be 1 to 64 of A-Z a-z 0-9 _ -: " + id);
        }
        if (ReferenceServer.DEV_TENANT_ID.equals(id)) {
            throw new IllegalArgumentException("tenant id dev is the default tenant's (its key comes from SVC_API_KEY)");
        }
        if (!apiKey.startsWith("sk_") || apiKey.length() < 8 || apiKey.chars().anyMatch(c -> c <= ' ' || c > '~')) {
            throw new IllegalArgumentException("the API key of tenant " + id
                    + " must start with sk_, have at least 8 characters and no spaces");
        }
        if (webhookUrl != null && !webhookUrl.matches("(?i)https?://[^\\s]+")) {
            throw new IllegalArgumentException("the webhookUrl of tenant " + id + " must be an http or https URL");
        }
        if (webhookSecret != null && !WebhookSigner.isValid(webhookSecret)) {
            throw new IllegalArgumentException("the webhookSecret of tenant " + id
                    + " must be whsec_ followed by the base64 of 24 to 64 bytes");
        }
    }

    /** Returns a tenant with the default settings: users auto-created, calls on, no webhook. */
    public static TenantConfig of(String id, String apiKey) {
        return new TenantConfig(id, apiKey, true, true, null, null);
    }

    /** Returns the id only, so that the key never reaches a log by accident. */
    @Override
    public String toString() {
        return "TenantConfig[id=" + id + "]";
    }
}
