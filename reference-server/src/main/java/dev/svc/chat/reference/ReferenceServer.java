package dev.svc.chat.reference;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.auth.RandomIds;
import dev.svc.chat.reference.auth.SessionTokens;
import dev.svc.chat.reference.cluster.Cluster;
import dev.svc.chat.reference.gateway.FanOut;
import dev.svc.chat.reference.gateway.Gateway;
import dev.svc.chat.reference.gateway.GatewayConfig;
import dev.svc.chat.reference.http.AccessLog;
import dev.svc.chat.reference.http.CallPushRoutes;
import dev.svc.chat.reference.http.ContractErrorHandler;
import dev.svc.chat.reference.http.HttpSettings;
import dev.svc.chat.reference.http.Routes;
import dev.svc.chat.reference.model.Json;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.service.CallService;
import dev.svc.chat.reference.service.ChatService;
import dev.svc.chat.reference.service.MessageActions;
import dev.svc.chat.reference.service.NotifyingPublisher;
import dev.svc.chat.reference.service.PresenceDirectory;
import dev.svc.chat.reference.service.PushService;
import dev.svc.chat.reference.service.SendRateLimiter;
import dev.svc.chat.reference.service.TenantSettingsCache;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.JdbcStore;
import dev.svc.chat.reference.store.OwnerOnlyFiles;
import dev.svc.chat.reference.store.Store;
import dev.svc.chat.reference.store.TenantRecord;
import dev.svc.chat.reference.webhook.WebhookDispatcher;
import dev.svc.chat.reference.webhook.WebhookSigner;
import io.javalin.Javalin;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

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
 * <p>{@link #close()} stops Jetty, closes every socket and stops every thread the server started.
 */
public final class ReferenceServer implements AutoCloseable {

    /** The id of the tenant every server starts with. */
    public static final String DEV_TENANT_ID = "dev";
    /** The default sustained send rate per user, a second (contract). */
    public static final double DEFAULT_SEND_RATE = 20;
    /** The default send burst per user (contract). */
    public static final int DEFAULT_SEND_BURST = 40;

    private final Builder options;
    private final String apiKey;
    private final Database database;
    private final Store store;
    private final ObjectMapper mapper;
    private final SessionTokens tokens;
    private final ChatService service;
    private final MessageActions actions;
    private final Gateway gateway;
    private final CallService calls;
    private final PushService push;
    private final WebhookDispatcher webhooks;
    private final Cluster cluster;
    private final ScheduledThreadPoolExecutor callTimers = daemonPool("svc-ref-call-timer", 1);
    private final ScheduledThreadPoolExecutor webhookPool = daemonPool("svc-ref-webhook", 2);
    private final Object lifecycle = new Object();
    private Javalin app;
    private int port = -1;
    private boolean closed;

    private ReferenceServer(Builder builder) {
        this.options = builder.copy();
        this.database = openDatabase(options);
        this.store = database != null ? new JdbcStore(database) : new InMemoryStore();
        ObjectMapper mapper = Json.newMapper();
        this.tokens = new SessionTokens(store, options.clock);
        FanOut fanOut = Gateway.newFanOut(mapper, options.presenceInterval);
        // On PostgreSQL, every server on the same database and schema is a node of one cluster: room events,
        // presence and typing reach every node's sockets, and who is online counts every node's connections.
        this.cluster = options.databaseUrl == null ? null : new Cluster(fanOut, mapper, database,
                options.databaseUrl, options.databaseUser, options.databasePassword, options.databaseSchema);
        PresenceDirectory online = cluster != null ? cluster.presence() : fanOut;
        this.push = new PushService(store, options.clock, online);
        TenantSettingsCache settingsCache = new TenantSettingsCache(store::settings,
                TenantSettingsCache.DEFAULT_MAX_AGE);
        this.webhooks = new WebhookDispatcher(mapper, store, options.clock, settingsCache, webhookPool,
                options.webhookAttempts, options.webhookFirstRetry);
        if (cluster != null) {
            cluster.deliverWebhooks(webhooks, options.clock, options.webhookLease);
        }
        NotifyingPublisher publisher = new NotifyingPublisher(cluster != null ? cluster.events() : fanOut, push,
                webhooks);
        this.service = new ChatService(store, options.clock,
                new SendRateLimiter(options.clock, options.sendPerSecond, options.sendBurst), publisher, settingsCache);
        this.calls = new CallService(store, service, options.clock, publisher, options.callRingTimeout, callTimers);
        this.actions = new MessageActions(store, service, publisher, online);
        this.gateway = new Gateway(new GatewayConfig(options.pingInterval, options.pingTimeout,
                options.connectTimeout, GatewayConfig.DEFAULT_MAX_PAYLOAD, options.outboundQueueLimit,
                options.outboundQueueBytes, options.webSocketCompression, options.sendPacing),
                mapper, options.clock, store, tokens, fanOut, service);
        try {
            this.apiKey = provisionDevTenant();
            for (TenantConfig tenant : options.tenants) {
                provision(tenant);
            }
        } catch (RuntimeException e) {
            close(); // every thread and connection started so far, not only the store
            throw e;
        }
        this.mapper = mapper;
    }

    /** Opens the database the options ask for: H2 in the data directory, PostgreSQL, or none (memory). */
    private static Database openDatabase(Builder options) {
        if (options.dataDir != null) {
            try {
                OwnerOnlyFiles.createDirectory(options.dataDir); // it holds every tenant's secrets
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("cannot create the data directory " + options.dataDir + ": "
                        + e.getMessage(), e);
            }
            return Database.h2(options.dataDir);
        }
        if (options.databaseUrl != null) {
            return Database.postgres(options.databaseUrl, options.databaseUser, options.databasePassword,
                    options.databaseSchema);
        }
        return null;
    }

    /**
     * Stores the dev tenant, or on a durable store that has it already, keeps its token secret and its API
     * key unless another key was configured; returns the key.
     */
    private String provisionDevTenant() {
        java.util.Optional<TenantRecord> existing = store.tenant(DEV_TENANT_ID);
        if (existing.isPresent()) {
            String key = existing.get().apiKey();
            if (options.apiKey != null && !options.apiKey.equals(key)) {
                store.updateApiKey(DEV_TENANT_ID, options.apiKey);
                key = options.apiKey;
            }
            if (options.webhookSecret != null) {
                store.updateSettings(DEV_TENANT_ID, s -> s.withWebhookSecret(options.webhookSecret));
            }
            return key;
        }
        String key = options.apiKey != null ? options.apiKey : RandomIds.testApiKey();
        TenantSettings devSettings = TenantSettings.defaults(options.autoCreateUsers);
        if (options.webhookSecret != null) {
            devSettings = devSettings.withWebhookSecret(options.webhookSecret);
        }
        try {
            store.createTenant(new TenantRecord(DEV_TENANT_ID, key, RandomIds.bytes(32)), devSettings);
        } catch (RuntimeException e) {
            // Another server on the same database stored it a moment ago: use that one.
            if (store.tenant(DEV_TENANT_ID).isPresent()) {
                return provisionDevTenant();
            }
            throw e;
        }
        return key;
    }

    /** Returns where the server keeps its state: {@code memory}, {@code h2:<dir>} or {@code postgresql}. */
    public String storage() {
        if (options.dataDir != null) {
            return "h2:" + options.dataDir.toAbsolutePath();
        }
        return options.databaseUrl != null ? "postgresql" : "memory";
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
            Javalin javalin = Javalin.create(config -> {
                config.showJavalinBanner = false;
                config.startupWatcherEnabled = false;
                AccessLog.install(config);
                config.jetty.modifyWebSocketServletFactory(gateway::configure);
                config.jetty.threadPool = jettyThreads();
                config.jetty.modifyHttpConfiguration(HttpSettings::apply); // no header cache (see there)
                // What Jetty refuses before a route runs (a header flood, a bad request line) in the contract's body.
                config.jetty.modifyServer(server -> server.setErrorHandler(new ContractErrorHandler()));
            });
            Routes.install(javalin, mapper, store, tokens, service, actions, gateway.sendPacing());
            CallPushRoutes.install(javalin, mapper, store, tokens, calls, push);
            gateway.install(javalin);
            javalin.start(options.host, options.port);
            webhooks.resume();
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
        return store.settings(DEV_TENANT_ID).webhookSecret();
    }

    /** Creates another tenant (own key, own token secret, default settings), e.g. for isolation tests. */
    public TenantInfo createTenant() {
        String id = "t_" + RandomIds.base62(12);
        String key = RandomIds.testApiKey();
        store.createTenant(new TenantRecord(id, key, RandomIds.bytes(32)), TenantSettings.defaults(true));
        return new TenantInfo(id, key);
    }

    /**
     * Returns a tenant of this server by id: the dev tenant, one configured with {@link Builder#tenant}, or
     * one made by {@link #createTenant()}. Throws {@link NoSuchElementException} for another id.
     */
    public TenantInfo tenant(String id) {
        TenantRecord record = store.tenant(id).orElseThrow(() -> new NoSuchElementException(
                "no tenant " + id));
        return new TenantInfo(record.id(), record.apiKey());
    }

    /** Returns the ids of the tenants configured with {@link Builder#tenant}, in order. */
    public List<String> configuredTenantIds() {
        return options.tenants.stream().map(TenantConfig::id).toList();
    }

    /** Returns a tenant's token signing secret, for tests that sign tokens with chosen claims (never exposed). */
    byte[] tokenSecret(String tenantId) {
        return store.tenant(tenantId).orElseThrow().jwtSecret();
    }

    /** Returns the number of open gateway connections (with or without a Socket.IO session). */
    public int connectionCount() {
        return gateway.connectionCount();
    }

    /**
     * Javalin's pool (250 threads at most, named as Javalin names it), except that idle threads go after
     * 10 s, all of them at once: Jetty's default retires one idle thread a minute, so the 250 threads a
     * connection flood starts stayed for hours.
     */
    private static QueuedThreadPool jettyThreads() {
        QueuedThreadPool pool = new QueuedThreadPool(250, 8, 10_000);
        pool.setName("JettyServerThreadPool");
        pool.setMaxEvictCount(250);
        return pool;
    }

    /** Returns the TCP connections Jetty holds open, HTTP and WebSocket alike. */
    int openEndpoints() {
        Javalin running;
        synchronized (lifecycle) {
            running = app;
        }
        int n = 0;
        for (Connector connector : running.jettyServer().server().getConnectors()) {
            n += connector.getConnectedEndPoints().size();
        }
        return n;
    }

    /** Returns what the gateway holds for connections, timers and indexes included (zero when none is open). */
    int gatewayBookkeeping() {
        return gateway.bookkeeping();
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
        gateway.close();
        if (running != null) {
            running.stop();
        }
        callTimers.shutdownNow();
        webhooks.close();
        webhookPool.shutdownNow();
        if (cluster != null) {
            cluster.close();
        }
        store.close();
    }

    /** Stores a configured tenant unless the store already has it (a durable store keeps it, and its secret). */
    private void provision(TenantConfig tenant) {
        java.util.Optional<TenantRecord> existing = store.tenant(tenant.id());
        if (existing.isPresent()) {
            if (!existing.get().apiKey().equals(tenant.apiKey())) {
                store.updateApiKey(tenant.id(), tenant.apiKey());
            }
            return;
        }
        TenantSettings settings = new TenantSettings(tenant.autoCreateUsers(), tenant.callsEnabled(),
                tenant.webhookUrl(), tenant.webhookSecret() != null ? tenant.webhookSecret()
                : TenantSettings.newWebhookSecret());
        store.createTenant(new TenantRecord(tenant.id(), tenant.apiKey(), RandomIds.bytes(32)), settings);
    }

    private static ScheduledThreadPoolExecutor daemonPool(String name, int threads) {
        AtomicInteger count = new AtomicInteger();
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(threads, r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.setRemoveOnCancelPolicy(true);
        return pool;
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
        private String host = "127.0.0.1";
        private int port;
        private String apiKey;
        private Clock clock = Clock.systemUTC();
        private Duration pingInterval = Duration.ofSeconds(25);
        private Duration pingTimeout = Duration.ofSeconds(20);
        private Duration connectTimeout = Duration.ofSeconds(45);
        private boolean autoCreateUsers = true;
        private double sendPerSecond = DEFAULT_SEND_RATE;
        private int sendBurst = DEFAULT_SEND_BURST;
        private int outboundQueueLimit = GatewayConfig.DEFAULT_OUTBOUND_LIMIT;
        private long outboundQueueBytes = GatewayConfig.DEFAULT_OUTBOUND_BYTES;
        private Duration callRingTimeout = Duration.ofSeconds(30);
        private String webhookSecret;
        private int webhookAttempts = 6;
        private Duration webhookFirstRetry = Duration.ofSeconds(1);
        private Duration webhookLease = Duration.ofSeconds(30);
        private List<TenantConfig> tenants = new ArrayList<>();
        private Duration presenceInterval = Gateway.DEFAULT_PRESENCE_INTERVAL;
        private Path dataDir;
        private String databaseUrl;
        private String databaseUser;
        private String databasePassword;
        private String databaseSchema;
        private boolean webSocketCompression;
        private boolean sendPacing = true;

        private Builder() {
        }

        /**
         * Keeps the server's state in an embedded H2 database in {@code dir} (created if absent): everything
         * acknowledged survives a restart and a killed process. Excludes {@link #databaseUrl}.
         */
        public Builder dataDir(Path dir) {
            this.dataDir = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /**
         * Keeps the server's state in PostgreSQL at {@code jdbcUrl} ({@code jdbc:postgresql://host:port/db}),
         * logging in as {@code user} with {@code password} (either may be null when the URL carries them).
         * Excludes {@link #dataDir}.
         */
        public Builder databaseUrl(String jdbcUrl, String user, String password) {
            Objects.requireNonNull(jdbcUrl, "jdbcUrl");
            if (!Database.isPostgresUrl(jdbcUrl)) {
                throw new IllegalArgumentException("the database URL must start with jdbc:postgresql:");
            }
            this.databaseUrl = jdbcUrl;
            this.databaseUser = user;
            this.databasePassword = password;
            return this;
        }

        /**
         * Uses schema {@code schema} of the PostgreSQL database (created if absent) instead of the user's
         * default one, so that several independent servers can share one database.
         */
        public Builder databaseSchema(String schema) {
            if (schema == null || !schema.matches("[a-z_][a-z0-9_]{0,62}")) {
                throw new IllegalArgumentException("schema must be 1 to 63 of a-z 0-9 _, not starting with a digit");
            }
            this.databaseSchema = schema;
            return this;
        }

        /**
         * Adds a tenant besides the dev tenant, with its own API key, token secret and settings. Ids and keys
         * must be unique.
         */
        public Builder tenant(TenantConfig tenant) {
            Objects.requireNonNull(tenant, "tenant");
            for (TenantConfig other : tenants) {
                if (other.id().equals(tenant.id())) {
                    throw new IllegalArgumentException("tenant " + tenant.id() + " is configured twice");
                }
                if (other.apiKey().equals(tenant.apiKey())) {
                    throw new IllegalArgumentException("tenants " + other.id() + " and " + tenant.id()
                            + " have the same API key");
                }
            }
            tenants.add(tenant);
            return this;
        }

        /** Adds a tenant with default settings: {@code tenant(TenantConfig.of(id, apiKey))}. */
        public Builder tenant(String id, String apiKey) {
            return tenant(TenantConfig.of(id, apiKey));
        }

        /** Sets how long a call may ring unanswered before it ends with {@code endReason} {@code missed} (default 30 s). */
        public Builder callRingTimeout(Duration callRingTimeout) {
            this.callRingTimeout = positive(callRingTimeout, "callRingTimeout");
            return this;
        }

        /**
         * Sets the dev tenant's webhook secret: {@code whsec_} and the base64 of 24 to 64 bytes (default: a
         * generated one, see {@link ReferenceServer#webhookSecret()}).
         */
        public Builder webhookSecret(String webhookSecret) {
            Objects.requireNonNull(webhookSecret, "webhookSecret");
            if (!WebhookSigner.isValid(webhookSecret)) {
                throw new IllegalArgumentException("webhookSecret must be whsec_ followed by the base64 of 24 to 64 bytes");
            }
            this.webhookSecret = webhookSecret;
            return this;
        }

        /**
         * Sets the webhook retry schedule: at most {@code maxAttempts} attempts in all, the first retry after
         * {@code firstRetry}, each later one 5 times longer (default 6 attempts, 1 s: 1 s, 5 s, 25 s, ~2 min, ~10 min).
         */
        public Builder webhookRetries(int maxAttempts, Duration firstRetry) {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1");
            }
            this.webhookFirstRetry = positive(firstRetry, "firstRetry");
            this.webhookAttempts = maxAttempts;
            return this;
        }

        /** Sets the interface to listen on (default {@code 127.0.0.1}). */
        public Builder host(String host) {
            Objects.requireNonNull(host, "host");
            if (host.isBlank()) {
                throw new IllegalArgumentException("host is blank");
            }
            this.host = host;
            return this;
        }

        /** Sets the port, 0 for a free one (default 0). */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0 to 65535: " + port);
            }
            this.port = port;
            return this;
        }

        /** Sets the dev tenant's API key; it must start with {@code sk_} (default: a generated test key). */
        public Builder apiKey(String apiKey) {
            Objects.requireNonNull(apiKey, "apiKey");
            if (!apiKey.startsWith("sk_") || apiKey.length() < 8) {
                throw new IllegalArgumentException("apiKey must start with sk_ and have at least 8 characters");
            }
            this.apiKey = apiKey;
            return this;
        }

        /** Sets the clock of token times, timestamps and rate limits (default {@link Clock#systemUTC()}). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Sets how often the gateway pings (default 25 s). */
        public Builder pingInterval(Duration pingInterval) {
            this.pingInterval = positive(pingInterval, "pingInterval");
            return this;
        }

        /** Sets how long the gateway waits for a pong (default 20 s). */
        public Builder pingTimeout(Duration pingTimeout) {
            this.pingTimeout = positive(pingTimeout, "pingTimeout");
            return this;
        }

        /** Sets how long a connection may go without a Socket.IO CONNECT (default 45 s). */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive(connectTimeout, "connectTimeout");
            return this;
        }

        /** Sets the dev tenant's initial {@code autoCreateUsers} (default true). */
        public Builder autoCreateUsers(boolean autoCreateUsers) {
            this.autoCreateUsers = autoCreateUsers;
            return this;
        }

        /** Sets the per-user send limit: {@code perSecond} sustained, {@code burst} at once (default 20, 40). */
        public Builder sendRateLimit(double perSecond, int burst) {
            if (!(perSecond > 0) || Double.isInfinite(perSecond) || burst < 1) {
                throw new IllegalArgumentException("perSecond must be positive and finite, burst at least 1");
            }
            this.sendPerSecond = perSecond;
            this.sendBurst = burst;
            return this;
        }

        /**
         * Offers permessage-deflate to WebSocket clients (default false, like the official socket.io server):
         * smaller frames on slow links, at the cost of compressing every frame once per connection.
         */
        public Builder webSocketCompression(boolean enabled) {
            this.webSocketCompression = enabled;
            return this;
        }

        /** Holds a send's answer while its room's connections are behind (default true; see docs/server.md). */
        public Builder sendPacing(boolean enabled) {
            this.sendPacing = enabled;
            return this;
        }

        /** Sets how long presence flips are gathered before a batch is published (default 50 ms). */
        Builder presenceInterval(Duration interval) {
            this.presenceInterval = positive(interval, "presenceInterval");
            return this;
        }

        /** Sets how many frames may wait for one connection before it is dropped (tests of slow clients). */
        Builder outboundQueueLimit(int frames) {
            if (frames < 1) {
                throw new IllegalArgumentException("frames must be at least 1");
            }
            this.outboundQueueLimit = frames;
            return this;
        }

        /** Sets how long a node's claim on a webhook attempt holds on a cluster (default 30 s; tests). */
        Builder webhookLease(Duration lease) {
            this.webhookLease = positive(lease, "lease");
            return this;
        }

        /** Sets how many bytes may wait for one connection before it is dropped (default 4 MiB). */
        Builder outboundQueueBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("bytes must be at least 1");
            }
            this.outboundQueueBytes = bytes;
            return this;
        }

        /** Returns a new, not yet started server with these options. */
        public ReferenceServer build() {
            if (dataDir != null && databaseUrl != null) {
                throw new IllegalArgumentException("a data directory and a database URL exclude each other");
            }
            for (TenantConfig tenant : tenants) {
                if (tenant.apiKey().equals(apiKey)) {
                    throw new IllegalArgumentException("tenant " + tenant.id() + " has the dev tenant's API key");
                }
            }
            return new ReferenceServer(this);
        }

        private Builder copy() {
            Builder copy = new Builder();
            copy.host = host;
            copy.port = port;
            copy.apiKey = apiKey;
            copy.clock = clock;
            copy.pingInterval = pingInterval;
            copy.pingTimeout = pingTimeout;
            copy.connectTimeout = connectTimeout;
            copy.autoCreateUsers = autoCreateUsers;
            copy.sendPerSecond = sendPerSecond;
            copy.sendBurst = sendBurst;
            copy.outboundQueueLimit = outboundQueueLimit;
            copy.outboundQueueBytes = outboundQueueBytes;
            copy.callRingTimeout = callRingTimeout;
            copy.webhookSecret = webhookSecret;
            copy.webhookAttempts = webhookAttempts;
            copy.webhookFirstRetry = webhookFirstRetry;
            copy.webhookLease = webhookLease;
            copy.tenants = List.copyOf(tenants);
            copy.presenceInterval = presenceInterval;
            copy.dataDir = dataDir;
            copy.databaseUrl = databaseUrl;
            copy.databaseUser = databaseUser;
            copy.databasePassword = databasePassword;
            copy.databaseSchema = databaseSchema;
            copy.webSocketCompression = webSocketCompression;
            copy.sendPacing = sendPacing;
            return copy;
        }

        private static Duration positive(Duration value, String name) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive");
            }
            return value;
        }
    }
}
