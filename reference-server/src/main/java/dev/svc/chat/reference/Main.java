package dev.svc.chat.reference;

import dev.svc.chat.reference.webhook.WebhookSigner;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;

/**
 * Runs the reference server from the command line: {@code java -jar svc-chat-reference-server.jar [options]}
 * ({@code --help} lists them). The dev tenant's API key comes from {@code SVC_API_KEY} when set, else one is
 * generated and printed once.
 */
public final class Main {

    private Main() {
    }

    /** Starts the server and keeps it running until the JVM is stopped. */
    public static void main(String[] args) {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            System.out.println(CommandLine.USAGE);
            return;
        }
        // Every log line passes the redaction, Jetty's DEBUG lines with request headers included (before any
        // logger exists: slf4j-simple writes to System.err, looked up on each line).
        System.setErr(LogRedaction.redacting(System.err));
        if (System.getProperty("org.slf4j.simpleLogger.logFile") == null) {
            System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        }
        // Keep the console to our own lines unless the operator asks for more (before any logger exists).
        quietUnlessSet("org.slf4j.simpleLogger.log.io.javalin");
        quietUnlessSet("org.slf4j.simpleLogger.log.org.eclipse.jetty");
        quietUnlessSet("org.slf4j.simpleLogger.log.org.flywaydb");
        quietUnlessSet("org.slf4j.simpleLogger.log.com.zaxxer.hikari");
        IdleMemory.returnHeapWhenIdle();
        ReferenceServer server = startWithEnv(args, System.getenv(), System.out, System.err);
        if (server == null) {
            System.exit(2);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "svc-ref-shutdown"));
    }

    /** Parses {@code args} and returns the started server, or prints the usage and returns null. */
    static ReferenceServer start(String[] args, String envApiKey, PrintStream out, PrintStream err) {
        return start(args, envApiKey, null, out, err);
    }

    /**
     * Parses {@code args} and returns the started server, or prints the usage and returns null; reads
     * {@code SVC_API_KEY}, {@code SVC_WEBHOOK_SECRET}, {@code SVC_DB_USER} and {@code SVC_DB_PASSWORD} from
     * {@code env}.
     */
    static ReferenceServer startWithEnv(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        return start(args, env.get("SVC_API_KEY"), env.get("SVC_WEBHOOK_SECRET"), env.get("SVC_DB_USER"),
                env.get("SVC_DB_PASSWORD"), out, err);
    }

    /**
     * Parses {@code args} and returns the started server, or prints the usage and returns null; a non-empty
     * {@code envWebhookSecret} becomes the dev tenant's webhook secret.
     */
    static ReferenceServer start(String[] args, String envApiKey, String envWebhookSecret, PrintStream out,
                                 PrintStream err) {
        return start(args, envApiKey, envWebhookSecret, null, null, out, err);
    }

    private static ReferenceServer start(String[] args, String envApiKey, String envWebhookSecret, String dbUser,
                                         String dbPassword, PrintStream out, PrintStream err) {
        ReferenceServer.Builder builder = ReferenceServer.builder();
        ReferenceServer server;
        try {
            CommandLine line = CommandLine.parse(args);
            if (line.help) {
                out.println(CommandLine.USAGE);
                return null;
            }
            if (envApiKey != null && !envApiKey.isEmpty() && !envApiKey.startsWith("sk_")) {
                throw new IllegalArgumentException("SVC_API_KEY must start with sk_");
            }
            if (envWebhookSecret != null && !envWebhookSecret.isEmpty()
                    && !WebhookSigner.isValid(envWebhookSecret)) {
                // Never echo the value: it is a secret.
                throw new IllegalArgumentException(
                        "SVC_WEBHOOK_SECRET must be whsec_ followed by the base64 of 24 to 64 bytes");
            }
            line.applyTo(builder, dbUser, dbPassword);
            if (envApiKey != null && !envApiKey.isEmpty()) {
                builder.apiKey(envApiKey);
            }
            if (envWebhookSecret != null && !envWebhookSecret.isEmpty()) {
                builder.webhookSecret(envWebhookSecret);
            }
            server = builder.build();
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.println(CommandLine.USAGE);
            return null;
        } catch (RuntimeException e) {
            // The database could not be opened: locked by another process, unreachable, refused the login.
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            err.println("error: cannot open the storage: " + cause.getMessage());
            return null;
        }
        try {
            server.start();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        boolean generated = envApiKey == null || envApiKey.isEmpty();
        out.println("svc reference server listening on " + server.apiUrl());
        server.consoleUrl().ifPresent(url -> out.println("console: " + url + " (sign in with the API key)"));
        out.println("storage: " + server.storage());
        if (generated && !server.storage().equals("memory")) {
            out.println("dev tenant \"" + server.tenantId() + "\" API key: " + server.apiKey()
                    + " (kept in the database)");
        } else if (generated) {
            // Printed once, on purpose: a local dev server is useless without its key.
            out.println("dev tenant \"" + server.tenantId() + "\" API key: " + server.apiKey());
        } else {
            out.println("dev tenant \"" + server.tenantId() + "\" API key: from SVC_API_KEY");
        }
        for (String id : server.configuredTenantIds()) {
            out.println("tenant \"" + id + "\" API key: as configured");
        }
        // The secret itself is never printed: the tenant backend reads it with GET /v1/tenant/settings.
        out.println("webhook secret: " + (envWebhookSecret != null && !envWebhookSecret.isEmpty()
                ? "from SVC_WEBHOOK_SECRET" : "generated (GET /v1/tenant/settings shows it)"));
        return server;
    }

    private static void quietUnlessSet(String property) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, "warn");
        }
    }
}
