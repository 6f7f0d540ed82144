package dev.svc.chat.internal.json;

import dev.svc.chat.Message;

/**
 * How this package makes a {@link Message} whose id, client message id and one part stay in its frame
 * ({@link FrameFields}): Message's constructor is private, so Message installs its {@link Factory} when it is
 * initialised, and {@link FastMessageReader} builds through it. Not an API: for the SDK's own packages.
 */
public final class FrameMessages {
  /** Makes a message of what a builder holds and of the fields left in its frame. */
  public interface Factory {
    /**
     * Returns the message {@code b} holds, but for the id, the client message id and (when {@code fields} keeps
     * them) the parts, which {@code fields} holds.
     */
    Message build(Message.Builder b, FrameFields fields);
  }

  private static volatile Factory installed;

  private FrameMessages() {
  }

  /** Installs the factory; Message calls it once, from its static initialiser. Later calls change nothing. */
  public static void install(Factory factory) {
    if (installed == null) installed = factory;
  }

  static Message of(Message.Builder b, FrameFields fields) {
    Factory f = installed;
    if (f == null) {
      Message.builder(); // initialises Message, which installs its factory
      f = installed;
    }
    return f.build(b, fields);
  }
}
