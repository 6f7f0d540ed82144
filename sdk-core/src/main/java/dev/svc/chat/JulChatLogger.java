package dev.svc.chat;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ChatLogger} that writes to {@code java.util.logging}: {@link LogLevel#DEBUG} as {@link Level#FINE},
 * {@link LogLevel#INFO} as {@link Level#INFO}, {@link LogLevel#WARN} as {@link Level#WARNING} and
 * {@link LogLevel#ERROR} as {@link Level#SEVERE}. The SDK skips building messages the logger would drop.
 *
 * <pre>{@code
 * SvcOptions.builder(apiUrl).logger(JulChatLogger.create()).build();
 * }</pre>
 */
public final class JulChatLogger implements ChatLogger {
  /** The name of the logger {@link #create()} writes to. */
  public static final String DEFAULT_NAME = "dev.svc.chat";

  private final Logger logger;

  private JulChatLogger(Logger logger) {
    this.logger = logger;
  }

  /**
   * Returns an adapter that writes to the logger named {@value #DEFAULT_NAME}.
   *
   * @return the adapter
   */
  public static JulChatLogger create() {
    return create(Logger.getLogger(DEFAULT_NAME));
  }

  /**
   * Returns an adapter that writes to {@code logger}.
   *
   * @param logger the logger
   * @return the adapter
   */
  public static JulChatLogger create(Logger logger) {
    if (logger == null) throw new NullPointerException("logger == null");
    return new JulChatLogger(logger);
  }

  @Override
  public void log(LogLevel level, String message, @Nullable Throwable error) {
    Level jul = level(level);
    if (error == null) logger.log(jul, message);
    else logger.log(jul, message, error);
  }

  @Override
  public boolean isLoggable(LogLevel level) {
    return logger.isLoggable(level(level));
  }

  private static Level level(LogLevel level) {
    switch (level) {
      case DEBUG:
        return Level.FINE;
      case INFO:
        return Level.INFO;
      case WARN:
        return Level.WARNING;
      default:
        return Level.SEVERE;
    }
  }

  @Override
  public String toString() {
    return "JulChatLogger[" + logger.getName() + "]";
  }
}
