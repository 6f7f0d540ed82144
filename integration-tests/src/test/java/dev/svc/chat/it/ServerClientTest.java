package dev.svc.chat.it;

import dev.svc.chat.testkit.VirtualClock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.ChatRoom;
import dev.svc.chat.server.ChatUser;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.MintedToken;
import dev.svc.chat.server.ServerApiException;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.server.TenantSettings;
import dev.svc.chat.server.TenantSettingsUpdate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server SDK's API-key client (svc-chat-server-sdk) against the reference server. */
class ServerClientTest {
  private final VirtualClock clock = new VirtualClock(Instant.parse("2026-11-21T10:00:00Z"));
  private ReferenceServer server;
  private ServerClient svc;

  @BeforeEach
  void setUp() {
    server = ReferenceServer.builder().port(0).clock(clock).build().start();
    svc = ServerClient.create(server.apiUrl() + "/", server.apiKey());
  }

  @AfterEach
  void tearDown() {
    server.close();
  }

  @Test
  void mintsTokensWithTheirExpiryAndApiUrl() throws Exception {
    MintedToken t = svc.mintToken(MintRequest.builder("alice").username("Alice").expiresIn(Duration.ofMinutes(2)).build());
    assertEquals("alice", t.userId());
    assertEquals("Alice", t.username());
    assertEquals(server.apiUrl(), t.apiUrl());
    assertEquals(Instant.parse("2026-11-21T10:02:00Z").toEpochMilli(), t.expiresAtMillis());
    assertEquals(3, t.token().split("\\.").length);
    assertFalse(t.toString().contains(t.token()), "toString never shows the token");
    assertFalse(svc.toString().contains(server.apiKey()), "toString never shows the key");

    MintedToken byDefault = svc.mintTokenAsync("alice").get(30, TimeUnit.SECONDS);
    assertEquals(Instant.parse("2026-11-21T11:00:00Z").toEpochMilli(), byDefault.expiresAtMillis());
    assertEquals("Alice", byDefault.username(), "a mint without a name keeps the stored one");
  }

  @Test
  void upsertsAndGetsUsers() throws Exception {
    ChatUser u = svc.upsertUser("bob", "Bob");
    assertEquals("bob", u.userId());
    assertEquals("Bob", svc.getUser("bob").username());
    assertEquals("Bob", svc.upsertUserAsync("bob").get(30, TimeUnit.SECONDS).username());
    ServerApiException e = assertThrows(ServerApiException.class, () -> svc.getUser("nobody"));
    assertEquals(404, e.status());
    assertEquals("not_found", e.code());
  }

  @Test
  void createsRoomsAndManagesMembers() throws Exception {
    ChatRoom room = svc.createRoom("team", List.of("alice", "bob"));
    assertEquals("team", room.name());
    assertEquals(List.of("alice", "bob"), room.memberIds());
    assertEquals(List.of("alice", "bob", "carol"), svc.addMembers(room.id(), List.of("carol")).memberIds());
    assertEquals(List.of("alice", "carol"), svc.removeMemberAsync(room.id(), "bob").get(30, TimeUnit.SECONDS).memberIds());
    assertNull(svc.createRoom(List.of("alice")).name());
  }

  @Test
  void readsAndChangesTenantSettings() throws Exception {
    TenantSettings s = svc.tenantSettings();
    assertTrue(s.autoCreateUsers());
    assertTrue(s.callsEnabled());
    assertNull(s.webhookUrl());
    TenantSettings changed = svc.updateTenantSettings(TenantSettingsUpdate.builder().autoCreateUsers(false)
        .webhookUrl("https://example.com/hooks").build());
    assertFalse(changed.autoCreateUsers());
    assertTrue(changed.callsEnabled());
    assertEquals("https://example.com/hooks", changed.webhookUrl());
    ServerApiException e = assertThrows(ServerApiException.class, () -> svc.mintToken("dave"));
    assertEquals("user_not_found", e.code());

    TenantSettings removed = svc.updateTenantSettingsAsync(TenantSettingsUpdate.builder().removeWebhookUrl().build())
        .get(30, TimeUnit.SECONDS);
    assertNull(removed.webhookUrl());
    assertFalse(removed.autoCreateUsers(), "what the update does not set stays");
  }

  @Test
  void aWrongKeyIsUnauthorizedAndASessionTokenIsNoKey() {
    ServerClient wrong = ServerClient.create(server.apiUrl(), "sk_test_wrong");
    assertEquals(401, assertThrows(ServerApiException.class, () -> wrong.tenantSettings()).status());
    ExecutionException async = assertThrows(ExecutionException.class,
        () -> wrong.getUserAsync("alice").get(30, TimeUnit.SECONDS));
    assertEquals("unauthorized", assertInstanceOf(ServerApiException.class, async.getCause()).code());
    assertThrows(IllegalArgumentException.class, () -> ServerClient.create(server.apiUrl(), "eyJ.jwt"));
  }
}
