package dev.svc.chat.server;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A message, as the {@code message.*} webhooks carry it: {@code {id, roomId, seq, rev, senderId, parts,
 * clientMessageId, createdAt, editedAt?, deletedAt?, reactions}} (contract section 4).
 */
public final class ChatMessage {
  private final String id;
  private final String roomId;
  private final long seq;
  private final long rev;
  private final String senderId;
  private final List<Part> parts;
  private final String clientMessageId;
  private final long createdAtMillis;
  private final @Nullable Long editedAtMillis;
  private final @Nullable Long deletedAtMillis;
  private final Map<String, List<String>> reactions;

  ChatMessage(String id, String roomId, long seq, long rev, String senderId, List<Part> parts,
      String clientMessageId, long createdAtMillis, @Nullable Long editedAtMillis, @Nullable Long deletedAtMillis,
      Map<String, List<String>> reactions) {
    this.id = id;
    this.roomId = roomId;
    this.seq = seq;
    this.rev = rev;
    this.senderId = senderId;
    this.parts = parts;
    this.clientMessageId = clientMessageId;
    this.createdAtMillis = createdAtMillis;
    this.editedAtMillis = editedAtMillis;
    this.deletedAtMillis = deletedAtMillis;
    this.reactions = reactions;
  }

  /**
   * Returns the message's id.
   *
   * @return the id
   */
  public String id() {
    return id;
  }

  /**
   * Returns the room the message is in.
   *
   * @return the room id
   */
  public String roomId() {
    return roomId;
  }

  /**
   * Returns the message's place in its room: 1, 2, 3 ... without holes.
   *
   * @return the seq
   */
  public long seq() {
    return seq;
  }

  /**
   * Returns the room revision of the message's latest change.
   *
   * @return the revision
   */
  public long rev() {
    return rev;
  }

  /**
   * Returns the author.
   *
   * @return the user id
   */
  public String senderId() {
    return senderId;
  }

  /**
   * Returns the parts, in order; empty once deleted. Parts of types other than {@code text} are kept with
   * their type only: {@link WebhookEvent#dataJson()} has all of them.
   *
   * @return an unmodifiable list
   */
  public List<Part> parts() {
    return parts;
  }

  /**
   * Returns the text of the text parts, joined without separator.
   *
   * @return the text, empty when there is none
   */
  public String text() {
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      if (Part.TEXT.equals(p.type()) && p.text() != null) sb.append(p.text());
    }
    return sb.toString();
  }

  /**
   * Returns the id the sender's client gave the message, on which the service deduplicates retries.
   *
   * @return the client message id
   */
  public String clientMessageId() {
    return clientMessageId;
  }

  /**
   * Returns when the message was sent.
   *
   * @return epoch milliseconds
   */
  public long createdAtMillis() {
    return createdAtMillis;
  }

  /**
   * Returns when the message was last edited.
   *
   * @return epoch milliseconds, or null if never
   */
  public @Nullable Long editedAtMillis() {
    return editedAtMillis;
  }

  /**
   * Returns when the message was deleted.
   *
   * @return epoch milliseconds, or null if it was not
   */
  public @Nullable Long deletedAtMillis() {
    return deletedAtMillis;
  }

  /**
   * Returns whether the message was deleted.
   *
   * @return true once deleted
   */
  public boolean isDeleted() {
    return deletedAtMillis != null;
  }

  /**
   * Returns the reactions: each emoji with the users who gave it.
   *
   * @return an unmodifiable map, in the order the service sent it
   */
  public Map<String, List<String>> reactions() {
    return reactions;
  }

  @Override
  public String toString() {
    return "ChatMessage{id=" + id + ", roomId=" + roomId + ", seq=" + seq + ", senderId=" + senderId + "}";
  }

  /** A part of a message: {@code {type, text?}}. */
  public static final class Part {
    /** The type of a text part. */
    public static final String TEXT = "text";

    private final String type;
    private final @Nullable String text;

    Part(String type, @Nullable String text) {
      this.type = type;
      this.text = text;
    }

    /**
     * Returns the part's type, such as {@link #TEXT}.
     *
     * @return the type
     */
    public String type() {
      return type;
    }

    /**
     * Returns the part's text.
     *
     * @return the text, or null for a part without one
     */
    public @Nullable String text() {
      return text;
    }

    @Override
    public String toString() {
      return "Part{type=" + type + "}";
    }
  }
}
