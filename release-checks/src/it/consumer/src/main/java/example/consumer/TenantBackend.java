package example.consumer;

import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.MintedToken;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.server.WebhookEvent;
import dev.svc.chat.server.WebhookVerifier;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** A tenant backend's code on svc-chat-server-sdk: minting for its signed-in user, and a webhook's check. */
public final class TenantBackend {
  private final ServerClient svc;
  private final WebhookVerifier webhooks;

  public TenantBackend(String apiUrl, String apiKey, String webhookSecret) {
    this.svc = ServerClient.create(apiUrl, apiKey);
    this.webhooks = WebhookVerifier.create(webhookSecret);
  }

  /** Mints a token for the signed-in user, without blocking the caller. */
  public CompletableFuture<String> sessionToken(String signedInUserId, String displayName) {
    return svc.mintTokenAsync(MintRequest.builder(signedInUserId).username(displayName)
        .expiresIn(Duration.ofHours(1)).build()).thenApply(MintedToken::token);
  }

  /** Returns the verified event of a webhook's raw body and headers. */
  public WebhookEvent webhook(String rawBody, Map<String, String> headers) {
    return webhooks.verify(rawBody, headers);
  }
}
