package dev.svc.chat.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One server for the class: clients of a test are closed after it, those of {@code @BeforeAll} after the class. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PerClassServerTest {
  @RegisterExtension
  static SvcTestServer svc = SvcTestServer.perClass();

  static String apiUrl;
  static ChatClient classClient;
  static ChatClient firstTestsClient;

  @BeforeAll
  static void connectOnceForTheClass() {
    apiUrl = svc.apiUrl();
    classClient = svc.connect("watcher");
  }

  @Test
  @Order(1)
  void aTestsClientIsConnected() {
    assertTrue(svc.apiUrl().startsWith("http://127.0.0.1:"), svc.apiUrl());
    assertNotEquals("", svc.apiKey());
    firstTestsClient = svc.connect("alice");
    assertEquals(ConnectionState.CONNECTED, firstTestsClient.state());
    svc.advance(Duration.ofMinutes(1));
  }

  @Test
  @Order(2)
  void theServerAndItsClockStayButTheLastTestsClientWasClosed() {
    assertEquals(apiUrl, svc.apiUrl());
    assertEquals(SvcTestServer.START.plus(Duration.ofMinutes(1)), svc.clock().instant());
    assertEquals(ConnectionState.CLOSED, firstTestsClient.state());
    assertEquals(ConnectionState.CONNECTED, classClient.state());
  }

  @AfterAll
  static void theClassClientIsStillOpenUntilTheExtensionCloses() {
    assertEquals(ConnectionState.CONNECTED, classClient.state());
  }
}
