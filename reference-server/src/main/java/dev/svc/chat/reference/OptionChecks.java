package dev.svc.chat.reference;

import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.webhook.WebhookSigner;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The rules of the options a {@link ReferenceServer.Builder} takes: each check returns the value it was given if
 * the value is allowed, and otherwise throws {@link NullPointerException} (a missing value) or
 * {@link IllegalArgumentException} saying what is allowed. {@link #consistent} checks the options as a whole.
 */
final class OptionChecks {

    private OptionChecks() {
    }

    /** Returns {@code value}, which must be longer than zero. */
    static Duration positive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
        return value;
    }

    /** Returns {@code value}, which must be at least 1. */
    static int atLeastOne(int value, String name) {
        return Math.toIntExact(atLeastOne((long) value, name));
    }

    /** Returns {@code value}, which must be at least 1. */
    static long atLeastOne(long value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1");
        }
        return value;
    }

    /** Returns {@code jdbcUrl}, which must be a PostgreSQL JDBC URL. */
    static String postgresUrl(String jdbcUrl) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (!Database.isPostgresUrl(jdbcUrl)) {
            throw new IllegalArgumentException("the database URL must start with jdbc:postgresql:");
        }
        return jdbcUrl;
    }

    /** Returns {@code schema}, which must be a plain PostgreSQL identifier of 1 to 63 characters. */
    static String schema(String schema) {
        if (schema == null || !schema.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("schema must be 1 to 63 of a-z 0-9 _, not starting with a digit");
        }
        return schema;
    }

    /** Returns {@code tenant}, whose id and API key must differ from those of every tenant {@code configured}. */
    static TenantConfig newTenant(TenantConfig tenant, List<TenantConfig> configured) {
        Objects.requireNonNull(tenant, "tenant");
        for (TenantConfig other : configured) {
            if (other.id().equals(tenant.id())) {
                throw new IllegalArgumentException("tenant " + tenant.id() + " is configured twice");
            }
            if (other.apiKey().equals(tenant.apiKey())) {
                throw new IllegalArgumentException("tenants " + other.id() + " and " + tenant.id()
                        + " have the same API key");
            }
        }
        return tenant;
    }

    /** Returns {@code webhookSecret}, which must be {@code whsec_} and the base64 of 24 to 64 bytes. */
    static String webhookSecret(String webhookSecret) {
        Objects.requireNonNull(webhookSecret, "webhookSecret");
        if (!WebhookSigner.isValid(webhookSecret)) {
            throw new IllegalArgumentException("webhookSecret must be whsec_ followed by the base64 of 24 to 64 bytes");
        }
        return webhookSecret;
    }

    /** Returns {@code host}, which must not be blank. */
    static String host(String host) {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host is blank");
        }
        return host;
    }

    /** Returns {@code port}, which must be 0 (a free one) to 65535. */
    static int port(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0 to 65535: " + port);
        }
        return port;
    }

    /** Returns {@code apiKey}, which must start with {@code sk_} and have at least 8 characters. */
    static String apiKey(String apiKey) {
        Objects.requireNonNull(apiKey, "apiKey");
        if (!apiKey.startsWith("sk_") || apiKey.length() < 8) {
            throw new IllegalArgumentException("apiKey must start with sk_ and have at least 8 characters");
        }
        return apiKey;
    }

    /** Checks a send limit: {@code perSecond} positive and finite, {@code burst} at least 1. */
    static void sendRate(double perSecond, int burst) {
        if (!(perSecond > 0) || Double.isInfinite(perSecond) || burst < 1) {
            throw new IllegalArgumentException("perSecond must be positive and finite, burst at least 1");
        }
    }

    /**
     * Returns {@code options}, checked as a whole: a data directory and a database URL exclude each other, and no
     * configured tenant has the dev tenant's API key.
     */
    static ServerOptions consistent(ServerOptions options) {
        if (options.dataDir != null && options.databaseUrl != null) {
            throw new IllegalArgumentException("a data directory and a database URL exclude each other");
        }
        for (TenantConfig tenant : options.tenants) {
            if (tenant.apiKey().equals(options.apiKey)) {
                throw new IllegalArgumentException("tenant " + tenant.id() + " has the dev tenant's API key");
            }
        }
        return options;
    }
}
