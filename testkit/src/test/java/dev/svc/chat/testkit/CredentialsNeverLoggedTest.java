package dev.svc.chat.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.JulChatLogger;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.SvcOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every log line of a whole session (the SDK at DEBUG through {@link JulChatLogger}, the reference server's
 * own loggers at every level, Jetty and Javalin at INFO) is free of the API key, the webhook secret and every
 * token used: a connect, joins, sends, REST calls, two expiries refreshed over the gateway and over REST, and
 * a refused token.
 */
class CredentialsNeverLoggedTest {
  @RegisterExtension
  static SvcTestServer svc = SvcTestServer.perTest();

  private static final Logger ROOT = Logger.getLogger("");
  private static final Logger OURS = Logger.getLogger("dev.svc.chat");

  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final List<String> tokens = new CopyOnWriteArrayList<>();
  private final SimpleFormatter format = new SimpleFormatter();
  private final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord record) {
      lines.add(format.format(record)); // with the thrown exception's stack trace
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  };
  private Level oursBefore;

  @BeforeEach
  void captureEveryLine() {
    capture.setLevel(Level.ALL);
    ROOT.addHandler(capture);
    oursBefore = OURS.getLevel();
    OURS.setLevel(Level.ALL);
  }

  @AfterEach
  void stopCapturing() {
    ROOT.removeHandler(capture);
    OURS.setLevel(oursBefore);
  }

  private String mint(String userId) {
    String token = svc.mintToken(userId);
    tokens.add(token);
    return token;
  }

  @Test
  void aWholeSessionLogsNoCredentialAtAnyLevel() throws Exception {
    String room = svc.createRoom("secrets", "alice", "bob");
    ChatClient alice = svc.newClient(SvcOptions.builder(svc.apiUrl()).logger(JulChatLogger.create())
        .tokenRefresher(() -> CompletableFuture.supplyAsync(() -> mint("alice"))).build());
    alice.connect("alice", mint("alice")).get(30, TimeUnit.SECONDS);
    alice.joinRoom(room).get(30, TimeUnit.SECONDS);
    alice.sendText(room, "hello").get(30, TimeUnit.SECONDS);
    alice.listRooms().get(30, TimeUnit.SECONDS);

    svc.advance(Duration.ofHours(2));
    alice.sendText(room, "after a gateway refresh").get(30, TimeUnit.SECONDS);
    svc.advance(Duration.ofHours(2));
    alice.getMessages(room, MessageQuery.latest(10)).get(30, TimeUnit.SECONDS); // a REST 401, refreshed
    assertEquals(3, tokens.size(), "two refreshes");

    ChatClient mallory = svc.newClient(SvcOptions.builder(svc.apiUrl()).logger(JulChatLogger.create()).build());
    String forged = tokens.get(0).substring(0, tokens.get(0).lastIndexOf('.') + 1) + "forgedSignature";
    tokens.add(forged);
    assertThrows(ExecutionException.class, () -> mallory.connect("alice", forged).get(30, TimeUnit.SECONDS));
    alice.close();

    assertTrue(lines.stream().anyMatch(l -> l.contains("FINE")), "the SDK logged at DEBUG");
    assertTrue(lines.stream().anyMatch(l -> l.contains("POST /v1/auth/token 200")), "the server logged requests");
    assertTrue(lines.stream().anyMatch(l -> l.contains("socket") && l.contains("open")), "and socket sessions");
    for (String line : lines) {
      assertFalse(line.contains(svc.apiKey()), () -> "the API key in: " + line);
      assertFalse(line.contains(svc.server().webhookSecret()), () -> "the webhook secret in: " + line);
      for (String token : tokens) {
        String signature = token.substring(token.lastIndexOf('.') + 1);
        assertFalse(line.contains(signature), () -> "a token in: " + line);
      }
    }
  }
}
