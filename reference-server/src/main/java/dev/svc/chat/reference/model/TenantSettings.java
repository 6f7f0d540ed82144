package dev.svc.chat.reference.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The settings of one tenant.
 *
 * @param autoCreateUsers whether minting a token for an unknown user creates that user
 * @param callsEnabled whether call operations are allowed
 * @param webhookUrl where webhooks go, or null for none (omitted from JSON)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TenantSettings(boolean autoCreateUsers, boolean callsEnabled, String webhookUrl) {

    /** Returns the settings of a new tenant: calls on, no webhook, and the given auto-creation. */
    public static TenantSettings defaults(boolean autoCreateUsers) {
        return new TenantSettings(autoCreateUsers, true, null);
    }
}
