package dev.svc.chat.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.svc.chat.MessagePart;
import org.jspecify.annotations.Nullable;

/**
 * A send of the outbox, stored until it ends (sent, refused or timed out). A store keys it by room and
 * {@code clientMessageId}, as the service's idempotency does within one user's sends.
 */
public final class StoredSend {
  private final String roomId;
  private final String clientMessageId;
  private final String senderId;
  private final List<MessagePart> parts;
  private final @Nullable String replyToId;
  private final @Nullable String threadId;
  private final List<String> mentions;
  private final long createdAt;
  private final long sequence;

  /**
   * Creates a stored send.
   *
   * @param roomId the room it goes to
   * @param clientMessageId its idempotency key, unique among the user's sends to {@code roomId} (the same id in
   *     another room is another send)
   * @param senderId the user who sent it
   * @param parts what it says
   * @param createdAt when the app made it, epoch milliseconds
   * @param sequence its order among the user's sends
   */
  public StoredSend(String roomId, String clientMessageId, String senderId, List<MessagePart> parts, long createdAt,
      long sequence) {
    this(roomId, clientMessageId, senderId, parts, null, null, Collections.<String>emptyList(), createdAt, sequence);
  }

  /**
   * Creates a stored send that answers a message, is a thread reply, or mentions members (contract section 10).
   *
   * @param roomId the room it goes to
   * @param clientMessageId its idempotency key within {@code roomId}
   * @param senderId the user who sent it
   * @param parts what it says
   * @param replyToId the message it answers, or null
   * @param threadId the root of the thread it is a reply in, or null
   * @param mentions the user ids it mentions, none null
   * @param createdAt when the app made it, epoch milliseconds
   * @param sequence its order among the user's sends
   */
  public StoredSend(String roomId, String clientMessageId, String senderId, List<MessagePart> parts,
      @Nullable String replyToId, @Nullable String threadId, List<String> mentions, long createdAt, long sequence) {
    if (mentions == null) throw new NullPointerException("mentions == null");
    for (String u : mentions) {
      if (u == null) throw new NullPointerException("mention == null");
    }
    this.replyToId = replyToId;
    this.threadId = threadId;
    this.mentions = mentions.isEmpty() ? Collections.<String>emptyList()
        : Collections.unmodifiableList(new ArrayList<>(mentions));
    if (roomId == null) throw new NullPointerException("roomId == null");
    if (clientMessageId == null) throw new NullPointerException("clientMessageId == null");
    if (senderId == null) throw new NullPointerException("senderId == null");
    if (parts == null) throw new NullPointerException("parts == null");
    this.roomId = roomId;
    this.clientMessageId = clientMessageId;
    this.senderId = senderId;
    this.parts = Collections.unmodifiableList(new ArrayList<>(parts));
    this.createdAt = createdAt;
    this.sequence = sequence;
  }

  /** @return the message it answers, or null */
  public @Nullable String replyToId() {
    return replyToId;
  }

  /** @return the root of the thread it is a reply in, or null */
  public @Nullable String threadId() {
    return threadId;
  }

  /** @return the user ids it mentions, unmodifiable, empty for none */
  public List<String> mentions() {
    return mentions;
  }

  /** @return the room it goes to */
  public String roomId() {
    return roomId;
  }

  /** @return its idempotency key within its room */
  public String clientMessageId() {
    return clientMessageId;
  }

  /** @return the user who sent it */
  public String senderId() {
    return senderId;
  }

  /** @return what it says, unmodifiable */
  public List<MessagePart> parts() {
    return parts;
  }

  /** @return when the app made it, epoch milliseconds */
  public long createdAt() {
    return createdAt;
  }

  /** @return its order among the user's sends: sends are loaded and retried in this order */
  public long sequence() {
    return sequence;
  }

  @Override
  public String toString() {
    return "StoredSend{" + clientMessageId + " to " + roomId + ", sequence=" + sequence + "}";
  }
}
