package dev.svc.chat.internal.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The offer of socket sends in a CONNECT answer: taken only when it is there, readable and the frames fit. */
class SocketSendChannelTest {
  @Test
  void anOfferIsTakenOnlyWhenTheAnswerSaysSoAndTheLargestSendFits() {
    SocketSendChannel channel = SocketSendChannel.offered(7, "{\"sid\":\"x\",\"svc\":{\"sendMessage\":true}}", 1_000_000);
    assertNotNull(channel);
    assertEquals(7, channel.connectionId);
    assertNotNull(SocketSendChannel.offered(1, "{\"svc\":{\"other\":[1,{}],\"sendMessage\":true},\"sid\":\"x\"}",
        SocketSendChannel.LARGEST_SEND_FRAME));
    assertNull(SocketSendChannel.offered(1, "{\"sid\":\"x\"}", 1_000_000), "no svc key: REST");
    assertNull(SocketSendChannel.offered(1, "{\"sid\":\"x\",\"svc\":{\"sendMessage\":false}}", 1_000_000));
    assertNull(SocketSendChannel.offered(1, "{\"sid\":\"x\",\"svc\":{\"sendMessage\":\"yes\"}}", 1_000_000));
    assertNull(SocketSendChannel.offered(1, "{\"sid\":\"x\",\"svc\":true}", 1_000_000));
    assertNull(SocketSendChannel.offered(1, "{\"sid\":", 1_000_000), "unreadable: REST");
    assertNull(SocketSendChannel.offered(1, "", 1_000_000));
    assertNull(SocketSendChannel.offered(1, null, 1_000_000));
    assertNull(SocketSendChannel.offered(1, "{\"svc\":{\"sendMessage\":true}}", SocketSendChannel.LARGEST_SEND_FRAME - 1),
        "a frame limit below the largest send: REST");
  }
}
