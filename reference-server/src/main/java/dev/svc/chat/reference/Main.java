package dev.svc.chat.reference;

import dev.svc.chat.reference.webhook.WebhookSigner;
import java.io.PrintStream;

/**
 * Runs the reference server from the command line:
 * {@code java -jar svc-chat-reference-server.jar [--port N] [--host H]}. The dev tenant's API key comes from
 * {@code SVC_API_KEY} when set, else one is generated and printed once.
 */
public final class Main {

    private static final String USAGE = "usage: java -jar svc-chat-reference-server.jar [--port N] [--host H]\n"
            + "  --port N   port to listen on (default 8080; 0 picks a free port)\n"
            + "  --host H   interface to listen on (default 127.0.0.1)\n"
            + "  env SVC_API_KEY   the dev tenant's API key (must start with sk_); generated when unset\n"
            + "  env SVC_WEBHOOK_SECRET   the dev tenant's webhook secret (whsec_...); generated when unset";

    private Main() {
    }

    /** Starts the server and keeps it running until the JVM is stopped. */
    public static void main(String[] args) {
        if (args.length == 1 && ("--help".equals(args[0]) || "-h".equals(args[0]))) {
            System.out.println(USAGE);
            return;
        }
        // Keep the console to our own two lines unless the operator asks for more (before any logger exists).
        quietUnlessSet("org.slf4j.simpleLogger.log.io.javalin");
        quietUnlessSet("org.slf4j.simpleLogger.log.org.eclipse.jetty");
        ReferenceServer server = start(args, System.getenv("SVC_API_KEY"), System.getenv("SVC_WEBHOOK_SECRET"),
                System.out, System.err);
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
     * Parses {@code args} and returns the started server, or prints the usage and returns null; a non-empty
     * {@code envWebhookSecret} becomes the dev tenant's webhook secret.
     */
    static ReferenceServer start(String[] args, String envApiKey, String envWebhookSecret, PrintStream out,
                                 PrintStream err) {
        int port = 8080;
        String host = "127.0.0.1";
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--port" -> port = Integer.parseInt(value(args, ++i));
                    case "--host" -> host = value(args, ++i);
                    default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
                }
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0 to 65535");
            }
            if (host.isBlank()) {
                throw new IllegalArgumentException("host is blank");
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
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.println(USAGE);
            return null;
        }
        ReferenceServer.Builder builder = ReferenceServer.builder().host(host).port(port);
        boolean generated = envApiKey == null || envApiKey.isEmpty();
        if (!generated) {
            builder.apiKey(envApiKey);
        }
        if (envWebhookSecret != null && !envWebhookSecret.isEmpty()) {
            builder.webhookSecret(envWebhookSecret);
        }
        ReferenceServer server = builder.build().start();
        out.println("svc reference server listening on " + server.apiUrl());
        if (generated) {
            // Printed once, on purpose: a local dev server is useless without its key.
            out.println("dev tenant \"" + server.tenantId() + "\" API key: " + server.apiKey());
        } else {
            out.println("dev tenant \"" + server.tenantId() + "\" API key: from SVC_API_KEY");
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

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("missing value for " + args[i - 1]);
        }
        return args[i];
    }
}
