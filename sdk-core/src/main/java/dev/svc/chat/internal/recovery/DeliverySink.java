package dev.svc.chat.internal.recovery;

import dev.svc.chat.ClientError;
import dev.svc.chat.EventType;

/** Where recovery hands what it delivers, on the client's actor, in delivery order. */
public interface DeliverySink {
  /** Delivers {@code payload} to the handlers of {@code type}. */
  <T> void publish(EventType<T> type, T payload);

  /** Reports a problem recovery handled itself. */
  void report(ClientError error);
}
