package dev.svc.chat.transport.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.transport.TransportSocket;
import org.junit.jupiter.api.Test;

/**
 * The bounds of the JDK transport's waits on a peer that never answers: an upgrade (its timeout, and a cancel
 * before it) and a Close; in each the TCP connection is closed, not left to the peer.
 */
class JdkTransportTimeoutsTest {
  private static final long TIMEOUT_SECONDS = 30;

  @Test
  void aCancelBeforeTheUpgradeIsAnsweredClosesTheConnection() throws Exception {
    try (SilentServer peer = new SilentServer(false)) {
      JdkTransport shared = JdkTransport.shared();
      // an upgrade timeout far past the wait below: the cancel, not the timeout, is what can close the connection
      JdkTransport transport = shared.with(shared.readers(), Duration.ofSeconds(10 * TIMEOUT_SECONDS),
          JdkSocket.CLOSE_TIMEOUT_MILLIS);
      JdkTransportTest.Recorder r = new JdkTransportTest.Recorder();
      TransportSocket socket = transport.open(peer.url(), Collections.emptyMap(), r);
      assertTrue(peer.requested.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "no upgrade request");
      socket.cancel();
      assertEquals("failure -1", r.next());
      assertTrue(peer.eof.await(TIMEOUT_SECONDS, TimeUnit.SECONDS),
          "the connection of a cancelled upgrade stayed open " + TIMEOUT_SECONDS + " s");
    }
  }

  @Test
  void anUpgradeNotAnsweredInTheConnectTimeoutFails() throws Exception {
    try (SilentServer peer = new SilentServer(false)) {
      JdkTransport shared = JdkTransport.shared();
      JdkTransport transport =
          shared.with(shared.readers(), Duration.ofMillis(500), JdkSocket.CLOSE_TIMEOUT_MILLIS);
      JdkTransportTest.Recorder r = new JdkTransportTest.Recorder();
      TransportSocket socket = transport.open(peer.url(), Collections.emptyMap(), r);
      try {
        assertEquals("failure -1", r.next());
        assertTrue(peer.eof.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the timed-out upgrade's connection stayed open");
      } finally {
        socket.cancel();
      }
    }
  }

  @Test
  void aCloseThePeerNeverAnswersEndsTheSocketAfterTheCloseTimeout() throws Exception {
    try (SilentServer peer = new SilentServer(true)) {
      JdkTransport shared = JdkTransport.shared();
      JdkTransport transport =
          shared.with(shared.readers(), JdkTransport.CONNECT_TIMEOUT, 500);
      JdkTransportTest.Recorder r = new JdkTransportTest.Recorder();
      TransportSocket socket = transport.open(peer.url(), Collections.emptyMap(), r);
      try {
        assertEquals("open", r.next());
        assertTrue(socket.close(1000, null));
        assertFalse(socket.send("after the close"));
        assertEquals("failure -1", r.next());
        assertTrue(peer.eof.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the unanswered close's connection stayed open");
      } finally {
        socket.cancel();
      }
    }
  }
}
