package dev.svc.chat.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.svc.chat.Call;
import dev.svc.chat.CallKind;
import dev.svc.chat.ChatClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A server setting through {@code configure}, and a call that rings out on the virtual clock, not the wall clock. */
class RingTimeoutTest {
  @RegisterExtension
  static SvcTestServer svc = SvcTestServer.perTest().configure(b -> b.callRingTimeout(Duration.ofMinutes(10)));

  @Test
  void anUnansweredCallIsMissedOnceTheRingTimeoutPassesOnTheVirtualClock() throws Exception {
    String room = svc.createRoom("call", "alice", "bob");
    ChatClient alice = svc.connect("alice");
    Call call = alice.startCall(room, CallKind.AUDIO).get();

    svc.advance(Duration.ofMinutes(9));
    assertEquals(call.id(), alice.getActiveCall(room).get().id(), "still ringing after 9 of its 10 minutes");

    svc.advance(Duration.ofMinutes(1));
    assertNull(alice.getActiveCall(room).get(), "missed: the room has no live call");
  }
}
