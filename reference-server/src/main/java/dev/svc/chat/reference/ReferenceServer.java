package dev.svc.chat.reference;

import dev.svc.chat.reference.cluster.BusFaults;
import dev.svc.chat.reference.gateway.Gateway;
import dev.svc.chat.reference.store.TenantRecord;
import io.javalin.Javalin;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * An in-process chat server that implements the contract: REST under {@code /v1}, the Socket.IO v4 gateway
 * on {@code /socket.io/}, session tokens, tenants. Made for tests, samples and local development:
 *
 * <pre>{@code
 * try (ReferenceServer server = ReferenceServer.builder().build().start()) {
 *     String apiUrl = server.apiUrl();   // http://127.0.0.1:<port>/v1
 *     String apiKey = server.apiKey();   // API key of the dev tenant "dev"
 * }
 * }</pre>
 *
 * <p>{@link #close()} stops Jetty, closes every socket and stops every thread the server started. Its parts are
 * wired in {@link ServerComponents}, its tenants stored by {@link TenantProvisioning}, and its HTTP side (the
 * routes of {@code http.Routes} and the gateway) started by {@link WebServer}.
 */
public final class ReferenceServer implements AutoCloseable {

    /** The id of the tenant every server starts with. */
    public static final String DEV_TENANT_ID = "dev";
    /** The default sustained send rate per user, a second (contract). */
    public static final double DEFAULT_SEND_RATE = 20;
    /** The default send burst per user (contract). */
    public static final int DEFAULT_SEND_BURST = 40;

    private final ServerOptions options;
    private final ServerComponents parts;
    private final TenantProvisioning tenants;
    private final String apiKey;
    private final Object lifecycle = new Object();
    private Javalin app;
    private int port = -1;
    private boolean closed;

    private ReferenceServer(ServerOptions options) {
        this.options = options;
        this.parts = new ServerComponents(options);
        this.tenants = new TenantProvisioning(parts.store, options);
        try {
            this.apiKey = tenants.provisionAll();
            if (options.seed != null) {
                Seeding.load(options.seed, parts.store, parts.mapper, tenants, parts.dev.importer());
            }
        } catch (RuntimeException e) {
            close(); // every thread and connection started so far, not only the store
            throw e;
        }
    }

    /** Returns where the server keeps its state: {@code memory}, {@code sqlite:<dir>} or {@code postgresql}. */
    public String storage() {
        return options.storage();
    }

    /** Returns a builder with the defaults: 127.0.0.1, a free port, a generated key, the system clock. */
    public static Builder builder() {
        return new Builder();
    }

    /** Starts listening; returns this server. Throws {@link IllegalStateException} if started or closed. */
    public ReferenceServer start() {
        synchronized (lifecycle) {
            if (app != null || closed) {
                throw new IllegalStateException(closed ? "closed" : "already started");
            }
            Javalin javalin = WebServer.start(options, parts);
            parts.webhooks.resume();
            app = javalin;
            port = javalin.port();
            return this;
        }
    }

    /** Returns the port the server listens on. Throws {@link IllegalStateException} before {@link #start()}. */
    public int port() {
        synchronized (lifecycle) {
            if (port < 0) {
                throw new IllegalStateException("not started");
            }
            return port;
        }
    }

    /** Returns the host the server listens on, e.g. {@code 127.0.0.1}. */
    public String host() {
        return options.host;
    }

    /** Returns the API base URL, {@code http://<host>:<port>/v1}. */
    public String apiUrl() {
        return "http://" + hostForUrl() + ":" + port() + "/v1";
    }

    /** Returns the Socket.IO endpoint, {@code ws://<host>:<port>/socket.io/?EIO=4&transport=websocket}. */
    public String socketUrl() {
        return "ws://" + hostForUrl() + ":" + port() + Gateway.PATH + "?EIO=4&transport=websocket";
    }

    /**
     * Returns the web console's address, {@code http://<host>:<port>/console/}, or empty when the console is
     * off (by default on a bind other than loopback; see {@link Builder#console}).
     */
    public java.util.Optional<String> consoleUrl() {
        return parts.devAccess.console()
                ? java.util.Optional.of("http://" + hostForUrl() + ":" + port() + "/console/")
                : java.util.Optional.empty();
    }

    /** Returns whether the dev API under {@code /v1/dev/} answers (see {@link Builder#devApi}). */
    public boolean devApiEnabled() {
        return parts.devAccess.devApi();
    }

    /** Returns the API key of the dev tenant. */
    public String apiKey() {
        return apiKey;
    }

    /** Returns the id of the dev tenant, {@value #DEV_TENANT_ID}. */
    public String tenantId() {
        return DEV_TENANT_ID;
    }

    /**
     * Returns the dev tenant's current webhook secret ({@code whsec_...}): the one given to the builder, else
     * a generated one, unless changed through {@code PATCH /v1/tenant/settings}.
     */
    public String webhookSecret() {
        return parts.store.settings(DEV_TENANT_ID).webhookSecret();
    }

    /** Creates another tenant (own key, own token secret, default settings), e.g. for isolation tests. */
    public TenantInfo createTenant() {
        return tenants.createTenant();
    }

    /**
     * Returns a tenant of this server by id: the dev tenant, one configured with {@link Builder#tenant}, or
     * one made by {@link #createTenant()}. Throws {@link NoSuchElementException} for another id.
     */
    public TenantInfo tenant(String id) {
        TenantRecord record = parts.store.tenant(id).orElseThrow(() -> new NoSuchElementException(
                "no tenant " + id));
        return new TenantInfo(record.id(), record.apiKey());
    }

    /** Returns the ids of the tenants configured with {@link Builder#tenant}, in order. */
    public List<String> configuredTenantIds() {
        return options.tenants.stream().map(TenantConfig::id).toList();
    }

    /** Returns a tenant's token signing secret, for tests that sign tokens with chosen claims (never exposed). */
    byte[] tokenSecret(String tenantId) {
        return parts.store.tenant(tenantId).orElseThrow().jwtSecret();
    }

    /** Returns the number of open gateway connections (with or without a Socket.IO session). */
    public int connectionCount() {
        return parts.gateway.connectionCount();
    }

    /** Returns the TCP connections Jetty holds open, HTTP and WebSocket alike. */
    int openEndpoints() {
        Javalin running;
        synchronized (lifecycle) {
            running = app;
        }
        return WebServer.openEndpoints(running);
    }

    /** Returns what the gateway holds for connections, timers and indexes included (zero when none is open). */
    int gatewayBookkeeping() {
        return parts.gateway.bookkeeping();
    }

    /** Stops Jetty, closes every socket and stops every thread this server started. Idempotent. */
    @Override
    public void close() {
        Javalin running;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            running = app;
        }
        parts.gateway.close();
        if (running != null) {
            running.stop();
        }
        parts.closeAfterGateway();
    }

    private String hostForUrl() {
        String host = options.host;
        if ("0.0.0.0".equals(host)) {
            return "127.0.0.1";
        }
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /** Options of a {@link ReferenceServer}; each setter checks its input. */
    public static final class Builder {
        private final ServerOptions options = new ServerOptions();

        private Builder() {
        }

        /**
         * Keeps the server's state in an embedded SQLite database in {@code dir} (created if absent): everything
         * acknowledged survives a restart and a killed process (an H2 directory of an earlier version is
         * imported). Excludes {@link #databaseUrl}.
         */
        public Builder dataDir(Path dir) {
            options.dataDir = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /**
         * Keeps the server's state in PostgreSQL at {@code jdbcUrl} ({@code jdbc:postgresql://host:port/db}),
         * logging in as {@code user} with {@code password} (either may be null when the URL carries them).
         * Excludes {@link #dataDir}.
         */
        public Builder databaseUrl(String jdbcUrl, String user, String password) {
            options.databaseUrl = OptionChecks.postgresUrl(jdbcUrl);
            options.databaseUser = user;
            options.databasePassword = password;
            return this;
        }

        /**
         * Uses schema {@code schema} of the PostgreSQL database (created if absent) instead of the user's
         * default one, so that several independent servers can share one database.
         */
        public Builder databaseSchema(String schema) {
            options.databaseSchema = OptionChecks.schema(schema);
            return this;
        }

        /**
         * Adds a tenant besides the dev tenant, with its own API key, token secret and settings. Ids and keys
         * must be unique.
         */
        public Builder tenant(TenantConfig tenant) {
            options.tenants.add(OptionChecks.newTenant(tenant, options.tenants));
            return this;
        }

        /** Adds a tenant with default settings: {@code tenant(TenantConfig.of(id, apiKey))}. */
        public Builder tenant(String id, String apiKey) {
            return tenant(TenantConfig.of(id, apiKey));
        }

        /** Sets how long a call may ring unanswered before it ends with {@code endReason} {@code missed} (default 30 s). */
        public Builder callRingTimeout(Duration callRingTimeout) {
            options.callRingTimeout = OptionChecks.positive(callRingTimeout, "callRingTimeout");
            return this;
        }

        /**
         * Sets the dev tenant's webhook secret: {@code whsec_} and the base64 of 24 to 64 bytes (default: a
         * generated one, see {@link ReferenceServer#webhookSecret()}).
         */
        public Builder webhookSecret(String webhookSecret) {
            options.webhookSecret = OptionChecks.webhookSecret(webhookSecret);
            return this;
        }

        /**
         * Sets the webhook retry schedule: at most {@code maxAttempts} attempts in all, the first retry after
         * {@code firstRetry}, each later one 5 times longer (default 6 attempts, 1 s: 1 s, 5 s, 25 s, ~2 min, ~10 min).
         */
        public Builder webhookRetries(int maxAttempts, Duration firstRetry) {
            int attempts = OptionChecks.atLeastOne(maxAttempts, "maxAttempts");
            options.webhookFirstRetry = OptionChecks.positive(firstRetry, "firstRetry");
            options.webhookAttempts = attempts;
            return this;
        }

        /** Sets the interface to listen on (default {@code 127.0.0.1}). */
        public Builder host(String host) {
            options.host = OptionChecks.host(host);
            return this;
        }

        /** Sets the port, 0 for a free one (default 0). */
        public Builder port(int port) {
            options.port = OptionChecks.port(port);
            return this;
        }

        /** Sets the dev tenant's API key; it must start with {@code sk_} (default: a generated test key). */
        public Builder apiKey(String apiKey) {
            options.apiKey = OptionChecks.apiKey(apiKey);
            return this;
        }

        /** Sets the clock of token times, timestamps and rate limits (default {@link Clock#systemUTC()}). */
        public Builder clock(Clock clock) {
            options.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Sets how often the gateway pings (default 25 s). */
        public Builder pingInterval(Duration pingInterval) {
            options.pingInterval = OptionChecks.positive(pingInterval, "pingInterval");
            return this;
        }

        /** Sets how long the gateway waits for a pong (default 20 s). */
        public Builder pingTimeout(Duration pingTimeout) {
            options.pingTimeout = OptionChecks.positive(pingTimeout, "pingTimeout");
            return this;
        }

        /** Sets how long a connection may go without a Socket.IO CONNECT (default 45 s). */
        public Builder connectTimeout(Duration connectTimeout) {
            options.connectTimeout = OptionChecks.positive(connectTimeout, "connectTimeout");
            return this;
        }

        /** Sets the dev tenant's initial {@code autoCreateUsers} (default true). */
        public Builder autoCreateUsers(boolean autoCreateUsers) {
            options.autoCreateUsers = autoCreateUsers;
            return this;
        }

        /** Sets the per-user send limit: {@code perSecond} sustained, {@code burst} at once (default 20, 40). */
        public Builder sendRateLimit(double perSecond, int burst) {
            OptionChecks.sendRate(perSecond, burst);
            options.sendPerSecond = perSecond;
            options.sendBurst = burst;
            return this;
        }

        /**
         * Offers permessage-deflate to WebSocket clients (default false, like the official socket.io server):
         * smaller frames on slow links, at the cost of compressing every frame once per connection.
         */
        public Builder webSocketCompression(boolean enabled) {
            options.webSocketCompression = enabled;
            return this;
        }

        /**
         * Does nothing: a send's answer is never held for its room's readers any more (a reader that falls behind
         * is cut at its queue's bound and recovers from history; docs/server.md, "Slow readers").
         *
         * @deprecated sends are always answered at once; kept so that callers still compile
         */
        @Deprecated
        public Builder sendPacing(boolean enabled) {
            return this;
        }

        /** Sets how long presence flips are gathered before a batch is published (default 50 ms). */
        Builder presenceInterval(Duration interval) {
            options.presenceInterval = OptionChecks.positive(interval, "presenceInterval");
            return this;
        }

        /** Sets how many frames may wait for one connection before it is dropped (tests of slow clients). */
        Builder outboundQueueLimit(int frames) {
            options.outboundQueueLimit = OptionChecks.atLeastOne(frames, "frames");
            return this;
        }

        /** Sets how long a node's claim on a webhook attempt holds on a cluster (default 30 s; tests). */
        Builder webhookLease(Duration lease) {
            options.webhookLease = OptionChecks.positive(lease, "lease");
            return this;
        }

        /** Sets how many bytes may wait for one connection before it is dropped (default 4 MiB). */
        Builder outboundQueueBytes(long bytes) {
            options.outboundQueueBytes = OptionChecks.atLeastOne(bytes, "bytes");
            return this;
        }

        /** Injects faults into a cluster's event bus (tests of its gaps). */
        Builder busFaults(BusFaults faults) {
            options.busFaults = Objects.requireNonNull(faults, "faults");
            return this;
        }

        /**
         * Turns the dev API ({@code /v1/dev/}, docs/console.md) on or off. Default: on when the server listens
         * on a loopback address only, off otherwise.
         */
        public Builder devApi(boolean enabled) {
            options.devApi = enabled;
            return this;
        }

        /**
         * Turns the web console ({@code /console/}) on or off; it is never served without the dev API. Default:
         * on when the server listens on a loopback address only, off otherwise.
         */
        public Builder console(boolean enabled) {
            options.console = enabled;
            return this;
        }

        /**
         * Loads a seed file at start (docs/console.md): users, rooms and messages in the export format, added
         * idempotently. A bad file fails {@link #build()} with {@link IllegalArgumentException}.
         */
        public Builder seed(Path file) {
            options.seed = Objects.requireNonNull(file, "file");
            return this;
        }

        /** Returns a new, not yet started server with these options. */
        public ReferenceServer build() {
            return new ReferenceServer(OptionChecks.consistent(options).copy());
        }
    }
}
