package dev.svc.chat;

/** The severity of a message given to a {@link ChatLogger}. */
public enum LogLevel {
  /** Protocol detail: frames, timers, state changes. */
  DEBUG,
  /** Noteworthy events such as a reconnect. */
  INFO,
  /** Something went wrong and was recovered from, such as a malformed frame or a throwing handler. */
  WARN,
  /** Something went wrong and was not recovered from. */
  ERROR
}
