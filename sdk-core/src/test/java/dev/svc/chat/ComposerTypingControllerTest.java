package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;

import dev.svc.chat.testing.FakeChatClient;
import dev.svc.chat.testing.VirtualTaskScheduler;
import org.junit.jupiter.api.Test;

class ComposerTypingControllerTest {
  private final FakeChatClient client = new FakeChatClient();
  private final VirtualTaskScheduler clock = new VirtualTaskScheduler();
  private final ComposerTypingController controller = ComposerTypingController.builder(client, "r")
      .throttleMillis(3000).idleMillis(2000).scheduler(clock).build();

  @Test
  void firstInputSendsTypingAndIdleDelayStopsIt() {
    controller.onInput("h");
    assertEquals(Collections.singletonList("r:true"), client.typingCalls);
    assertTrue(controller.isTyping());
    clock.advance(1999);
    assertEquals(1, client.typingCalls.size());
    clock.advance(1);
    assertEquals(Arrays.asList("r:true", "r:false"), client.typingCalls);
    assertFalse(controller.isTyping());
    assertEquals(0, clock.pending());
  }

  @Test
  void continuousTypingIsThrottledAndKeptAlive() {
    // a keystroke every 100 ms for 10 s: true at 0, 3 s, 6 s, 9 s, and no false in between
    for (int i = 0; i < 100; i++) {
      controller.onInput("text" + i);
      clock.advance(100);
    }
    assertEquals(Arrays.asList("r:true", "r:true", "r:true", "r:true"), client.typingCalls);
    assertTrue(clock.pending() <= 1, "one idle timer at a time, not one per keystroke");
    clock.advance(2000);
    assertEquals("r:false", client.typingCalls.get(client.typingCalls.size() - 1));
    assertEquals(5, client.typingCalls.size());
  }

  @Test
  void sendStopsAtOnceAndOnlyOnce() {
    controller.onInput("hello");
    controller.onSend();
    controller.onSend();
    clock.advance(10_000);
    assertEquals(Arrays.asList("r:true", "r:false"), client.typingCalls);
  }

  @Test
  void emptyTextStopsAndStopWithoutTypingSendsNothing() {
    controller.stop();
    controller.onInput("");
    assertTrue(client.typingCalls.isEmpty());
    controller.onInput("a");
    controller.onInput("");
    assertEquals(Arrays.asList("r:true", "r:false"), client.typingCalls);
  }

  @Test
  void typingAgainAfterAStopSendsTrueAtOnce() {
    controller.onInput("a");
    controller.onSend();
    clock.advance(10);
    controller.onInput("b");
    assertEquals(Arrays.asList("r:true", "r:false", "r:true"), client.typingCalls);
  }

  @Test
  void closeStopsAndIgnoresLaterInput() {
    controller.onInput("a");
    controller.close();
    controller.onInput("b");
    clock.advance(10_000);
    assertEquals(Arrays.asList("r:true", "r:false"), client.typingCalls);
  }

  @Test
  void aFailingClientDoesNotBreakTheController() {
    client.typingThrows = true;
    controller.onInput("a");
    clock.advance(5000);
    client.typingThrows = false;
    controller.onInput("b");
    assertEquals(Collections.singletonList("r:true"), client.typingCalls);
  }
}
