package dev.svc.chat.reference;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.svc.chat.reference.store.Database;

/**
 * The command-line flags of the jar, parsed and checked. Each flag maps to one {@link ReferenceServer.Builder}
 * option; a bad flag throws {@link IllegalArgumentException} with a message that names it.
 */
final class CommandLine {

    static final String USAGE = String.join("\n",
            "usage: java -jar svc-chat-reference-server.jar [options]",
            "  --port N                 port to listen on (default 8080; 0 picks a free port)",
            "  --host H                 interface to listen on (default 127.0.0.1)",
            "  --tenant ID:KEY          another tenant with API key KEY (sk_...); repeatable",
            "  --tenants-file PATH      tenants from a JSON file: {\"tenants\": [{\"id\", \"apiKey\",",
            "                           \"autoCreateUsers\"?, \"callsEnabled\"?, \"webhookUrl\"?, \"webhookSecret\"?}]}",
            "  --ping-interval DUR      how often the gateway pings (default 25s)",
            "  --ping-timeout DUR       how long it waits for the pong (default 20s)",
            "  --connect-timeout DUR    how long a socket may stay without a Socket.IO CONNECT (default 45s)",
            "  --send-rate N            sends a second per user, sustained (default 20)",
            "  --send-burst N           sends per user at once (default 40)",
            "  --ws-compression         offer permessage-deflate to WebSocket clients (default off, like the",
            "                           official server: each frame would be compressed once per connection)",
            "  --no-send-pacing         no effect: every REST send is answered at once (kept for old scripts)",
            "  --call-ring-timeout DUR  how long a call rings before it is missed (default 30s)",
            "  --data-dir DIR           keep everything in an embedded SQLite database in DIR (created if absent);",
            "                           what was acknowledged survives a restart and a kill -9",
            "  --database-url URL       keep everything in PostgreSQL (jdbc:postgresql://host:5432/db); user and",
            "                           password from env SVC_DB_USER and SVC_DB_PASSWORD (or in the URL)",
            "  --database-schema NAME   use (and create) this schema of that database instead of the default",
            "  --dev-api on|off         the dev API under /v1/dev/ (default: on when bound to loopback only)",
            "  --console on|off         the web console at /console/ (default: on when bound to loopback only)",
            "  --seed FILE.json         load users, rooms and messages at start, idempotently (docs/console.md)",
            "  --help                   print this and exit",
            "  DUR is a number with ms, s or m (500ms, 25s, 2m); a bare number is seconds",
            "  env SVC_API_KEY          the dev tenant's API key (must start with sk_); generated when unset",
            "  env SVC_WEBHOOK_SECRET   the dev tenant's webhook secret (whsec_...); generated when unset");

    private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})(ms|s|m)?");

    int port = 8080;
    String host = "127.0.0.1";
    boolean help;
    final List<TenantConfig> tenants = new ArrayList<>();
    Duration pingInterval;
    Duration pingTimeout;
    Duration connectTimeout;
    Duration callRingTimeout;
    Double sendRate;
    Integer sendBurst;
    Path dataDir;
    String databaseUrl;
    String databaseSchema;
    boolean webSocketCompression;
    Boolean devApi;
    Boolean console;
    Path seed;

    private CommandLine() {
    }

    /** Parses {@code args}; throws {@link IllegalArgumentException} for an unknown flag or a bad value. */
    static CommandLine parse(String[] args) {
        CommandLine line = new CommandLine();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            switch (flag) {
                case "--help", "-h" -> line.help = true;
                case "--port" -> line.port = port(value(args, ++i));
                case "--host" -> line.host = host(value(args, ++i));
                case "--tenant" -> line.tenants.add(tenant(value(args, ++i)));
                case "--tenants-file" -> line.tenants.addAll(TenantsFile.read(Path.of(value(args, ++i))));
                case "--ping-interval" -> line.pingInterval = duration(flag, value(args, ++i));
                case "--ping-timeout" -> line.pingTimeout = duration(flag, value(args, ++i));
                case "--connect-timeout" -> line.connectTimeout = duration(flag, value(args, ++i));
                case "--call-ring-timeout" -> line.callRingTimeout = duration(flag, value(args, ++i));
                case "--send-rate" -> line.sendRate = rate(value(args, ++i));
                case "--ws-compression" -> line.webSocketCompression = true;
                case "--no-send-pacing" -> { } // sends are never held any more: accepted, no effect
                case "--send-burst" -> line.sendBurst = burst(value(args, ++i));
                case "--data-dir" -> line.dataDir = Path.of(value(args, ++i));
                case "--database-url" -> line.databaseUrl = value(args, ++i);
                case "--database-schema" -> line.databaseSchema = value(args, ++i);
                case "--dev-api" -> line.devApi = onOff(flag, value(args, ++i));
                case "--console" -> line.console = onOff(flag, value(args, ++i));
                case "--seed" -> line.seed = Path.of(value(args, ++i));
                default -> throw new IllegalArgumentException("unknown argument: " + flag);
            }
        }
        if (line.dataDir != null && line.databaseUrl != null) {
            throw new IllegalArgumentException("--data-dir and --database-url exclude each other");
        }
        if (line.databaseSchema != null && line.databaseUrl == null) {
            throw new IllegalArgumentException("--database-schema needs --database-url");
        }
        if (line.databaseUrl != null && !Database.isPostgresUrl(line.databaseUrl)) {
            throw new IllegalArgumentException("--database-url must be a JDBC URL starting with jdbc:postgresql:");
        }
        return line;
    }

    /** Applies the parsed options to {@code builder} and returns it. */
    ReferenceServer.Builder applyTo(ReferenceServer.Builder builder) {
        return applyTo(builder, null, null);
    }

    /** Applies the parsed options, with the database user and password from the environment, to {@code builder}. */
    ReferenceServer.Builder applyTo(ReferenceServer.Builder builder, String dbUser, String dbPassword) {
        if (dataDir != null) {
            builder.dataDir(dataDir);
        }
        if (databaseUrl != null) {
            builder.databaseUrl(databaseUrl, blankToNull(dbUser), blankToNull(dbPassword));
        }
        if (databaseSchema != null) {
            builder.databaseSchema(databaseSchema);
        }
        builder.host(host).port(port).webSocketCompression(webSocketCompression);
        for (TenantConfig tenant : tenants) {
            builder.tenant(tenant);
        }
        if (devApi != null) {
            builder.devApi(devApi);
        }
        if (console != null) {
            builder.console(console);
        }
        if (seed != null) {
            builder.seed(seed);
        }
        if (pingInterval != null) {
            builder.pingInterval(pingInterval);
        }
        if (pingTimeout != null) {
            builder.pingTimeout(pingTimeout);
        }
        if (connectTimeout != null) {
            builder.connectTimeout(connectTimeout);
        }
        if (callRingTimeout != null) {
            builder.callRingTimeout(callRingTimeout);
        }
        if (sendRate != null || sendBurst != null) {
            builder.sendRateLimit(sendRate != null ? sendRate : ReferenceServer.DEFAULT_SEND_RATE,
                    sendBurst != null ? sendBurst : ReferenceServer.DEFAULT_SEND_BURST);
        }
        return builder;
    }

    /** Returns {@code 25s}, {@code 500ms}, {@code 2m} or a bare number of seconds as a positive duration. */
    static Duration duration(String flag, String value) {
        Matcher m = DURATION.matcher(value);
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            throw new IllegalArgumentException(flag + " must be a positive duration like 500ms, 25s or 2m: " + value);
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofSeconds(n);
        };
    }

    private static String blankToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static TenantConfig tenant(String value) {
        int colon = value.indexOf(':');
        if (colon < 1 || colon == value.length() - 1) {
            throw new IllegalArgumentException("--tenant must be ID:KEY, e.g. acme:sk_test_acme_key");
        }
        return TenantConfig.of(value.substring(0, colon), value.substring(colon + 1));
    }

    private static boolean onOff(String flag, String value) {
        return switch (value) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException(flag + " must be on or off: " + value);
        };
    }

    private static int port(String value) {
        int port;
        try {
            port = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port must be a number: " + value);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0 to 65535");
        }
        return port;
    }

    private static String host(String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException("host is blank");
        }
        return value;
    }

    private static double rate(String value) {
        try {
            double rate = Double.parseDouble(value);
            if (rate > 0 && rate <= 1_000_000) {
                return rate;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException("--send-rate must be a number above 0 and at most 1000000: " + value);
    }

    private static int burst(String value) {
        try {
            int burst = Integer.parseInt(value);
            if (burst >= 1) {
                return burst;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException("--send-burst must be a whole number of at least 1: " + value);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("missing value for " + args[i - 1]);
        }
        return args[i];
    }
}
