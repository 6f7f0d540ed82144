package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;

import dev.svc.chat.internal.util.ClientLoggers;
import dev.svc.chat.testing.FakeChatClient;
import dev.svc.chat.testing.LockProbe;
import dev.svc.chat.testing.RecordingLogger;
import dev.svc.chat.testing.VirtualTaskScheduler;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
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

  @Test
  void neitherTheClientNorTheSchedulerIsCalledUnderTheControllersLock() {
    LockProbe probe = new LockProbe();
    AtomicReference<ComposerTypingController> ref = new AtomicReference<>();
    Runnable intoController = () -> ref.get().isTyping();
    client.whileSettingTyping = () -> probe.check("setTyping", ref.get(), intoController);
    TaskScheduler scheduler = new TaskScheduler() {
      @Override
      public long nowMillis() {
        if (ref.get() != null) probe.check("nowMillis", ref.get(), intoController);
        return clock.nowMillis();
      }

      @Override
      public Cancellable schedule(Runnable task, long delayMillis) {
        probe.check("schedule", ref.get(), intoController);
        Cancellable c = clock.schedule(task, delayMillis);
        return () -> {
          probe.check("cancel", ref.get(), intoController);
          c.cancel();
        };
      }
    };
    ComposerTypingController c = ComposerTypingController.builder(client, "r")
        .throttleMillis(3000).idleMillis(2000).scheduler(scheduler).build();
    ref.set(c);

    c.onInput("a"); // true, and the idle timer is scheduled
    clock.advance(1000);
    c.onInput("ab"); // keeps typing: the timer re-arms for what is left when it fires
    clock.advance(3000); // idle: false
    c.onInput("b");
    c.onSend(); // cancels the timer, false
    c.onInput("c");
    c.close();

    assertEquals(List.of("r:true", "r:false", "r:true", "r:false", "r:true", "r:false"), client.typingCalls);
    assertTrue(probe.probes() >= 12, "probes ran: " + probe.probes());
    assertEquals(List.of(), probe.violations);
  }

  @Test
  void callsDecidedInsideACallKeepTheirOrder() {
    // the app's client stops typing from inside setTyping(true): false must still follow true
    client.whileSettingTyping = () -> {
      if (client.typingCalls.isEmpty()) controller.stop();
    };
    controller.onInput("a");
    assertEquals(List.of("r:true", "r:false"), client.typingCalls);
    assertFalse(controller.isTyping());
    assertEquals(0, clock.pending(), "the idle timer was cancelled");
  }

  @Test
  void aThrowingSetTypingIsLoggedNotSwallowed() {
    RecordingLogger logger = new RecordingLogger();
    ComposerTypingController c = ComposerTypingController.builder(client, "r").scheduler(clock).logger(logger).build();
    client.typingThrows = true;
    c.onInput("a");
    assertEquals(1, logger.lines.size(), logger.lines.toString());
    assertTrue(logger.lines.get(0).startsWith("WARN setTyping(r, true) threw"), logger.lines.toString());
    assertTrue(logger.mentions("IllegalStateException: closed"), logger.lines.toString());
    client.typingThrows = false;
    c.onSend();
    assertEquals(List.of("r:false"), client.typingCalls, "the controller went on");
  }

  @Test
  void byDefaultItLogsThroughTheClientsLogger() {
    RecordingLogger logger = new RecordingLogger();
    ClientLoggers.register(client, logger);
    ComposerTypingController c = ComposerTypingController.builder(client, "r").scheduler(clock).build();
    client.typingThrows = true;
    c.onInput("a");
    assertTrue(logger.mentions("setTyping(r, true) threw"), logger.lines.toString());
  }

  @Test
  void aThrowingSchedulerIsLoggedAndTheNextInputTriesAgain() {
    RecordingLogger logger = new RecordingLogger();
    boolean[] fail = {true};
    TaskScheduler flaky = new TaskScheduler() {
      @Override
      public long nowMillis() {
        return clock.nowMillis();
      }

      @Override
      public Cancellable schedule(Runnable task, long delayMillis) {
        if (fail[0]) throw new IllegalStateException("scheduler down");
        return clock.schedule(task, delayMillis);
      }
    };
    ComposerTypingController c = ComposerTypingController.builder(client, "r").idleMillis(2000)
        .scheduler(flaky).logger(logger).build();
    c.onInput("a");
    assertTrue(logger.mentions("scheduler down"), logger.lines.toString());
    fail[0] = false;
    c.onInput("ab");
    clock.advance(2000);
    assertEquals(List.of("r:true", "r:false"), client.typingCalls, "the second input armed the idle timer");
  }
}
