package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.svc.chat.internal.json.FrameFields;
import dev.svc.chat.internal.json.FrameMessages;
import org.jspecify.annotations.Nullable;

/**
 * A chat message as the service stores it. Timestamps are milliseconds since the epoch (UTC).
 */
public final class Message {
  static {
    FrameMessages.install(Message::new); // how FastMessageReader makes a message that keeps its frame
  }

  // id, parts and clientMessageId: null when inFrame holds them
  private final @Nullable String id;
  private final String roomId;
  private final long seq;
  private final long rev;
  private final String senderId;
  private final @Nullable List<MessagePart> parts;
  private final @Nullable String clientMessageId;
  private final long createdAt;
  private final @Nullable Long editedAt;
  private final @Nullable Long deletedAt;
  private final Map<String, List<String>> reactions;
  private final MessageLinks links;
  /** The fields left in the frame the message was read from, made when first asked for; or null. */
  private final @Nullable FrameFields inFrame;

  private Message(Builder b, @Nullable FrameFields inFrame) {
    this.inFrame = inFrame;
    this.id = inFrame != null ? null : require(b.id, "id");
    this.roomId = require(b.roomId, "roomId");
    this.senderId = require(b.senderId, "senderId");
    this.clientMessageId = inFrame != null ? null : require(b.clientMessageId, "clientMessageId");
    this.seq = b.seq;
    this.rev = b.rev;
    // the commonest message has one part: one immutable list of one, not a copy and its wrapper
    this.parts = inFrame != null && inFrame.keepsParts() ? null
        : b.parts.size() == 1 ? Collections.singletonList(b.parts.get(0))
        : Collections.unmodifiableList(new ArrayList<>(b.parts));
    this.createdAt = b.createdAt;
    this.editedAt = b.editedAt;
    this.deletedAt = b.deletedAt;
    this.reactions = MessageContent.frozen(b.reactions);
    this.links = b.links;
  }

  private static String require(@Nullable String value, String name) {
    if (value == null) throw new IllegalStateException(name + " not set");
    return value;
  }

  /**
   * Returns a new builder.
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the message id, a UUID made by the service.
   *
   * @return the id
   */
  public String id() {
    String v = id;
    return v != null ? v : inFrame.id();
  }

  /**
   * Returns the id of the room the message belongs to.
   *
   * @return the room id
   */
  public String roomId() {
    return roomId;
  }

  /**
   * Returns the message's sequence number in its room: 1 for the first message, no holes.
   *
   * @return the sequence number
   */
  public long seq() {
    return seq;
  }

  /**
   * Returns the room revision of the message's latest change. Every change to a room's messages (a send, an
   * edit, a reaction toggle, a delete) takes the room's next revision, so of two versions of one message the
   * one with the higher revision is the newer, and {@link ChatClient#getChanges(String, long)} with the
   * highest revision a client has seen returns what it missed since. It is 0 when the service did not send
   * one (an older service) and for a message built locally.
   *
   * @return the revision, at least 0
   */
  public long rev() {
    return rev;
  }

  /**
   * Returns the user id of the sender.
   *
   * @return the sender id
   */
  public String senderId() {
    return senderId;
  }

  /**
   * Returns the parts; empty for a deleted message.
   *
   * @return an unmodifiable list
   */
  public List<MessagePart> parts() {
    List<MessagePart> v = parts;
    return v != null ? v : inFrame.parts();
  }

  /**
   * Returns the id the sending client chose for the message (a UUID).
   *
   * @return the client message id
   */
  public String clientMessageId() {
    String v = clientMessageId;
    return v != null ? v : inFrame.clientMessageId();
  }

  /**
   * Returns when the message was created, in epoch milliseconds.
   *
   * @return the creation time
   */
  public long createdAt() {
    return createdAt;
  }

  /**
   * Returns when the message was last edited, in epoch milliseconds.
   *
   * @return the time, or null if never
   */
  public @Nullable Long editedAt() {
    return editedAt;
  }

  /**
   * Returns when the message was deleted, in epoch milliseconds.
   *
   * @return the time, or null if not deleted
   */
  public @Nullable Long deletedAt() {
    return deletedAt;
  }

  /**
   * Returns whether the message was deleted.
   *
   * @return true when {@link #deletedAt()} is set
   */
  public boolean isDeleted() {
    return deletedAt != null;
  }

  /**
   * Returns the reactions: for each emoji, the ids of the users who reacted with it.
   *
   * @return an unmodifiable map of emoji to unmodifiable user id lists
   */
  public Map<String, List<String>> reactions() {
    return reactions;
  }

  /**
   * Returns the id of the message of the same room this one answers (quotes). That message may since have been
   * deleted: show it from the client's own copy or {@link ChatClient#getMessage}.
   *
   * @return the id, or null when the message answers none
   */
  public @Nullable String replyToId() {
    return links.replyToId();
  }

  /**
   * Returns the id of the root of the thread this message is a reply in. A thread reply is also a message of
   * its room, with the room's next {@link #seq()}.
   *
   * @return the root's id, or null when the message is in no thread
   */
  public @Nullable String threadId() {
    return links.threadId();
  }

  /**
   * Returns the summary of the replies to this message, when it is the root of a thread. A deleted root keeps
   * its summary.
   *
   * @return the summary, or null when the message never had a reply
   */
  public @Nullable ThreadSummary thread() {
    return links.thread();
  }

  /**
   * Returns the distinct members the message mentions, in the sender's order, at most 20; empty for a deleted
   * message. {@link MentionText} turns {@code @name} text into them and back.
   *
   * @return an unmodifiable list of user ids
   */
  public List<String> mentions() {
    return links.mentions();
  }

  /**
   * Returns the message's links together: the message it answers, its thread, its own thread's summary and the
   * members it mentions (each also returned by its own accessor above), and whether it is a thread reply.
   *
   * @return the links, {@link MessageLinks#none()} when none is set
   */
  public MessageLinks links() {
    return links;
  }

  /**
   * Returns the concatenated text of the message's text parts, a convenience for display.
   *
   * @return the text, empty when there is none
   */
  public String text() {
    return MessageContent.text(parts());
  }

  /**
   * Returns the files of the message's file parts, in order (contract section 9).
   *
   * @return an unmodifiable list, empty when the message holds no file
   */
  public List<FileAttachment> files() {
    return MessageContent.files(parts());
  }

  /**
   * Returns a builder initialised with this message's fields.
   *
   * @return a new builder
   */
  public Builder newBuilder() {
    Builder b = new Builder().id(id()).roomId(roomId).seq(seq).rev(rev).senderId(senderId).parts(parts())
        .clientMessageId(clientMessageId()).createdAt(createdAt).editedAt(editedAt).deletedAt(deletedAt)
        .links(links);
    if (!reactions.isEmpty()) b.reactions().putAll(reactions);
    return b;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof Message)) return false;
    Message m = (Message) o;
    return id().equals(m.id()) && roomId.equals(m.roomId) && seq == m.seq && rev == m.rev
        && senderId.equals(m.senderId)
        && parts().equals(m.parts()) && clientMessageId().equals(m.clientMessageId()) && createdAt == m.createdAt
        && (editedAt == null ? m.editedAt == null : editedAt.equals(m.editedAt))
        && (deletedAt == null ? m.deletedAt == null : deletedAt.equals(m.deletedAt))
        && reactions.equals(m.reactions) && links.equals(m.links);
  }

  @Override
  public int hashCode() {
    int h = id().hashCode();
    h = 31 * h + roomId.hashCode();
    h = 31 * h + (int) (seq ^ (seq >>> 32));
    h = 31 * h + (int) (rev ^ (rev >>> 32));
    h = 31 * h + senderId.hashCode();
    h = 31 * h + parts().hashCode();
    h = 31 * h + clientMessageId().hashCode();
    h = 31 * h + (int) (createdAt ^ (createdAt >>> 32));
    h = 31 * h + (editedAt == null ? 0 : editedAt.hashCode());
    h = 31 * h + (deletedAt == null ? 0 : deletedAt.hashCode());
    h = 31 * h + reactions.hashCode();
    return 31 * h + links.hashCode();
  }

  @Override
  public String toString() {
    return "Message{id=" + id() + ", roomId=" + roomId + ", seq=" + seq + ", rev=" + rev + ", senderId=" + senderId
        + ", parts=" + parts() + ", clientMessageId=" + clientMessageId() + ", createdAt=" + createdAt
        + (editedAt == null ? "" : ", editedAt=" + editedAt)
        + (deletedAt == null ? "" : ", deletedAt=" + deletedAt)
        + (reactions.isEmpty() ? "" : ", reactions=" + reactions)
        + links.fields() + "}";
  }

  /** Builds a {@link Message}; {@code id}, {@code roomId}, {@code senderId} and {@code clientMessageId} are required. */
  public static final class Builder {
    private @Nullable String id;
    private @Nullable String roomId;
    private long seq;
    private long rev;
    private @Nullable String senderId;
    private final List<MessagePart> parts = new ArrayList<>(2);
    private @Nullable String clientMessageId;
    private long createdAt;
    private @Nullable Long editedAt;
    private @Nullable Long deletedAt;
    /** Made on the first reaction: most messages have none. */
    private @Nullable Map<String, List<String>> reactions;
    private MessageLinks links = MessageLinks.none();

    Builder() {
    }

    /**
     * Sets the message id.
     *
     * @param id the id
     * @return this builder
     */
    public Builder id(String id) {
      this.id = nonNull(id, "id");
      return this;
    }

    /**
     * Sets the room id.
     *
     * @param roomId the room id
     * @return this builder
     */
    public Builder roomId(String roomId) {
      this.roomId = nonNull(roomId, "roomId");
      return this;
    }

    /**
     * Sets the sequence number.
     *
     * @param seq the sequence number, at least 0
     * @return this builder
     */
    public Builder seq(long seq) {
      if (seq < 0) throw new IllegalArgumentException("seq < 0: " + seq);
      this.seq = seq;
      return this;
    }

    /**
     * Sets the room revision of the message's latest change.
     *
     * @param rev the revision, at least 0 (0: unknown)
     * @return this builder
     */
    public Builder rev(long rev) {
      if (rev < 0) throw new IllegalArgumentException("rev < 0: " + rev);
      this.rev = rev;
      return this;
    }

    /**
     * Sets the sender id.
     *
     * @param senderId the user id
     * @return this builder
     */
    public Builder senderId(String senderId) {
      this.senderId = nonNull(senderId, "senderId");
      return this;
    }

    /**
     * Replaces the parts.
     *
     * @param parts the parts, none null
     * @return this builder
     */
    public Builder parts(List<MessagePart> parts) {
      nonNull(parts, "parts");
      this.parts.clear();
      for (MessagePart p : parts) this.parts.add(nonNull(p, "part"));
      return this;
    }

    /**
     * Adds a part.
     *
     * @param part the part
     * @return this builder
     */
    public Builder addPart(MessagePart part) {
      this.parts.add(nonNull(part, "part"));
      return this;
    }

    /**
     * Sets the client message id.
     *
     * @param clientMessageId the id
     * @return this builder
     */
    public Builder clientMessageId(String clientMessageId) {
      this.clientMessageId = nonNull(clientMessageId, "clientMessageId");
      return this;
    }

    /**
     * Sets the creation time.
     *
     * @param epochMillis epoch milliseconds
     * @return this builder
     */
    public Builder createdAt(long epochMillis) {
      this.createdAt = epochMillis;
      return this;
    }

    /**
     * Sets the edit time.
     *
     * @param epochMillis epoch milliseconds, or null
     * @return this builder
     */
    public Builder editedAt(@Nullable Long epochMillis) {
      this.editedAt = epochMillis;
      return this;
    }

    /**
     * Sets the deletion time.
     *
     * @param epochMillis epoch milliseconds, or null
     * @return this builder
     */
    public Builder deletedAt(@Nullable Long epochMillis) {
      this.deletedAt = epochMillis;
      return this;
    }

    /**
     * Sets the users who reacted with an emoji.
     *
     * @param emoji the emoji
     * @param userIds the user ids, none null
     * @return this builder
     */
    public Builder reaction(String emoji, List<String> userIds) {
      nonNull(emoji, "emoji");
      List<String> copy = new ArrayList<>();
      for (String u : nonNull(userIds, "userIds")) copy.add(nonNull(u, "userId"));
      reactions().put(emoji, copy);
      return this;
    }

    /**
     * Sets the message's links: the message it answers, the thread it is a reply in, its own thread's summary
     * and the members it mentions.
     *
     * @param links the links, {@link MessageLinks#none()} for none
     * @return this builder
     */
    public Builder links(MessageLinks links) {
      this.links = nonNull(links, "links");
      return this;
    }

    /**
     * Returns the message.
     *
     * @return a new immutable message
     * @throws IllegalStateException if a required field is not set
     */
    public Message build() {
      return new Message(this, null);
    }

    private Map<String, List<String>> reactions() {
      if (reactions == null) reactions = new LinkedHashMap<>();
      return reactions;
    }

    private static <V> V nonNull(@Nullable V v, String name) {
      if (v == null) throw new NullPointerException(name + " == null");
      return v;
    }
  }
}
