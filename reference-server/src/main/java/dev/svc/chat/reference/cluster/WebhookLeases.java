package dev.svc.chat.reference.cluster;

import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.PendingWebhook;
import dev.svc.chat.reference.webhook.WebhookClaims;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Webhook claims of one node in the database ({@code webhook_deliveries.claimed_by} and {@code lease_until}):
 * a claim is one {@code UPDATE} that succeeds only if no other node holds an unexpired lease, so two nodes
 * never make the same attempt, and a delivery whose node died is taken over once its lease ran out.
 */
final class WebhookLeases implements WebhookClaims {

    private final String nodeId;
    private final Database db;
    private final Clock clock;
    private final Duration lease;

    WebhookLeases(String nodeId, Database db, Clock clock, Duration lease) {
        this.nodeId = nodeId;
        this.db = db;
        this.clock = clock;
        this.lease = lease;
    }

    @Override
    public boolean claim(String id, Instant until) {
        long now = clock.millis();
        return db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE webhook_deliveries SET claimed_by = ?,"
                    + " lease_until = ? WHERE id = ? AND (claimed_by IS NULL OR claimed_by = ? OR lease_until < ?)")) {
                ps.setString(1, nodeId);
                ps.setLong(2, until.toEpochMilli());
                ps.setString(3, id);
                ps.setString(4, nodeId);
                ps.setLong(5, now);
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public List<PendingWebhook> takeable(List<PendingWebhook> pending) {
        long now = clock.millis();
        Set<String> free = db.tx(c -> {
            Set<String> ids = new HashSet<>();
            // a delivery never claimed is its emitter's, which claims it at once: taken only if overdue by a lease
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM webhook_deliveries WHERE due_at <= ? AND"
                    + " ((claimed_by IS NULL AND due_at < ?) OR (claimed_by IS NOT NULL AND lease_until < ?))")) {
                ps.setLong(1, now);
                ps.setLong(2, now - lease.toMillis());
                ps.setLong(3, now);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getString(1));
                    }
                }
            }
            return ids;
        });
        List<PendingWebhook> out = new ArrayList<>();
        for (PendingWebhook p : pending) {
            if (free.contains(p.id())) {
                out.add(p);
            }
        }
        return out;
    }
}
