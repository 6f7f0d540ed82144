package dev.svc.chat.it;

import dev.svc.chat.testkit.VirtualClock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ApiException;
import dev.svc.chat.Room;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.ChatUser;
import dev.svc.chat.server.MintedToken;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.server.TenantSettings;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server package's API-key client against the reference server. */
class ServerClientTest {
  private final VirtualClock clock = new VirtualClock(Instant.parse("2026-11-21T10:00:00Z"));
  private ReferenceServer server;
  private ServerClient svc;

  @BeforeEach
  void setUp() {
    server = ReferenceServer.builder().port(0).clock(clock).build().start();
    svc = ServerClient.create(server.apiUrl() + "/", server.apiKey(), null);
  }

  @AfterEach
  void tearDown() {
    server.close();
  }

  @Test
  void mintsTokensWithTheirExpiryAndApiUrl() {
    MintedToken t = svc.mintToken("alice", "Alice", 120);
    assertEquals("alice", t.userId());
    assertEquals("Alice", t.username());
    assertEquals(server.apiUrl(), t.apiUrl());
    assertEquals(Instant.parse("2026-11-21T10:02:00Z").toEpochMilli(), t.expiresAtMillis());
    assertEquals(3, t.token().split("\\.").length);
    assertFalse(t.toString().contains(t.token()), "toString never shows the token");
    assertFalse(svc.toString().contains(server.apiKey()), "toString never shows the key");
  }

  @Test
  void upsertsAndGetsUsers() {
    ChatUser u = svc.upsertUser("bob", "Bob");
    assertEquals("bob", u.userId());
    assertEquals("Bob", svc.getUser("bob").username());
    ApiException e = assertThrows(ApiException.class, () -> svc.getUser("nobody"));
    assertEquals(404, e.status());
    assertEquals("not_found", e.code());
  }

  @Test
  void createsRoomsAndManagesMembers() {
    Room room = svc.createRoom("team", List.of("alice", "bob"));
    assertEquals(List.of("alice", "bob"), room.memberIds());
    assertEquals(List.of("alice", "bob", "carol"), svc.addMembers(room.id(), List.of("carol")).memberIds());
    assertEquals(List.of("alice", "carol"), svc.removeMember(room.id(), "bob").memberIds());
  }

  @Test
  void readsAndChangesTenantSettings() {
    TenantSettings s = svc.tenantSettings();
    assertTrue(s.autoCreateUsers());
    assertTrue(s.callsEnabled());
    assertNull(s.webhookUrl());
    TenantSettings changed = svc.updateTenantSettings(false, null, "https://example.com/hooks");
    assertFalse(changed.autoCreateUsers());
    assertTrue(changed.callsEnabled());
    assertEquals("https://example.com/hooks", changed.webhookUrl());
    ApiException e = assertThrows(ApiException.class, () -> svc.mintToken("dave", null, null));
    assertEquals("user_not_found", e.code());
  }

  @Test
  void aWrongKeyIsUnauthorizedAndASessionTokenIsNoKey() {
    ServerClient wrong = ServerClient.create(server.apiUrl(), "sk_test_wrong", null);
    assertEquals(401, assertThrows(ApiException.class, () -> wrong.tenantSettings()).status());
    assertThrows(IllegalArgumentException.class, () -> ServerClient.create(server.apiUrl(), "eyJ.jwt", null));
  }
}
