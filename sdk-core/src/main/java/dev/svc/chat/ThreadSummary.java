package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The summary a thread's root message carries ({@link Message#thread()}): how many of its replies are not
 * deleted, when the newest of them was sent, and who sent them. The service changes it, and the root's revision,
 * with every reply sent or deleted, so a root recovered by {@link ChatClient#getChanges} carries the exact summary.
 */
public final class ThreadSummary {
  /** The most participants a summary names. */
  public static final int MAX_PARTICIPANTS = 10;

  private static final ThreadSummary EMPTY = new ThreadSummary(0, null, Collections.<String>emptyList());

  private final int replyCount;
  private final @Nullable Long lastReplyAt;
  private final List<String> participantIds;

  private ThreadSummary(int replyCount, @Nullable Long lastReplyAt, List<String> participantIds) {
    this.replyCount = replyCount;
    this.lastReplyAt = lastReplyAt;
    this.participantIds = participantIds;
  }

  /**
   * Returns a summary.
   *
   * @param replyCount the replies not deleted, at least 0
   * @param lastReplyAt the newest remaining reply's creation time in epoch milliseconds, or null when none remains
   * @param participantIds the distinct senders of the remaining replies, most recent first, none null
   * @return the summary
   * @throws IllegalArgumentException if {@code replyCount} is negative
   */
  public static ThreadSummary of(int replyCount, @Nullable Long lastReplyAt, List<String> participantIds) {
    if (replyCount < 0) throw new IllegalArgumentException("replyCount < 0: " + replyCount);
    if (participantIds == null) throw new NullPointerException("participantIds == null");
    if (replyCount == 0 && lastReplyAt == null && participantIds.isEmpty()) return EMPTY;
    List<String> copy = new ArrayList<>(participantIds.size());
    for (String p : participantIds) {
      if (p == null) throw new NullPointerException("participantId == null");
      copy.add(p);
    }
    return new ThreadSummary(replyCount, lastReplyAt, Collections.unmodifiableList(copy));
  }

  /**
   * Returns the number of replies that are not deleted.
   *
   * @return the count, at least 0
   */
  public int replyCount() {
    return replyCount;
  }

  /**
   * Returns the creation time of the newest reply that is not deleted, in epoch milliseconds.
   *
   * @return the time, or null when no reply remains
   */
  public @Nullable Long lastReplyAt() {
    return lastReplyAt;
  }

  /**
   * Returns the distinct senders of the replies that are not deleted, most recent first, at most
   * {@value #MAX_PARTICIPANTS}.
   *
   * @return an unmodifiable list of user ids
   */
  public List<String> participantIds() {
    return participantIds;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof ThreadSummary)) return false;
    ThreadSummary t = (ThreadSummary) o;
    return replyCount == t.replyCount && (lastReplyAt == null ? t.lastReplyAt == null : lastReplyAt.equals(t.lastReplyAt))
        && participantIds.equals(t.participantIds);
  }

  @Override
  public int hashCode() {
    int h = replyCount;
    h = 31 * h + (lastReplyAt == null ? 0 : lastReplyAt.hashCode());
    return 31 * h + participantIds.hashCode();
  }

  @Override
  public String toString() {
    return "ThreadSummary{replyCount=" + replyCount + ", lastReplyAt=" + lastReplyAt + ", participantIds="
        + participantIds + "}";
  }
}
