package dev.svc.chat.session;

/**
 * The status of a {@link SessionManager}, as the JS SDK names them.
 *
 * <pre>
 * IDLE    --start()------------------------------------------&gt; LOADING
 * LOADING --session fetched and client connected-------------&gt; READY
 * LOADING --network failure, route 5xx/408/429, or connect----&gt; OFFLINE (retries by itself)
 * LOADING --route answered non-2xx, or token unauthorized----&gt; ERROR
 * READY   --connection lost, or its token refresh failed-----&gt; OFFLINE (the client reconnecting)
 * READY   --networkLost() (LOADING too)----------------------&gt; OFFLINE
 * READY   --refresh: route answered non-2xx, user changed----&gt; ERROR (client disconnected)
 * OFFLINE --network back: fetched and connected--------------&gt; READY
 * OFFLINE --networkAvailable(), the connection survived------&gt; READY
 * OFFLINE --route answered non-2xx, token unauthorized-------&gt; ERROR
 * ERROR   --start()------------------------------------------&gt; LOADING (one new attempt)
 * any     --stop()-------------------------------------------&gt; IDLE (client disconnected, kept)
 * </pre>
 *
 * A token refresh does not change the status: the client stays usable while the new token takes over.
 */
public enum SessionStatus {
  /** Not started, or stopped. The client, if one was created, is disconnected but kept. */
  IDLE,
  /** Fetching the session or connecting for the first time since {@code start()}. */
  LOADING,
  /** Connected: the state's client is usable. */
  READY,
  /**
   * The network or the tenant's backend failed (a session fetch, or the client's connection): retrying with
   * backoff, back to {@link #READY} by itself.
   */
  OFFLINE,
  /** Not signed in, or the token was refused as invalid: no retry until {@code start()} is called again. */
  ERROR
}
