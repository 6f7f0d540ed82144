package dev.svc.chat.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.svc.chat.ChatLogger;
import dev.svc.chat.LogLevel;

/** Keeps every log line, so tests can check that no credential was ever logged. */
public final class RecordingLogger implements ChatLogger {
  public final List<String> lines = new CopyOnWriteArrayList<>();

  @Override
  public void log(LogLevel level, String message, Throwable error) {
    lines.add(level + " " + message + (error == null ? "" : " " + error));
  }

  public boolean mentions(String text) {
    for (String line : lines) {
      if (line.contains(text)) return true;
    }
    return false;
  }
}
