package dev.svc.chat.slf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.LogLevel;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class Slf4jChatLoggerTest {
  private final List<String> calls = new ArrayList<>();
  /** An SLF4J logger that records the calls it gets; DEBUG is off. */
  private final Logger recording = (Logger) Proxy.newProxyInstance(getClass().getClassLoader(),
      new Class<?>[] {Logger.class}, (proxy, method, args) -> {
        if (method.getName().equals("isDebugEnabled")) return false;
        if (method.getName().startsWith("is")) return true;
        if (method.getName().equals("getName")) return "test";
        calls.add(method.getName() + Arrays.toString(args));
        return null;
      });

  @Test
  void eachLevelGoesToItsSlf4jLevelWithItsError() {
    Slf4jChatLogger logger = Slf4jChatLogger.create(recording);
    IllegalStateException boom = new IllegalStateException("boom");
    logger.log(LogLevel.DEBUG, "d", null);
    logger.log(LogLevel.INFO, "i", null);
    logger.log(LogLevel.WARN, "w", boom);
    logger.log(LogLevel.ERROR, "e", boom);
    assertEquals(List.of("debug[d, null]", "info[i, null]", "warn[w, " + boom + "]", "error[e, " + boom + "]"), calls);
    assertFalse(logger.isLoggable(LogLevel.DEBUG));
    assertTrue(logger.isLoggable(LogLevel.INFO));
    assertEquals("Slf4jChatLogger[test]", logger.toString());
  }
}
