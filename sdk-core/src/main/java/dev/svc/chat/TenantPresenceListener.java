package dev.svc.chat;

import java.util.Set;

/**
 * Receives a {@link TenantPresenceTracker}'s changes on the client's callback executor. Every method does
 * nothing unless overridden.
 */
public interface TenantPresenceListener {
  /**
   * Invoked with the whole set of online users after it changed, and once after the first snapshot.
   *
   * @param online the online user ids, unmodifiable
   */
  default void onChange(Set<String> online) {
  }

  /**
   * Invoked when fetching the snapshot failed; the tracker tries again at the next connect.
   *
   * @param error an {@link ApiException}, {@link TransportException} or {@link ChatStateException}
   */
  default void onError(Throwable error) {
  }
}
