package dev.svc.chat.samples.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.Svc;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.samples.WebhookReceiverMain;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.server.WebhookEvent;
import dev.svc.chat.server.WebhookVerifier;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The tenant backend sample's login and session route: the user comes from the cookie only. */
class TenantBackendServerTest {
  private ReferenceServer server;
  private TenantBackendServer backend;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void setUp() {
    server = ReferenceServer.builder().port(0).build().start();
    backend = new TenantBackendServer(ServerClient.create(server.apiUrl(), server.apiKey())).start(0);
  }

  @AfterEach
  void tearDown() {
    backend.close();
    server.close();
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void withoutALoginTheRouteAnswers401() throws Exception {
    HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(backend.url() + "/api/chat/session?userId=alice")));
    assertEquals(401, r.statusCode());
    assertEquals(0, backend.sessionsMinted());
  }

  @Test
  void theSessionIsForTheSignedInUserWhateverTheRequestSays() throws Exception {
    HttpResponse<String> login = send(HttpRequest.newBuilder(URI.create(backend.url() + "/login"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"alice\"}")));
    assertEquals(200, login.statusCode());
    String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
    assertTrue(setCookie.contains("HttpOnly"), setCookie);
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));

    HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(backend.url() + "/api/chat/session?userId=mallory"))
        .header("Cookie", cookie)
        .POST(HttpRequest.BodyPublishers.ofString("{\"userId\":\"mallory\",\"chatUserId\":\"mallory\"}")));
    assertEquals(200, r.statusCode());
    assertEquals("alice", field(r.body(), "chatUserId"));
    assertEquals("Alice", field(r.body(), "displayName"));
    assertEquals(server.apiUrl(), field(r.body(), "apiUrl"));
    assertTrue(field(r.body(), "expiresAt").endsWith(".000Z"));
    assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(""));

    send(HttpRequest.newBuilder(URI.create(backend.url() + "/logout")).header("Cookie", cookie)
        .POST(HttpRequest.BodyPublishers.noBody()));
    assertEquals(401, send(HttpRequest.newBuilder(URI.create(backend.url() + "/api/chat/session"))
        .header("Cookie", cookie)).statusCode());
  }

  @Test
  void theBackendReceivesAndVerifiesTheServicesWebhooks() throws Exception {
    BlockingQueue<WebhookEvent> hooks = new LinkedBlockingQueue<>();
    ServerClient svc = ServerClient.create(server.apiUrl(), server.apiKey());
    try (TenantBackendServer withHooks = new TenantBackendServer(svc)
        .receiveWebhooks(WebhookVerifier.create(server.webhookSecret()), hooks::add).start(0)) {
      HttpResponse<String> patched = send(HttpRequest.newBuilder(URI.create(server.apiUrl() + "/tenant/settings"))
          .header("x-api-key", server.apiKey())
          .method("PATCH", HttpRequest.BodyPublishers.ofString(
              "{\"webhookUrl\":\"" + withHooks.url() + WebhookReceiverMain.PATH + "\"}")));
      assertEquals(200, patched.statusCode());

      String room = svc.createRoom("hooks", List.of("alice", "bob")).id();
      try (ChatClient alice = Svc.init(server.apiUrl())) {
        alice.connect("alice", svc.mintToken(MintRequest.builder("alice").username("Alice").build()).token()).get(10, TimeUnit.SECONDS);
        String id = alice.sendText(room, "hello backend").get(10, TimeUnit.SECONDS).id();
        WebhookEvent event = hooks.poll(10, TimeUnit.SECONDS);
        assertNotNull(event, "no webhook at the backend within 10 s");
        assertEquals(WebhookEvent.MESSAGE_NEW, event.type());
        assertEquals(id, event.message().id());
      }
    }
  }

  private static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
    assertTrue(m.find(), name + " in " + json);
    return m.group(1);
  }
}
