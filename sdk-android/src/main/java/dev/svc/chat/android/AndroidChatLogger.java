package dev.svc.chat.android;

import android.util.Log;
import dev.svc.chat.ChatLogger;
import dev.svc.chat.LogLevel;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ChatLogger} that writes to Android's {@link Log} under one tag. What it keeps follows
 * {@link Log#isLoggable(String, int)}: by default INFO and above; {@code adb shell setprop log.tag.SvcChat DEBUG}
 * turns DEBUG on.
 *
 * <pre>{@code
 * SvcOptions.builder(apiUrl).logger(AndroidChatLogger.create()).build();
 * }</pre>
 */
public final class AndroidChatLogger implements ChatLogger {
  /** The tag {@link #create()} logs under. */
  public static final String DEFAULT_TAG = "SvcChat";

  private final String tag;

  private AndroidChatLogger(String tag) {
    this.tag = tag;
  }

  /**
   * Returns a logger with the tag {@value #DEFAULT_TAG}.
   *
   * @return the logger
   */
  public static AndroidChatLogger create() {
    return create(DEFAULT_TAG);
  }

  /**
   * Returns a logger with this tag.
   *
   * @param tag the tag, at most 23 characters (Android's limit for {@link Log#isLoggable})
   * @return the logger
   */
  public static AndroidChatLogger create(String tag) {
    if (tag == null) throw new NullPointerException("tag == null");
    if (tag.isEmpty() || tag.length() > 23) throw new IllegalArgumentException("tag must have 1 to 23 characters: " + tag);
    return new AndroidChatLogger(tag);
  }

  @Override
  public void log(LogLevel level, String message, @Nullable Throwable error) {
    Log.println(priority(level), tag, error == null ? message : message + '\n' + Log.getStackTraceString(error));
  }

  @Override
  public boolean isLoggable(LogLevel level) {
    return Log.isLoggable(tag, priority(level));
  }

  private static int priority(LogLevel level) {
    switch (level) {
      case DEBUG:
        return Log.DEBUG;
      case INFO:
        return Log.INFO;
      case WARN:
        return Log.WARN;
      default:
        return Log.ERROR;
    }
  }

  @Override
  public String toString() {
    return "AndroidChatLogger[" + tag + "]";
  }
}
