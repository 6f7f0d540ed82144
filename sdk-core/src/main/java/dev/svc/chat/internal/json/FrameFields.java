package dev.svc.chat.internal.json;

import java.util.Collections;
import java.util.List;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import org.jspecify.annotations.Nullable;

/**
 * The fields of a {@link Message} that stay in the frame it was read from until they are first asked for: its id,
 * its client message id and, when it has one part, that part's text. {@link FastMessageReader} checked them whole
 * when it read the frame (strings without escapes or control characters, a part type it keeps), so making them
 * later is a copy of the frame's characters, never a check that could fail. A message keeps its frame while it
 * keeps these fields.
 *
 * <p>Safe to share between threads without a lock: the frame and the places are final, and each made value is a
 * String or an immutable list of an immutable part, written to a plain field once made; a thread that sees the
 * field still empty makes an equal value of its own (as {@link String#hashCode} caches its hash).
 */
public final class FrameFields {
  private final String frame;
  private final int idAt;
  private final int idEnd;
  private final int clientMessageIdAt;
  private final int clientMessageIdEnd;
  /** The one part's type, or null when the message's parts were made when it was read. */
  private final @Nullable String partType;
  /** Where the one part's text is in the frame; {@code textAt} is -1 for a part without text. */
  private final int textAt;
  private final int textEnd;
  private @Nullable String id;
  private @Nullable String clientMessageId;
  private @Nullable List<MessagePart> parts;

  FrameFields(String frame, int idAt, int idEnd, int clientMessageIdAt, int clientMessageIdEnd,
      @Nullable String partType, int textAt, int textEnd) {
    this.frame = frame;
    this.idAt = idAt;
    this.idEnd = idEnd;
    this.clientMessageIdAt = clientMessageIdAt;
    this.clientMessageIdEnd = clientMessageIdEnd;
    this.partType = partType;
    this.textAt = textAt;
    this.textEnd = textEnd;
  }

  /** Returns the message's id. */
  public String id() {
    String v = id;
    if (v == null) {
      v = frame.substring(idAt, idEnd);
      id = v;
    }
    return v;
  }

  /** Returns the message's client message id. */
  public String clientMessageId() {
    String v = clientMessageId;
    if (v == null) {
      v = frame.substring(clientMessageIdAt, clientMessageIdEnd);
      clientMessageId = v;
    }
    return v;
  }

  /** Whether the message's parts are kept here (one part); otherwise the message made them when it was read. */
  public boolean keepsParts() {
    return partType != null;
  }

  /** Returns the message's one part, as an immutable list; only when {@link #keepsParts()}. */
  public List<MessagePart> parts() {
    List<MessagePart> v = parts;
    if (v == null) {
      String type = partType;
      if (type == null) throw new IllegalStateException("the parts are not in the frame");
      String text = textAt < 0 ? null : frame.substring(textAt, textEnd);
      v = Collections.singletonList(MessagePart.builder(type).text(text).build());
      parts = v;
    }
    return v;
  }
}
