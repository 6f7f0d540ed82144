package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a room's changes, as answered by {@link ChatClient#getChanges(String, long, int)}: the messages
 * that were sent, edited, reacted to or deleted after a revision, each once in its latest state, in ascending
 * {@link Message#rev()} order. This is how a client recovers the changes it missed while disconnected.
 */
public final class ChangesPage {
  private final List<Message> messages;
  private final long rev;
  private final boolean hasMore;

  /**
   * Creates a page.
   *
   * @param messages the changed messages in ascending rev order, none null
   * @param rev the room's revision when the service read the page, at least 0
   * @param hasMore whether more changed messages lie beyond the page
   */
  public ChangesPage(List<Message> messages, long rev, boolean hasMore) {
    if (messages == null) throw new NullPointerException("messages == null");
    if (rev < 0) throw new IllegalArgumentException("rev < 0: " + rev);
    List<Message> copy = new ArrayList<>(messages.size());
    for (Message m : messages) {
      if (m == null) throw new NullPointerException("message == null");
      copy.add(m);
    }
    this.messages = Collections.unmodifiableList(copy);
    this.rev = rev;
    this.hasMore = hasMore;
  }

  /**
   * Returns the changed messages, each once in its latest state (a deleted one with
   * {@link Message#isDeleted()}), in ascending {@link Message#rev()} order.
   *
   * @return an unmodifiable list
   */
  public List<Message> messages() {
    return messages;
  }

  /**
   * Returns the room's revision when the service read the page. When {@link #hasMore()} is false, a client
   * that applied this page is up to date with the room as of this revision.
   *
   * @return the room's revision, at least 0
   */
  public long rev() {
    return rev;
  }

  /**
   * Returns whether more changed messages lie beyond this page: ask again with {@code since} set to the
   * {@link Message#rev()} of this page's last message.
   *
   * @return true if another page exists
   */
  public boolean hasMore() {
    return hasMore;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof ChangesPage)) return false;
    ChangesPage p = (ChangesPage) o;
    return rev == p.rev && hasMore == p.hasMore && messages.equals(p.messages);
  }

  @Override
  public int hashCode() {
    int h = messages.hashCode();
    h = 31 * h + (int) (rev ^ (rev >>> 32));
    return 31 * h + (hasMore ? 1 : 0);
  }

  @Override
  public String toString() {
    return "ChangesPage{messages=" + messages + ", rev=" + rev + ", hasMore=" + hasMore + "}";
  }
}
