package dev.svc.chat.samples;

import dev.svc.chat.server.WebhookVerifier;
import io.javalin.Javalin;

/**
 * Runs {@link WebhookReceiver} alone and prints every verified event:
 * {@code SVC_WEBHOOK_SECRET=whsec_... java -cp svc-chat-demo.jar dev.svc.chat.samples.WebhookReceiverMain [port]}.
 * Then set the tenant's {@code webhookUrl} to {@code http://127.0.0.1:<port>/webhooks/svc}
 * ({@code PATCH /v1/tenant/settings} with the API key). The secret is the tenant's {@code webhookSecret}.
 */
public final class WebhookReceiverMain {
  /** The path the receiver is mounted on. */
  public static final String PATH = "/webhooks/svc";

  private WebhookReceiverMain() {
  }

  /** Starts the receiver on 127.0.0.1 and the given port (default 3000) until the JVM is stopped. */
  public static void main(String[] args) {
    String secret = System.getenv("SVC_WEBHOOK_SECRET");
    if (secret == null || secret.isEmpty()) {
      System.err.println("set SVC_WEBHOOK_SECRET to the tenant's webhook secret (whsec_...)");
      System.exit(2);
      return;
    }
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
    Javalin app = start(WebhookVerifier.create(secret), "127.0.0.1", port);
    System.out.println("webhook receiver on http://127.0.0.1:" + app.port() + PATH);
    Runtime.getRuntime().addShutdownHook(new Thread(app::stop, "webhook-receiver-shutdown"));
  }

  /** Starts a Javalin app with the receiver on {@link #PATH}, printing each event; returns it started. */
  static Javalin start(WebhookVerifier verifier, String host, int port) {
    Javalin app = Javalin.create(config -> {
      config.showJavalinBanner = false;
      config.startupWatcherEnabled = false;
    });
    app.post(PATH, new WebhookReceiver(verifier, event ->
        System.out.println(event.type() + " " + event.webhookId() + " " + event.dataJson())));
    return app.start(host, port);
  }
}
