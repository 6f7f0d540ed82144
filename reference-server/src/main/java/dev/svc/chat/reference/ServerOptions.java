package dev.svc.chat.reference;

import dev.svc.chat.reference.cluster.BusFaults;
import dev.svc.chat.reference.gateway.Gateway;
import dev.svc.chat.reference.gateway.GatewayConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The options a {@link ReferenceServer.Builder} collects, with their defaults. The builder checks each one
 * as it is set; a server gets a copy, so a builder used again changes no server built before.
 */
final class ServerOptions {

    String host = "127.0.0.1";
    int port;
    String apiKey;
    Clock clock = Clock.systemUTC();
    Duration pingInterval = Duration.ofSeconds(25);
    Duration pingTimeout = Duration.ofSeconds(20);
    Duration connectTimeout = Duration.ofSeconds(45);
    boolean autoCreateUsers = true;
    double sendPerSecond = ReferenceServer.DEFAULT_SEND_RATE;
    int sendBurst = ReferenceServer.DEFAULT_SEND_BURST;
    int outboundQueueLimit = GatewayConfig.DEFAULT_OUTBOUND_LIMIT;
    long outboundQueueBytes = GatewayConfig.DEFAULT_OUTBOUND_BYTES;
    Duration callRingTimeout = Duration.ofSeconds(30);
    String webhookSecret;
    int webhookAttempts = 6;
    Duration webhookFirstRetry = Duration.ofSeconds(1);
    Duration webhookLease = Duration.ofSeconds(30);
    List<TenantConfig> tenants = new ArrayList<>();
    Duration presenceInterval = Gateway.DEFAULT_PRESENCE_INTERVAL;
    Path dataDir;
    String databaseUrl;
    String databaseUser;
    String databasePassword;
    String databaseSchema;
    boolean webSocketCompression;
    BusFaults busFaults = BusFaults.NONE;
    Boolean devApi;
    Boolean console;
    Path seed;

    /** Returns a copy of these options (the tenant list unmodifiable). */
    ServerOptions copy() {
        ServerOptions copy = new ServerOptions();
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
        copy.busFaults = busFaults;
        copy.devApi = devApi;
        copy.console = console;
        copy.seed = seed;
        return copy;
    }

    /** Returns where the server keeps its state: {@code memory}, {@code sqlite:<dir>} or {@code postgresql}. */
    String storage() {
        if (dataDir != null) {
            return "sqlite:" + dataDir.toAbsolutePath();
        }
        return databaseUrl != null ? "postgresql" : "memory";
    }
}
