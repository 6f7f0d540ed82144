package dev.svc.chat;

/**
 * Thrown when the client is not in a state that allows the operation: a REST call before
 * {@link ChatClient#connect(String, String)}, joining a room while disconnected, or any use after
 * {@link ChatClient#close()}.
 */
public final class ChatStateException extends ChatException {
  /** The serialization version of this class. */
  private static final long serialVersionUID = 1L;

  /**
   * Creates a state error.
   *
   * @param message what was attempted and why the state does not allow it
   */
  public ChatStateException(String message) {
    super(message);
  }
}
