package dev.svc.chat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.chat.Call;
import dev.svc.chat.CallKind;
import dev.svc.chat.ChatClient;
import dev.svc.chat.MessagePart;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.WebhookEvent;
import dev.svc.chat.server.WebhookVerificationException;
import dev.svc.chat.server.WebhookVerifier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Webhook signatures checked by an independent implementation, the npm {@code standardwebhooks} package:
 * the reference server's deliveries verify there, and its signatures verify with the SDK's verifier.
 */
class WebhookInteropTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private ChatFixture chat;
  private Admin admin;
  private NodeScript node;

  @BeforeEach
  void start() throws Exception {
    chat = new ChatFixture(ReferenceServer.builder());
    admin = chat.admin();
    ObjectNode cfg = JSON.createObjectNode().put("secret", chat.server().webhookSecret());
    node = NodeScript.start("standard-webhooks.js", cfg.toString());
  }

  @AfterEach
  void stop() throws Exception {
    chat.close();
    node.close();
  }

  @Test
  void theServersWebhooksVerifyWithTheStandardWebhooksPackage() throws Exception {
    int port = node.await("listening", WAIT).get("port").asInt();
    Admin.Answer patched = admin.call("PATCH", "/v1/tenant/settings",
        Map.of("webhookUrl", "http://127.0.0.1:" + port + "/hooks"), admin.apiKeyHeader());
    assertEquals(200, patched.status());
    assertTrue(patched.body().get("webhookSecret").asText().startsWith("whsec_"));

    String room = admin.createRoom("pair", "alice", "bob");
    ChatClient alice = chat.newClient();
    alice.connect("alice", admin.mint("alice")).get(30, TimeUnit.SECONDS);
    String messageId = alice.sendText(room, "héllo ✓ \"quoted\"").get(30, TimeUnit.SECONDS).id();
    alice.updateMessage(room, messageId, List.of(MessagePart.text("edited"))).get(30, TimeUnit.SECONDS);
    alice.markRead(room, messageId).get(30, TimeUnit.SECONDS);
    Call call = alice.startCall(room, CallKind.AUDIO).get(30, TimeUnit.SECONDS);
    alice.endCall(call.id()).get(30, TimeUnit.SECONDS);

    // deliveries may arrive in any order: collect the five types
    Map<String, JsonNode> byType = new java.util.HashMap<>();
    while (byType.size() < 5) {
      JsonNode hook = node.await("webhook", WAIT);
      assertTrue(hook.get("ok").asBoolean(), "standardwebhooks rejected it: " + hook);
      byType.put(hook.get("type").asText(), hook);
    }
    assertEquals(messageId, JSON.readTree(byType.get("message.new").get("body").asText())
        .get("data").get("id").asText());
    JsonNode updated = JSON.readTree(byType.get("message.updated").get("body").asText()).get("data");
    assertEquals("edited", updated.at("/parts/0/text").asText());
    assertEquals(messageId, JSON.readTree(byType.get("room.read").get("body").asText()).at("/data/messageId").asText());
    JsonNode ended = JSON.readTree(byType.get("call.ended").get("body").asText());
    assertEquals("hangup", ended.get("data").get("endReason").asText());
    assertEquals(call.id(), JSON.readTree(byType.get("call.started").get("body").asText())
        .get("data").get("id").asText());
  }

  @Test
  void ourVerifierAcceptsThePackagesSignaturesAndRejectsForgeries() throws Exception {
    long now = System.currentTimeMillis() / 1000;
    String body = "{\"type\":\"message.new\",\"timestamp\":\"2026-11-21T10:00:00.000Z\","
        + "\"data\":{\"id\":\"m1\",\"roomId\":\"r1\",\"seq\":1,\"senderId\":\"alice\",\"parts\":[],"
        + "\"clientMessageId\":\"c1\",\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"reactions\":{}}}";
    String signature = sign("msg_1", now, body);
    WebhookVerifier verifier = WebhookVerifier.create(chat.server().webhookSecret());

    WebhookEvent event = verifier.verify(body, "msg_1", Long.toString(now), signature);
    assertEquals("message.new", event.type());
    assertEquals("m1", event.message().id());
    assertEquals("msg_1", event.webhookId());

    WebhookVerificationException tampered = assertThrows(WebhookVerificationException.class,
        () -> verifier.verify(body.replace("alice", "mallory"), "msg_1", Long.toString(now), signature));
    assertEquals(WebhookVerificationException.Reason.NO_MATCHING_SIGNATURE, tampered.reason());

    WebhookVerifier wrongSecret = WebhookVerifier.create("whsec_" + java.util.Base64.getEncoder()
        .encodeToString(new byte[24]));
    assertEquals(WebhookVerificationException.Reason.NO_MATCHING_SIGNATURE, assertThrows(
        WebhookVerificationException.class,
        () -> wrongSecret.verify(body, "msg_1", Long.toString(now), signature)).reason());

    long old = now - 6 * 60;
    String oldSignature = sign("msg_2", old, body);
    assertEquals(WebhookVerificationException.Reason.TIMESTAMP_TOO_OLD, assertThrows(
        WebhookVerificationException.class,
        () -> verifier.verify(body, "msg_2", Long.toString(old), oldSignature)).reason());

    // the same signature from both implementations, and several signatures in one header
    assertEquals(signature, verifier.sign("msg_1", now, body));
    verifier.verify(body, "msg_1", Long.toString(now), "v1,AAAA " + signature);
  }

  private String sign(String id, long timestamp, String body) throws Exception {
    ObjectNode cmd = JSON.createObjectNode().put("cmd", "sign").put("id", id).put("timestamp", timestamp)
        .put("body", body);
    node.send(cmd.toString());
    return node.await("signed", WAIT).get("signature").asText();
  }
}
