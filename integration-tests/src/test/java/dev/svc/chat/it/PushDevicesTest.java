package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.PushPlatform;
import dev.svc.chat.reference.ReferenceServer;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Push device tokens through the SDK, and the pushes the reference server records for offline members. */
class PushDevicesTest {
  private ChatFixture chat;
  private Admin admin;

  @BeforeEach
  void start() {
    chat = new ChatFixture(ReferenceServer.builder());
    admin = chat.admin();
  }

  @AfterEach
  void stop() {
    chat.close();
  }

  private JsonNode outbox(String userId) throws Exception {
    Admin.Answer a = admin.call("GET", "/v1/push/outbox?userId=" + userId, null, admin.apiKeyHeader());
    assertEquals(200, a.status());
    return a.body().get("pushes");
  }

  @Test
  void registrationIsRefusedUnlessConnected() throws Exception {
    ChatClient neverConnected = chat.newClient();
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> await(neverConnected.registerDeviceToken("fcm-token-1", PushPlatform.FCM)));
    ChatStateException refused = assertInstanceOf(ChatStateException.class, e.getCause());
    assertTrue(refused.getMessage().contains("connected with a session token"), refused.getMessage());

    ChatClient alice = chat.connected("alice");
    await(alice.registerDeviceToken("fcm-token-1", PushPlatform.FCM));
    await(alice.disconnect());
    ExecutionException afterDisconnect = assertThrows(ExecutionException.class,
        () -> await(alice.unregisterDeviceToken("fcm-token-1")));
    assertInstanceOf(ChatStateException.class, afterDisconnect.getCause());
    assertThrows(IllegalArgumentException.class, () -> alice.registerDeviceToken("has space", PushPlatform.APNS));
  }

  @Test
  void aPushIsRecordedForAnOfflineMemberAndNotForAnOnlineOne() throws Exception {
    String room = admin.createRoom("team", "alice", "bob", "carol");
    // bob registered his phone earlier and has no connection now
    Admin.Answer registered = admin.call("POST", "/v1/push/devices",
        Map.of("token", "bob-apns-1", "platform", "apns"), Admin.bearer(admin.mint("bob")));
    assertEquals(201, registered.status());
    assertEquals("bob", registered.body().get("userId").asText());
    // carol registers through the SDK and stays connected: the gateway delivers to her instead
    ChatClient carol = chat.connected("carol");
    await(carol.registerDeviceToken("carol-fcm-1", PushPlatform.FCM));
    await(carol.joinRoom(room)); // a gateway round trip: her connection is indexed by now
    ChatClient alice = chat.connected("alice");
    await(alice.registerDeviceToken("alice-fcm-1", PushPlatform.FCM));

    String messageId = await(alice.sendText(room, "lunch at noon?")).id();

    JsonNode bobs = outbox("bob");
    assertEquals(1, bobs.size(), bobs.toString());
    JsonNode push = bobs.get(0);
    assertEquals("bob-apns-1", push.get("token").asText());
    assertEquals("apns", push.get("platform").asText());
    assertEquals(messageId, push.get("messageId").asText());
    assertEquals(room, push.get("roomId").asText());
    assertEquals("alice", push.get("senderId").asText());
    assertEquals("lunch at noon?", push.get("body").asText());
    assertEquals(0, outbox("carol").size(), "carol is online");
    assertEquals(0, outbox("alice").size(), "never the sender");

    // an unregistered token gets nothing more
    await(carol.disconnect());
    Admin.Answer removed = admin.call("DELETE", "/v1/push/devices/bob-apns-1", null, Admin.bearer(admin.mint("bob")));
    assertEquals(204, removed.status());
    await(alice.sendText(room, "never mind"));
    assertEquals(1, outbox("bob").size());

    Admin.Answer asUser = admin.call("GET", "/v1/push/outbox", null, Admin.bearer(admin.mint("bob")));
    assertEquals(401, asUser.status(), "the outbox is for the tenant backend only");
  }
}
