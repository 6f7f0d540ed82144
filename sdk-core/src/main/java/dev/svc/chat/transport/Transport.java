package dev.svc.chat.transport;

import java.util.Map;

/**
 * Opens WebSockets to the gateway. One transport serves every client it is given to (a fleet's clients share
 * one), so an implementation is safe for use from any thread and holds no per-client state.
 */
public interface Transport {
  /**
   * Starts opening a WebSocket to {@code url} and returns it at once; the outcome reaches {@code listener}:
   * {@link TransportListener#onOpen} once the upgrade succeeded, else {@link TransportListener#onFailure}.
   *
   * @param url the gateway's WebSocket URL ({@code ws:} or {@code wss:}; {@code http:} and {@code https:} are
   *     accepted as their WebSocket equivalents)
   * @param headers extra request headers of the upgrade (empty for the gateway today)
   * @param listener receives the socket's events, one at a time, in order
   * @return the socket, usable at once: text sent before it opened is queued
   */
  TransportSocket open(String url, Map<String, String> headers, TransportListener listener);
}
