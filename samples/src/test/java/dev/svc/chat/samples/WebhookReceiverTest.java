package dev.svc.chat.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.svc.chat.ChatClient;
import dev.svc.chat.Svc;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.WebhookEvent;
import dev.svc.chat.server.WebhookVerifier;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The webhook receiver sample against the reference server's real deliveries, plus replays and forgeries. */
class WebhookReceiverTest {
  private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

  private final BlockingQueue<WebhookEvent> events = new LinkedBlockingQueue<>();
  private final HttpClient http = HttpClient.newHttpClient();
  private ReferenceServer server;
  private Javalin app;
  private String hookUrl;

  @BeforeEach
  void start() throws Exception {
    server = ReferenceServer.builder().webhookSecret(SECRET).build().start();
    app = Javalin.create(c -> c.showJavalinBanner = false)
        .post("/hooks", new WebhookReceiver(WebhookVerifier.create(SECRET), events::add))
        .start("127.0.0.1", 0);
    hookUrl = "http://127.0.0.1:" + app.port() + "/hooks";
    HttpRequest patch = HttpRequest.newBuilder(URI.create(server.apiUrl() + "/tenant/settings"))
        .header("x-api-key", server.apiKey())
        .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"webhookUrl\":\"" + hookUrl + "\"}")).build();
    assertEquals(200, http.send(patch, HttpResponse.BodyHandlers.ofString()).statusCode());
  }

  @AfterEach
  void stop() {
    app.stop();
    server.close();
  }

  private int post(String id, long timestamp, String signature, String body) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(hookUrl))
        .header("webhook-id", id).header("webhook-timestamp", Long.toString(timestamp))
        .header("webhook-signature", signature).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  @Test
  void receivesVerifiesAndDeduplicates() throws Exception {
    TenantBackend backend = new TenantBackend(server.apiUrl(), server.apiKey());
    String room = backend.createRoom("hooks", "alice", "bob");
    try (ChatClient alice = Svc.init(server.apiUrl())) {
      alice.connect("alice", backend.mintToken("alice", "Alice")).get(10, TimeUnit.SECONDS);
      String id = alice.sendText(room, "hello hooks").get(10, TimeUnit.SECONDS).id();
      WebhookEvent event = events.poll(10, TimeUnit.SECONDS);
      assertNotNull(event, "no webhook within 10 s");
      assertEquals(WebhookEvent.MESSAGE_NEW, event.type());
      assertEquals(id, event.message().id());
    }

    WebhookVerifier signer = WebhookVerifier.create(SECRET);
    long now = System.currentTimeMillis() / 1000;
    String body = "{\"type\":\"room.read\",\"timestamp\":\"2026-11-21T10:00:00.000Z\",\"data\":{\"seq\":1}}";
    assertEquals(204, post("msg_replay", now, signer.sign("msg_replay", now, body), body));
    assertEquals(204, post("msg_replay", now, signer.sign("msg_replay", now, body), body), "a retry");
    assertEquals("msg_replay", events.poll(10, TimeUnit.SECONDS).webhookId());
    assertEquals(400, post("msg_forged", now, signer.sign("msg_forged", now, body), body.replace("1", "2")));
    assertEquals(400, post("msg_old", now - 3600, signer.sign("msg_old", now - 3600, body), body));
    assertNull(events.poll(), "the repeat and the forgeries were not passed on");
  }
}
