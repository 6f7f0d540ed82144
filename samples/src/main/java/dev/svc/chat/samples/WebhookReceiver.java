package dev.svc.chat.samples;

import dev.svc.chat.server.WebhookEvent;
import dev.svc.chat.server.WebhookVerificationException;
import dev.svc.chat.server.WebhookVerifier;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tenant backend's webhook endpoint, as a Javalin handler: mount it with
 * {@code app.post("/webhooks/svc", new WebhookReceiver(verifier, event -> ...))}.
 *
 * <p>It verifies the raw body and the Standard Webhooks headers with {@link WebhookVerifier} (400 when they
 * do not verify, so a forgery is never acted on), passes each event once to the consumer, and answers 204.
 * The service retries an event whose delivery failed with the same {@code webhook-id}, so the receiver
 * remembers the latest ids and answers a repeat 204 without passing it on. A consumer that throws makes the
 * answer 500 and forgets the id, so the service's retry is processed.
 */
public final class WebhookReceiver implements Handler {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookReceiver.class);
  /** How many webhook ids are remembered for deduplication (retries come within hours, not days). */
  static final int REMEMBERED_IDS = 10_000;

  private final WebhookVerifier verifier;
  private final Consumer<WebhookEvent> consumer;
  private final Map<String, Boolean> seen = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > REMEMBERED_IDS;
    }
  };

  /** Creates a receiver that hands each verified, new event to {@code consumer} (on Jetty's thread). */
  public WebhookReceiver(WebhookVerifier verifier, Consumer<WebhookEvent> consumer) {
    this.verifier = Objects.requireNonNull(verifier, "verifier");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
  }

  @Override
  public void handle(Context ctx) {
    WebhookEvent event;
    try {
      // The raw body, exactly as sent: parsing and re-serializing it would break the signature.
      event = verifier.verify(ctx.body(), ctx.headerMap());
    } catch (WebhookVerificationException e) {
      LOG.warn("rejected a webhook: {} ({})", e.reason(), e.getMessage());
      ctx.status(400).result(e.reason().name());
      return;
    }
    synchronized (seen) {
      if (seen.put(event.webhookId(), Boolean.TRUE) != null) {
        ctx.status(204);
        return;
      }
    }
    try {
      consumer.accept(event);
    } catch (RuntimeException e) {
      synchronized (seen) {
        seen.remove(event.webhookId());
      }
      LOG.error("handling webhook {} ({}) failed; the service will retry it", event.webhookId(), event.type(), e);
      ctx.status(500);
      return;
    }
    ctx.status(204);
  }
}
