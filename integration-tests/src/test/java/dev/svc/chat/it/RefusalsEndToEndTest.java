package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.apiError;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionReason;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.TokenRefresher;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.reference.TenantInfo;
import dev.svc.chat.server.MintRequest;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.testkit.VirtualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SDK against the reference server's refusals (its AuthMatrixTest lists them from the server's side): each
 * ends the app's future with the service's {@link ApiException}, and the connection DISCONNECTED with the
 * reason, never RECONNECTING. The counts of requests and handshakes over time are sdk-core's
 * {@code RefusalMatrixTest}; this test proves the SDK reads the real server's answers as that test assumes.
 */
class RefusalsEndToEndTest {
  private final VirtualClock clock = new VirtualClock(Instant.parse("2026-11-21T10:00:00Z"));
  private final List<ChatClient> clients = new ArrayList<>();
  private final AtomicInteger refreshes = new AtomicInteger();
  private ReferenceServer server;
  private ServerClient svc;
  private String roomId;

  @BeforeEach
  void setUp() {
    server = ReferenceServer.builder().port(0).clock(clock).build().start();
    svc = ServerClient.create(server.apiUrl(), server.apiKey());
    roomId = svc.createRoom("refusals", List.of("alice", "bob")).id();
  }

  @AfterEach
  void tearDown() {
    for (ChatClient c : clients) c.close();
    if (server != null) server.close();
  }

  private String mint(String userId, Duration expiresIn) {
    return svc.mintToken(MintRequest.builder(userId).expiresIn(expiresIn).build()).token();
  }

  /** A client whose refresher counts its calls and answers {@code refresher}, or none when null. */
  private ChatClient client(TokenRefresher refresher) {
    SvcOptions.Builder b = SvcOptions.builder(server.apiUrl());
    if (refresher != null) {
      b.tokenRefresher(() -> {
        refreshes.incrementAndGet();
        return refresher.refreshToken();
      });
    }
    ChatClient c = Svc.init(b.build());
    clients.add(c);
    return c;
  }

  private static RecordingHandler<ConnectionStateChange> states(ChatClient c) {
    RecordingHandler<ConnectionStateChange> states = new RecordingHandler<>();
    c.on(EventType.CONNECTION_STATE, states);
    return states;
  }

  private static String b64(byte[] bytes) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String b64(String text) {
    return b64(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String hs256(String signingInput, byte[] key) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return b64(mac.doFinal(signingInput.getBytes(StandardCharsets.UTF_8)));
  }

  /** Tokens the server refuses as {@code unauthorized}, built from a good one. */
  private Map<String, String> forgedTokens() throws Exception {
    String good = mint("alice", Duration.ofHours(1));
    String[] p = good.split("\\.");
    String claims = new String(Base64.getUrlDecoder().decode(p[1]), StandardCharsets.UTF_8);
    String otherTenant = server.createTenant().id();
    Map<String, String> out = new LinkedHashMap<>();
    out.put("not a JWT", "not.a.token");
    out.put("alg none", b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + p[1] + ".");
    out.put("HS256 keyed 'secret'", p[0] + "." + p[1] + "."
        + hs256(p[0] + "." + p[1], "secret".getBytes(StandardCharsets.UTF_8)));
    out.put("relabelled to another tenant", p[0] + "." + b64(claims.replaceFirst("\"tid\":\"[^\"]*\"",
        "\"tid\":\"" + otherTenant + "\"")) + "." + p[2]);
    out.put("signature padded", good + "=");
    return out;
  }

  @Test
  void everyForgedTokenIsRefusedOnTheGatewayAndOnRestWithoutARefreshOrAReconnect() throws Exception {
    Map<String, RecordingHandler<ConnectionStateChange>> recorded = new LinkedHashMap<>();
    for (Map.Entry<String, String> forged : forgedTokens().entrySet()) {
      String what = forged.getKey();
      ChatClient c = client(() -> CompletableFuture.completedFuture(mint("alice", Duration.ofHours(1))));
      RecordingHandler<ConnectionStateChange> states = states(c);
      recorded.put(what, states);
      ApiException refused = apiError(c.connect("alice", forged.getValue()));
      assertEquals(401, refused.status(), what);
      assertEquals("unauthorized", refused.code(), what);
      ConnectionStateChange end = states.next(s -> s.current() == ConnectionState.DISCONNECTED);
      assertEquals(ConnectionReason.UNAUTHORIZED, end.reason(), what);
      for (CompletableFuture<?> call : List.of(c.listRooms(), c.getMessages(roomId), c.markRead(roomId, "m"),
          c.getPresence())) {
        ApiException e = apiError(call);
        assertEquals(401, e.status(), what + ": " + e);
        assertEquals("unauthorized", e.code(), what);
      }
    }
    assertEquals(0, refreshes.get(), "an invalid token is never refreshed");
    // an API key in place of the token is refused by the SDK itself, before anything is sent
    ChatClient withKey = client(null);
    assertThrows(IllegalArgumentException.class, () -> withKey.connect("alice", server.apiKey()));
    assertEquals(ConnectionState.DISCONNECTED, withKey.state());
    // the clients refused first have had seconds to retry (the default backoff starts at 0.5 s): none did
    for (Map.Entry<String, RecordingHandler<ConnectionStateChange>> e : recorded.entrySet()) {
      List<ConnectionState> seen = new ArrayList<>();
      for (ConnectionStateChange s : e.getValue().all()) seen.add(s.current());
      assertEquals(List.of(ConnectionState.CONNECTING, ConnectionState.DISCONNECTED), seen, e.getKey());
    }
  }

  @Test
  void anExpiredTokenWhoseRefreshFailsEndsDisconnectedAndRestSaysTokenExpired() throws Exception {
    String token = mint("alice", Duration.ofSeconds(60));
    clock.advance(Duration.ofMinutes(2));
    ChatClient c = client(() -> {
      CompletableFuture<String> f = new CompletableFuture<>();
      // a refusal (TokenRefresher's rule): any other failure would be retried after the backoff
      f.completeExceptionally(new ApiException(401, "unauthorized", "signed out of the backend"));
      return f;
    });
    RecordingHandler<ConnectionStateChange> states = states(c);
    ApiException refused = apiError(c.connect("alice", token));
    assertEquals("token_expired", refused.code());
    assertTrue(refused.isTokenExpired());
    ConnectionStateChange end = states.next(s -> s.current() == ConnectionState.DISCONNECTED);
    assertEquals(ConnectionReason.TOKEN_EXPIRED, end.reason());
    assertEquals(1, refreshes.get(), "the gateway's refusal refreshed once");
    ApiException rest = apiError(c.listRooms());
    assertEquals(401, rest.status());
    assertEquals("token_expired", rest.code());
    assertEquals(2, refreshes.get(), "the REST refusal refreshed once more, and did not retry");
  }

  @Test
  void aClientSignedInAsAnotherUserThanItsTokenCannotSendAsThatUser() throws Exception {
    ChatClient c = client(null);
    await(c.connect("alice", mint("bob", Duration.ofHours(1)))); // the app mixed up its users
    ApiException e = apiError(c.sendText(roomId, "hi"));
    assertEquals(403, e.status());
    assertEquals("forbidden", e.code());
    assertEquals("Cannot act as another user", e.getMessage());
    assertTrue(c.pendingSends().isEmpty(), "the refused send left the outbox");
    assertEquals(0, await(c.getMessages(roomId)).messages().size(), "nothing stored");
  }

  @Test
  void anotherTenantsTokenFindsNoneOfThisTenantsRooms() throws Exception {
    TenantInfo other = server.createTenant();
    String foreign = ServerClient.create(server.apiUrl(), other.apiKey()).mintToken("alice").token();
    ChatClient c = client(null);
    await(c.connect("alice", foreign)); // a good token, of another tenant's alice
    assertEquals("not_found", apiError(c.joinRoom(roomId)).code());
    assertEquals(404, apiError(c.getMessages(roomId)).status());
    ApiException send = apiError(c.sendText(roomId, "hi"));
    assertEquals(404, send.status());
    assertEquals("not_found", send.code());
    assertTrue(c.pendingSends().isEmpty(), "the refused send left the outbox");
    assertEquals(0, await(svcMessages()), "nothing stored");
  }

  private CompletableFuture<Integer> svcMessages() {
    ChatClient bob = client(null);
    return bob.connect("bob", mint("bob", Duration.ofHours(1)))
        .thenCompose(v -> bob.getMessages(roomId)).thenApply(page -> page.messages().size());
  }
}
