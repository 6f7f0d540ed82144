package dev.svc.chat.internal.util;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.LogLevel;

/** Guards the user's {@link ChatLogger}: skips unloggable levels and never lets it throw into the SDK. */
public final class Log {
  private final ChatLogger logger;

  /** Wraps {@code logger}. */
  public Log(ChatLogger logger) {
    this.logger = logger;
  }

  /** Returns the wrapped logger, for code that guards it itself. */
  public ChatLogger logger() {
    return logger;
  }

  public boolean isDebug() {
    return loggable(LogLevel.DEBUG);
  }

  public void debug(String message) {
    log(LogLevel.DEBUG, message, null);
  }

  public void info(String message) {
    log(LogLevel.INFO, message, null);
  }

  public void warn(String message, Throwable error) {
    log(LogLevel.WARN, message, error);
  }

  public void error(String message, Throwable error) {
    log(LogLevel.ERROR, message, error);
  }

  private boolean loggable(LogLevel level) {
    try {
      return logger.isLoggable(level);
    } catch (RuntimeException e) {
      return false;
    }
  }

  private void log(LogLevel level, String message, Throwable error) {
    if (!loggable(level)) return;
    try {
      logger.log(level, message, error);
    } catch (RuntimeException ignored) {
      // a broken logger must not break the connection
    }
  }
}
