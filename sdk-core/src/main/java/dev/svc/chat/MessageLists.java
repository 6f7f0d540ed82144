package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Pure functions that keep a room's message list right, like the JS SDK's {@code mergeMessagesById} and
 * {@code reconcileSelfSentMessage}. They never change their arguments and return a new unmodifiable list.
 *
 * <p>Rules of the returned list:
 * <ul>
 *   <li>Sent messages are ordered by {@link Message#seq()}, each id once.</li>
 *   <li>A <em>pending</em> (optimistic) message is one the app shows before the service answered: it has
 *       {@code seq} 0 (the service numbers from 1) and its {@code id} is its {@code clientMessageId}; make
 *       one with {@link #pendingMessage}. Pending messages come after every sent one, in the order they were
 *       added. The service's version of it (same {@code senderId} and {@code clientMessageId}) replaces it,
 *       whether that arrives as the live {@code new-message} echo or as the answer of
 *       {@link ChatClient#sendMessage}, in either order.</li>
 *   <li>When two versions of one message meet, the newer one stays: the higher {@code rev} when both carry
 *       one; without revisions (an older service), a deleted version is final, otherwise the later
 *       {@code editedAt} wins; a plain version (never edited, no reactions) never replaces an
 *       existing one, so an update that arrived before its original is kept; otherwise (for example two
 *       reaction changes) the one merged last wins, which is arrival order.</li>
 * </ul>
 */
public final class MessageLists {
  private static final Comparator<Message> BY_SEQ = new Comparator<Message>() {
    @Override
    public int compare(Message a, Message b) {
      // seq 0 (pending) sorts last; the sort is stable, so pending messages keep their order
      long sa = a.seq() == 0 ? Long.MAX_VALUE : a.seq();
      long sb = b.seq() == 0 ? Long.MAX_VALUE : b.seq();
      return sa < sb ? -1 : (sa == sb ? 0 : 1);
    }
  };

  private MessageLists() {
  }

  /**
   * Returns an optimistic message to show while a send is in flight: {@code seq} 0, {@code id} equal to
   * {@code clientMessageId}. Send with the same {@code clientMessageId}, then merge the answer with
   * {@link #reconcileSelfSentMessage}.
   *
   * @param roomId the room
   * @param senderId the user sending (the client's user)
   * @param clientMessageId the id the send will use
   * @param parts the parts being sent
   * @param createdAt the local time of the send, in epoch milliseconds
   * @return a pending message
   */
  public static Message pendingMessage(String roomId, String senderId, String clientMessageId,
      List<MessagePart> parts, long createdAt) {
    return Message.builder().id(clientMessageId).roomId(roomId).seq(0).senderId(senderId)
        .clientMessageId(clientMessageId).parts(parts).createdAt(createdAt).build();
  }

  /**
   * Returns whether a message is pending: made locally and not yet answered by the service ({@code seq} 0).
   *
   * @param message the message
   * @return true for a pending message
   */
  public static boolean isPending(Message message) {
    return message.seq() == 0;
  }

  /**
   * Returns {@code current} with {@code incoming} merged in: new messages added in seq order, newer versions
   * replacing older ones, pending messages replaced by the service's version, nothing duplicated. Use it for
   * history pages, {@code new-message} and {@code message-updated} events alike.
   *
   * @param current the list shown now (any order; it is not changed)
   * @param incoming messages to merge, in arrival order
   * @return a new unmodifiable list
   */
  public static List<Message> mergeMessagesById(List<Message> current, Collection<Message> incoming) {
    if (current == null) throw new NullPointerException("current == null");
    if (incoming == null) throw new NullPointerException("incoming == null");
    Map<String, Message> byId = new LinkedHashMap<>();
    for (Message m : current) {
      if (m == null) throw new NullPointerException("current holds null");
      merge(byId, m);
    }
    for (Message m : incoming) {
      if (m == null) throw new NullPointerException("incoming holds null");
      merge(byId, m);
    }
    List<Message> result = new ArrayList<>(byId.values());
    Collections.sort(result, BY_SEQ);
    return Collections.unmodifiableList(result);
  }

  /**
   * Returns {@code current} with the service's answer to the user's own send merged in: the pending message
   * of the same {@code clientMessageId} is replaced; if the live echo already replaced it, nothing is
   * duplicated and the newer version stays.
   *
   * @param current the list shown now
   * @param serverMessage the message the service stored
   * @return a new unmodifiable list
   */
  public static List<Message> reconcileSelfSentMessage(List<Message> current, Message serverMessage) {
    if (serverMessage == null) throw new NullPointerException("serverMessage == null");
    return mergeMessagesById(current, Collections.singletonList(serverMessage));
  }

  private static void merge(Map<String, Message> byId, Message m) {
    if (isPending(m)) {
      // a pending message whose send already came back is stale
      if (!byId.containsKey(m.id()) && findSent(byId, m) == null) byId.put(m.id(), m);
      return;
    }
    Message pending = byId.get(m.clientMessageId());
    if (pending != null && isPending(pending) && pending.senderId().equals(m.senderId())) {
      byId.remove(m.clientMessageId());
    }
    Message existing = byId.get(m.id());
    if (existing == null || isNewer(m, existing)) byId.put(m.id(), m);
  }

  private static @Nullable Message findSent(Map<String, Message> byId, Message pending) {
    for (Message m : byId.values()) {
      if (!isPending(m) && m.clientMessageId().equals(pending.clientMessageId())
          && m.senderId().equals(pending.senderId())) {
        return m;
      }
    }
    return null;
  }

  /** Returns whether {@code candidate} should replace {@code existing}, two versions of one message. */
  static boolean isNewer(Message candidate, Message existing) {
    // both carry the room's revision (contract section 4): the higher one is the later state, exactly
    if (candidate.rev() > 0 && existing.rev() > 0) return candidate.rev() >= existing.rev();
    if (existing.isDeleted()) return false;
    if (candidate.isDeleted()) return true;
    long ce = candidate.editedAt() == null ? Long.MIN_VALUE : candidate.editedAt();
    long ee = existing.editedAt() == null ? Long.MIN_VALUE : existing.editedAt();
    // a later edit wins; with the same editedAt (a reaction change, or the same version again) the wire has
    // no version number, so the version merged last wins (the gateway sends a room's events in order)
    return ce >= ee;
  }
}
