package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.svc.chat.internal.util.Inputs;
import org.jspecify.annotations.Nullable;

/**
 * What a send carries besides its parts ({@link ChatClient#sendMessage(String, List, SendOptions)}): the message it
 * answers, the thread it is a reply in, the members it mentions, and its client message id. Every field is
 * optional; {@link #NONE} sends a plain message.
 */
public final class SendOptions {
  /** The most members one message mentions. */
  public static final int MAX_MENTIONS = 20;

  /** Options that set nothing: a plain message with a new client message id. */
  public static final SendOptions NONE = builder().build();

  private final @Nullable String clientMessageId;
  private final @Nullable String replyToId;
  private final @Nullable String threadId;
  private final List<String> mentions;

  private SendOptions(Builder b) {
    this.clientMessageId = b.clientMessageId;
    this.replyToId = b.replyToId;
    this.threadId = b.threadId;
    this.mentions = b.mentions.isEmpty() ? Collections.<String>emptyList()
        : Collections.unmodifiableList(new ArrayList<>(b.mentions));
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
   * Returns options for a reply in the thread of {@code rootId}.
   *
   * @param rootId the id of the thread's root, a message of the same room that is not itself a thread reply
   * @return the options
   */
  public static SendOptions inThread(String rootId) {
    return builder().threadId(rootId).build();
  }

  /**
   * Returns options for a message that answers (quotes) {@code messageId}.
   *
   * @param messageId a message of the same room; a deleted one is allowed
   * @return the options
   */
  public static SendOptions replyTo(String messageId) {
    return builder().replyToId(messageId).build();
  }

  /**
   * Returns the client message id the send is made with.
   *
   * @return the id, or null for a new random one per send
   */
  public @Nullable String clientMessageId() {
    return clientMessageId;
  }

  /**
   * Returns the id of the message the new one answers.
   *
   * @return the id, or null for none
   */
  public @Nullable String replyToId() {
    return replyToId;
  }

  /**
   * Returns the id of the root of the thread the new message is a reply in.
   *
   * @return the root's id, or null for none
   */
  public @Nullable String threadId() {
    return threadId;
  }

  /**
   * Returns the members the new message mentions, distinct, in the order given.
   *
   * @return an unmodifiable list of user ids, at most {@value #MAX_MENTIONS}
   */
  public List<String> mentions() {
    return mentions;
  }

  /**
   * Returns a builder initialised with these options.
   *
   * @return a new builder
   */
  public Builder newBuilder() {
    Builder b = new Builder().replyToId(replyToId).threadId(threadId).mentions(mentions);
    b.clientMessageId = clientMessageId;
    return b;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof SendOptions)) return false;
    SendOptions s = (SendOptions) o;
    return eq(clientMessageId, s.clientMessageId) && eq(replyToId, s.replyToId) && eq(threadId, s.threadId)
        && mentions.equals(s.mentions);
  }

  private static boolean eq(@Nullable String a, @Nullable String b) {
    return a == null ? b == null : a.equals(b);
  }

  @Override
  public int hashCode() {
    int h = clientMessageId == null ? 0 : clientMessageId.hashCode();
    h = 31 * h + (replyToId == null ? 0 : replyToId.hashCode());
    h = 31 * h + (threadId == null ? 0 : threadId.hashCode());
    return 31 * h + mentions.hashCode();
  }

  @Override
  public String toString() {
    return "SendOptions{" + (clientMessageId == null ? "" : "clientMessageId=" + clientMessageId + ", ")
        + "replyToId=" + replyToId + ", threadId=" + threadId + ", mentions=" + mentions + "}";
  }

  /** Builds {@link SendOptions}; every field is optional. */
  public static final class Builder {
    private @Nullable String clientMessageId;
    private @Nullable String replyToId;
    private @Nullable String threadId;
    private final Set<String> mentions = new LinkedHashSet<>();

    Builder() {
    }

    /**
     * Sets the client message id, the send's idempotency key: a send made again with the same id is stored once.
     *
     * @param clientMessageId 1 to 64 characters
     * @return this builder
     * @throws IllegalArgumentException if the id is empty or too long
     */
    public Builder clientMessageId(String clientMessageId) {
      this.clientMessageId = Inputs.clientMessageId(clientMessageId);
      return this;
    }

    /**
     * Sets the message the new one answers (quotes).
     *
     * @param messageId a message of the same room, or null for none
     * @return this builder
     */
    public Builder replyToId(@Nullable String messageId) {
      this.replyToId = messageId == null ? null : Inputs.messageId(messageId);
      return this;
    }

    /**
     * Sets the thread the new message is a reply in.
     *
     * @param rootId the id of the thread's root, or null for none
     * @return this builder
     */
    public Builder threadId(@Nullable String rootId) {
      this.threadId = rootId == null ? null : Inputs.messageId(rootId);
      return this;
    }

    /**
     * Replaces the mentioned members; duplicates are collapsed, the first occurrence keeping its place. The
     * service refuses a user who is not a member of the room (400).
     *
     * @param userIds the user ids
     * @return this builder
     * @throws IllegalArgumentException if more than {@value SendOptions#MAX_MENTIONS} distinct ids are given, or
     *     one is not a valid user id
     */
    public Builder mentions(List<String> userIds) {
      Inputs.nonNull(userIds, "userIds");
      Set<String> distinct = new LinkedHashSet<>();
      for (String u : userIds) distinct.add(Inputs.userId(u));
      if (distinct.size() > MAX_MENTIONS) {
        throw new IllegalArgumentException("at most " + MAX_MENTIONS + " mentions: " + distinct.size());
      }
      mentions.clear();
      mentions.addAll(distinct);
      return this;
    }

    /**
     * Returns the options.
     *
     * @return new immutable options
     */
    public SendOptions build() {
      return new SendOptions(this);
    }
  }
}
