package dev.svc.chat;

import org.jspecify.annotations.Nullable;

/**
 * Receives the SDK's log messages; plug it into the app's logging. It never receives tokens or API keys.
 * The default, {@link #NONE}, discards everything. Implementations must be thread-safe and quick.
 */
public interface ChatLogger {
  /** A logger that discards every message. */
  ChatLogger NONE = new ChatLogger() {
    @Override
    public void log(LogLevel level, String message, @Nullable Throwable error) {
    }

    @Override
    public boolean isLoggable(LogLevel level) {
      return false;
    }
  };

  /**
   * Invoked with one log message.
   *
   * @param level the severity
   * @param message the message, free of credentials
   * @param error the related failure, if any
   */
  void log(LogLevel level, String message, @Nullable Throwable error);

  /**
   * Returns whether messages of the level would be kept; the SDK skips building messages that would not.
   * The default keeps all levels.
   *
   * @param level the severity
   * @return true if {@link #log} would keep such a message
   */
  default boolean isLoggable(LogLevel level) {
    return true;
  }
}
