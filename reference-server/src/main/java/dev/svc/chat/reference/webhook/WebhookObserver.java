package dev.svc.chat.reference.webhook;

import java.time.Instant;

/**
 * Told what the {@link WebhookDispatcher} does with each delivery (the dev API's view of webhooks). Called on
 * the dispatcher's threads; an implementation only records and never blocks.
 */
public interface WebhookObserver {

    /** An observer that records nothing. */
    WebhookObserver NONE = new WebhookObserver() {
    };

    /**
     * Delivery {@code id} of {@code type} for the tenant was queued, with its body (the JSON envelope), its first
     * attempt due now; {@code redelivery} when it was asked for again ({@link WebhookDispatcher#redeliver}).
     */
    default void queued(String tenantId, String id, String type, String body, Instant at, boolean redelivery) {
    }

    /**
     * Attempt {@code attempt} of delivery {@code id} ended: {@code failure} is null when the receiver answered
     * 2xx, else what went wrong ({@code HTTP 500}, an I/O error); {@code retryAt} is when the next attempt is
     * due, null when none follows (delivered, or given up).
     */
    default void attempted(String tenantId, String id, int attempt, Instant at, String failure, Instant retryAt) {
    }
}
