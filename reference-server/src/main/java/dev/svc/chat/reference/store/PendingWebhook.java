package dev.svc.chat.reference.store;

import java.time.Instant;

/**
 * A webhook not yet delivered: kept until a 2xx answer or the last attempt, so that a restart goes on
 * retrying it with the same {@code webhook-id} and body.
 *
 * @param id the {@code webhook-id}
 * @param tenantId the tenant whose {@code webhookUrl} it goes to
 * @param type the event type
 * @param url the URL it goes to
 * @param body the JSON body
 * @param attempt the number of the next attempt, from 1
 * @param dueAt when the next attempt is due
 */
public record PendingWebhook(String id, String tenantId, String type, String url, String body, int attempt,
                             Instant dueAt) {

    /** Returns this delivery with its next attempt due at {@code at}. */
    public PendingWebhook retryAt(Instant at) {
        return new PendingWebhook(id, tenantId, type, url, body, attempt + 1, at);
    }
}
