package dev.svc.chat.reference.webhook;

import dev.svc.chat.reference.store.PendingWebhook;
import java.time.Instant;
import java.util.List;

/**
 * Which server makes a webhook's attempts when several share a database: an attempt is made only by the
 * server that claimed the delivery, and a delivery whose claim ran out (its server died) can be taken over.
 */
public interface WebhookClaims {

    /** A server alone: every delivery is its own. */
    WebhookClaims ALONE = new WebhookClaims() {
        @Override
        public boolean claim(String id, Instant until) {
            return true;
        }

        @Override
        public List<PendingWebhook> takeable(List<PendingWebhook> pending) {
            return pending;
        }
    };

    /**
     * Claims delivery {@code id} for this server until {@code until}; returns false if another server holds
     * an unexpired claim on it, or it is gone (delivered or given up).
     */
    boolean claim(String id, Instant until);

    /** Returns those of {@code pending} that are due and that no server holds an unexpired claim on. */
    List<PendingWebhook> takeable(List<PendingWebhook> pending);
}
