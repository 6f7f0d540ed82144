package dev.svc.chat.internal.socketio;

/** Thrown by the codecs for a frame that breaks the Engine.IO or Socket.IO framing; the frame is dropped. */
public final class MalformedFrameException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; {@code message} says what is wrong and shows the start of the frame. */
  public MalformedFrameException(String message) {
    super(message);
  }
}
