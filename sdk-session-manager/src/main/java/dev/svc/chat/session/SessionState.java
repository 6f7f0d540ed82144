package dev.svc.chat.session;

import dev.svc.chat.ChatClient;
import org.jspecify.annotations.Nullable;

/** An immutable snapshot of a {@link SessionManager}: its status, its client and the last error. */
public final class SessionState {
  private final SessionStatus status;
  private final @Nullable ChatClient client;
  private final @Nullable Throwable error;
  private final @Nullable Session session;

  SessionState(SessionStatus status, @Nullable ChatClient client, @Nullable Throwable error,
      @Nullable Session session) {
    this.status = status;
    this.client = client;
    this.error = error;
    this.session = session;
  }

  /**
   * Returns the status.
   *
   * @return the status
   */
  public SessionStatus status() {
    return status;
  }

  /**
   * Returns the client: the same object for the manager's whole life once created, usable when the status
   * is {@link SessionStatus#READY}.
   *
   * @return the client, or null before the first session was fetched
   */
  public @Nullable ChatClient client() {
    return client;
  }

  /**
   * Returns why the status is {@link SessionStatus#ERROR} or {@link SessionStatus#OFFLINE}.
   *
   * @return the error, or null in the other statuses
   */
  public @Nullable Throwable error() {
    return error;
  }

  /**
   * Returns the session in use, without its token's value being exposed by {@code toString}.
   *
   * @return the session, or null before the first fetch
   */
  public @Nullable Session session() {
    return session;
  }

  @Override
  public String toString() {
    return "SessionState{" + status + (error == null ? "" : ", error=" + error) + "}";
  }
}
