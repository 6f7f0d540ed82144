package dev.svc.chat.slf4j;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.LogLevel;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ChatLogger} that writes to an SLF4J {@link Logger}, level for level. The SDK skips building
 * messages the logger would drop.
 *
 * <pre>{@code
 * SvcOptions.builder(apiUrl).logger(Slf4jChatLogger.create()).build();
 * }</pre>
 */
public final class Slf4jChatLogger implements ChatLogger {
  /** The name of the logger {@link #create()} writes to. */
  public static final String DEFAULT_NAME = "dev.svc.chat";

  private final Logger logger;

  private Slf4jChatLogger(Logger logger) {
    this.logger = logger;
  }

  /**
   * Returns an adapter that writes to the logger named {@value #DEFAULT_NAME}.
   *
   * @return the adapter
   */
  public static Slf4jChatLogger create() {
    return create(LoggerFactory.getLogger(DEFAULT_NAME));
  }

  /**
   * Returns an adapter that writes to {@code logger}.
   *
   * @param logger the logger
   * @return the adapter
   */
  public static Slf4jChatLogger create(Logger logger) {
    if (logger == null) throw new NullPointerException("logger == null");
    return new Slf4jChatLogger(logger);
  }

  @Override
  public void log(LogLevel level, String message, @Nullable Throwable error) {
    switch (level) {
      case DEBUG:
        logger.debug(message, error);
        break;
      case INFO:
        logger.info(message, error);
        break;
      case WARN:
        logger.warn(message, error);
        break;
      default:
        logger.error(message, error);
        break;
    }
  }

  @Override
  public boolean isLoggable(LogLevel level) {
    switch (level) {
      case DEBUG:
        return logger.isDebugEnabled();
      case INFO:
        return logger.isInfoEnabled();
      case WARN:
        return logger.isWarnEnabled();
      default:
        return logger.isErrorEnabled();
    }
  }

  @Override
  public String toString() {
    return "Slf4jChatLogger[" + logger.getName() + "]";
  }
}
