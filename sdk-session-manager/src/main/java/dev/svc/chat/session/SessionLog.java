package dev.svc.chat.session;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.LogLevel;

/** Guards the user's {@link ChatLogger}: skips unloggable levels and never lets it throw into the SDK. */
final class SessionLog {
  private final ChatLogger logger;

  /** Wraps {@code logger}. */
  SessionLog(ChatLogger logger) {
    this.logger = logger;
  }

  boolean isDebug() {
    return loggable(LogLevel.DEBUG);
  }

  void debug(String message) {
    log(LogLevel.DEBUG, message, null);
  }

  void info(String message) {
    log(LogLevel.INFO, message, null);
  }

  void warn(String message, Throwable error) {
    log(LogLevel.WARN, message, error);
  }

  void error(String message, Throwable error) {
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
