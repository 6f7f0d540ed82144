package dev.svc.chat.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.svc.chat.TaskScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VirtualClockTest {
  private final VirtualClock clock = new VirtualClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final List<String> ran = new ArrayList<>();

  @Test
  void advanceRunsTheDueTasksInTimeOrderAtTheirTime() {
    clock.schedule(() -> ran.add("b@" + clock.instant()), 2_000);
    clock.schedule(() -> ran.add("a@" + clock.instant()), 1_000);
    TaskScheduler.Cancellable c = clock.schedule(() -> ran.add("cancelled"), 1_500);
    clock.schedule(() -> ran.add("later"), 10_000);
    c.cancel();

    clock.advance(Duration.ofSeconds(5));

    assertEquals(List.of("a@2030-01-01T00:00:01Z", "b@2030-01-01T00:00:02Z"), ran);
    assertEquals(Instant.parse("2030-01-01T00:00:05Z"), clock.instant());
    assertEquals(clock.millis(), clock.currentTimeMillis());
    assertEquals(1, clock.pendingTasks());
  }

  @Test
  void aTaskScheduledByATaskRunsInTheSameAdvanceIfDue() {
    clock.schedule(() -> clock.schedule(() -> ran.add("second"), 1_000), 1_000);
    clock.advance(Duration.ofSeconds(2));
    assertEquals(List.of("second"), ran);
  }

  @Test
  void timeNeverGoesBack() {
    assertThrows(IllegalArgumentException.class, () -> clock.advance(Duration.ofMillis(-1)));
    assertThrows(IllegalArgumentException.class, () -> clock.schedule(() -> { }, -1));
  }
}
