package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A message's links to other messages and to members (contract section 10): the message it answers, the thread it
 * is a reply in, the summary of its own thread when it is a root, and the members it mentions. {@link Message}
 * reads each of them directly ({@link Message#replyToId()}, {@link Message#threadId()}, {@link Message#thread()},
 * {@link Message#mentions()}); {@link Message.Builder#links} sets them together.
 */
public final class MessageLinks {
  /** The commonest links, those of a message that answers none, is in no thread and mentions no one. */
  private static final MessageLinks NONE = new MessageLinks(null, null, null, Collections.<String>emptyList());

  private final @Nullable String replyToId;
  private final @Nullable String threadId;
  private final @Nullable ThreadSummary thread;
  private final List<String> mentions;

  private MessageLinks(@Nullable String replyToId, @Nullable String threadId, @Nullable ThreadSummary thread,
      List<String> mentions) {
    this.replyToId = replyToId;
    this.threadId = threadId;
    this.thread = thread;
    this.mentions = mentions;
  }

  /**
   * Returns the links of a message that answers none, is in no thread, is no thread's root and mentions no one.
   *
   * @return the empty links
   */
  public static MessageLinks none() {
    return NONE;
  }

  /**
   * Returns a new builder.
   *
   * @return a builder of no links
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the id of the message of the same room the message answers (quotes).
   *
   * @return the id, or null when the message answers none
   * @see Message#replyToId()
   */
  public @Nullable String replyToId() {
    return replyToId;
  }

  /**
   * Returns the id of the root of the thread the message is a reply in.
   *
   * @return the root's id, or null when the message is in no thread
   * @see Message#threadId()
   */
  public @Nullable String threadId() {
    return threadId;
  }

  /**
   * Returns whether the message is a reply in a thread.
   *
   * @return true when {@link #threadId()} is set
   */
  public boolean isThreadReply() {
    return threadId != null;
  }

  /**
   * Returns the summary of the replies to the message, when it is the root of a thread.
   *
   * @return the summary, or null when the message never had a reply
   * @see Message#thread()
   */
  public @Nullable ThreadSummary thread() {
    return thread;
  }

  /**
   * Returns the distinct members the message mentions, in the sender's order.
   *
   * @return an unmodifiable list of user ids
   * @see Message#mentions()
   */
  public List<String> mentions() {
    return mentions;
  }

  /**
   * Returns whether no link is set, as in {@link #none()}.
   *
   * @return true when the message answers none, is in no thread, has no summary and mentions no one
   */
  public boolean isEmpty() {
    return replyToId == null && threadId == null && thread == null && mentions.isEmpty();
  }

  /**
   * Returns a builder initialised with these links.
   *
   * @return a new builder
   */
  public Builder newBuilder() {
    Builder b = new Builder().replyToId(replyToId).threadId(threadId).thread(thread);
    b.mentions = mentions; // already an immutable copy
    return b;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof MessageLinks)) return false;
    MessageLinks l = (MessageLinks) o;
    return (replyToId == null ? l.replyToId == null : replyToId.equals(l.replyToId))
        && (threadId == null ? l.threadId == null : threadId.equals(l.threadId))
        && (thread == null ? l.thread == null : thread.equals(l.thread))
        && mentions.equals(l.mentions);
  }

  @Override
  public int hashCode() {
    int h = replyToId == null ? 0 : replyToId.hashCode();
    h = 31 * h + (threadId == null ? 0 : threadId.hashCode());
    h = 31 * h + (thread == null ? 0 : thread.hashCode());
    return 31 * h + mentions.hashCode();
  }

  @Override
  public String toString() {
    String fields = fields();
    return "MessageLinks{" + (fields.isEmpty() ? "" : fields.substring(2)) + "}";
  }

  /** The links that are set, each after {@code ", "} as {@link Message#toString()} lists them; empty when none. */
  String fields() {
    return (replyToId == null ? "" : ", replyToId=" + replyToId)
        + (threadId == null ? "" : ", threadId=" + threadId)
        + (thread == null ? "" : ", thread=" + thread)
        + (mentions.isEmpty() ? "" : ", mentions=" + mentions);
  }

  /** Builds {@link MessageLinks}; every link is optional. */
  public static final class Builder {
    private @Nullable String replyToId;
    private @Nullable String threadId;
    private @Nullable ThreadSummary thread;
    private List<String> mentions = Collections.emptyList();

    Builder() {
    }

    /**
     * Sets the id of the message this one answers.
     *
     * @param messageId the id, or null for none
     * @return this builder
     */
    public Builder replyToId(@Nullable String messageId) {
      this.replyToId = messageId;
      return this;
    }

    /**
     * Sets the id of the root of the thread this message is a reply in.
     *
     * @param rootId the root's id, or null for none
     * @return this builder
     */
    public Builder threadId(@Nullable String rootId) {
      this.threadId = rootId;
      return this;
    }

    /**
     * Sets the summary of the replies to this message (a thread's root).
     *
     * @param thread the summary, or null for none
     * @return this builder
     */
    public Builder thread(@Nullable ThreadSummary thread) {
      this.thread = thread;
      return this;
    }

    /**
     * Replaces the mentioned user ids.
     *
     * @param userIds the user ids, none null
     * @return this builder
     * @throws NullPointerException if {@code userIds} or one of them is null
     */
    public Builder mentions(List<String> userIds) {
      if (userIds == null) throw new NullPointerException("userIds == null");
      if (userIds.isEmpty()) {
        this.mentions = Collections.emptyList();
        return this;
      }
      List<String> copy = new ArrayList<>(userIds.size());
      for (String u : userIds) {
        if (u == null) throw new NullPointerException("userId == null");
        copy.add(u);
      }
      this.mentions = Collections.unmodifiableList(copy);
      return this;
    }

    /**
     * Returns the links.
     *
     * @return new immutable links, or {@link #none()} when none is set
     */
    public MessageLinks build() {
      if (replyToId == null && threadId == null && thread == null && mentions.isEmpty()) return NONE;
      return new MessageLinks(replyToId, threadId, thread, mentions);
    }
  }
}
