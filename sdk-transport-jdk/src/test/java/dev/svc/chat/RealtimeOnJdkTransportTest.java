package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.svc.chat.testing.TestTransport;
import org.junit.jupiter.api.Test;

/**
 * sdk-core's {@link RealtimeTest} (connect, pings, the watchdog, a server close, a dropped socket, a refused
 * upgrade's HTTP status, refusals, reconnects, a token refresh) on the JDK transport: this module's surefire sets
 * {@code -Dsvc.test.transport=jdk}.
 */
class RealtimeOnJdkTransportTest extends RealtimeTest {
  @Test
  void runsOnTheJdkTransport() {
    assertEquals("jdk", TestTransport.name());
  }
}
