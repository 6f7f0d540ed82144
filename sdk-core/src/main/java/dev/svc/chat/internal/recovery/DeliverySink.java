package dev.svc.chat.internal.recovery;

import dev.svc.chat.ClientError;
import dev.svc.chat.EventType;

/** Where recovery hands what it delivers, on the client's actor, in delivery order. */
public interface DeliverySink {
  /** Delivers {@code payload} to the handlers of {@code type}. */
  <T> void publish(EventType<T> type, T payload);

  /** Reports a problem recovery handled itself. */
  void report(ClientError error);

  /**
   * Runs {@code next} on the actor once the app's handlers have caught up (fewer events wait for them than the
   * inbound gate's low water mark), at once if they have: recovery reads each page only then, so what it pages
   * in never outruns the handlers and the client's memory stays bounded by the gate's mark.
   */
  default void whenHandled(Runnable next) {
    next.run();
  }
}
