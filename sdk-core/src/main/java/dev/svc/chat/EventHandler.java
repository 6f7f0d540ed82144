package dev.svc.chat;

/**
 * Receives events of one {@link EventType}. Handlers run on the client's callback executor in the order the
 * events arrived. A handler that throws is logged and does not stop delivery to other handlers. Handlers
 * must not block: they share one executor with the completion of every future the client returns.
 *
 * @param <T> the event payload type
 */
public interface EventHandler<T> {
  /**
   * Invoked with each event of the subscribed type.
   *
   * @param event the immutable event payload
   */
  void onEvent(T event);
}
