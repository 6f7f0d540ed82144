package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a room's history, as answered by {@link ChatClient#getMessages(String, MessageQuery)}.
 * Messages are in ascending {@code seq} order (chronological).
 */
public final class MessagePage {
  private final List<Message> messages;
  private final boolean hasMore;
  private final boolean fromStore;

  /**
   * Creates a page answered by the service.
   *
   * @param messages the messages in ascending seq order, none null
   * @param hasMore whether more messages lie beyond the page in the direction asked
   */
  public MessagePage(List<Message> messages, boolean hasMore) {
    this(messages, hasMore, false);
  }

  /**
   * Creates a page.
   *
   * @param messages the messages in ascending seq order, none null
   * @param hasMore whether more messages lie beyond the page in the direction asked
   * @param fromStore whether the page was answered by the client's offline store instead of the service
   */
  public MessagePage(List<Message> messages, boolean hasMore, boolean fromStore) {
    if (messages == null) throw new NullPointerException("messages == null");
    List<Message> copy = new ArrayList<>(messages.size());
    for (Message m : messages) {
      if (m == null) throw new NullPointerException("message == null");
      copy.add(m);
    }
    this.messages = Collections.unmodifiableList(copy);
    this.hasMore = hasMore;
    this.fromStore = fromStore;
  }

  /**
   * Returns the messages in ascending {@code seq} order.
   *
   * @return an unmodifiable list
   */
  public List<Message> messages() {
    return messages;
  }

  /**
   * Returns whether more messages lie beyond this page in the direction asked: older ones for
   * {@link MessageQuery#latest(int)} and {@link MessageQuery#before(long, int)}, newer ones for
   * {@link MessageQuery#after(long, int)}.
   *
   * @return true if another page exists
   */
  public boolean hasMore() {
    return hasMore;
  }

  /**
   * Returns whether the page was answered by the client's offline store ({@link SvcOptions.Builder#store}),
   * which held every message of it, rather than by the service. A page from the store holds each message in
   * the latest revision the client received; changes made since it last synced arrive as events.
   *
   * @return true when answered by the store
   */
  public boolean fromStore() {
    return fromStore;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof MessagePage)) return false;
    MessagePage p = (MessagePage) o;
    return hasMore == p.hasMore && fromStore == p.fromStore && messages.equals(p.messages);
  }

  @Override
  public int hashCode() {
    return 31 * messages.hashCode() + (hasMore ? 1 : 0) + (fromStore ? 2 : 0);
  }

  @Override
  public String toString() {
    return "MessagePage{messages=" + messages + ", hasMore=" + hasMore + (fromStore ? ", fromStore" : "") + "}";
  }
}
