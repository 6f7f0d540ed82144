package dev.svc.chat.internal.util;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.LogLevel;
import org.junit.jupiter.api.Test;

class LogTest {
  /** The default logger keeps nothing, so the SDK must build no message for it (a send built several). */
  @Test
  void theDefaultLoggerAsksForNoMessageAtAnyLevel() {
    Log log = new Log(ChatLogger.NONE);
    assertFalse(log.isDebug(), "debug messages built for the default logger");
    for (LogLevel level : LogLevel.values()) {
      assertFalse(ChatLogger.NONE.isLoggable(level), level + " loggable on the default logger");
    }
  }
}
