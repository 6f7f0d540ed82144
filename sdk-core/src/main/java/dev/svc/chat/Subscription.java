package dev.svc.chat;

/**
 * A handler registered with {@link ChatClient#on(EventType, EventHandler)}.
 */
public interface Subscription {
  /**
   * Removes exactly this handler: no delivery to it starts after this returns. Removing twice does nothing.
   */
  void remove();
}
