package dev.svc.chat.reference.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable chat message as the contract's Message shape.
 *
 * @param id the message's UUID
 * @param roomId the room it belongs to
 * @param seq its per-room sequence number, from 1 without holes
 * @param rev the room revision of its latest change (send, edit, reaction toggle or delete)
 * @param senderId the author's userId
 * @param parts the parts as the client sent them (never mutated after storing)
 * @param clientMessageId the sender's idempotency key
 * @param createdAt when it was stored
 * @param editedAt when it was last edited, or null
 * @param deletedAt when it was deleted, or null
 * @param reactions emoji to the userIds that reacted with it; always present, empty when none
 * @param replyToId the message of the same room this one answers (quotes), or null (written as null)
 * @param threadId the root of the thread this message is a reply in, or null (written as null)
 * @param mentions the distinct members it mentions, in the sender's order; always present, empty when none
 * @param thread the summary of its replies once it is a root that had one, else null (then not written)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Message(String id, String roomId, long seq, long rev, String senderId, List<JsonNode> parts,
                      String clientMessageId, Instant createdAt, Instant editedAt, Instant deletedAt,
                      Map<String, List<String>> reactions,
                      @JsonInclude(JsonInclude.Include.ALWAYS) String replyToId,
                      @JsonInclude(JsonInclude.Include.ALWAYS) String threadId,
                      List<String> mentions, ThreadSummary thread) {

    /** Copies the collections so that the snapshot is immutable; reactions keep their order. */
    public Message {
        parts = List.copyOf(parts);
        reactions = immutableReactions(reactions);
        mentions = mentions == null || mentions.isEmpty() ? List.of() : List.copyOf(mentions);
    }

    /** Creates a message that answers none, is in no thread, mentions nobody and had no reply. */
    public Message(String id, String roomId, long seq, long rev, String senderId, List<JsonNode> parts,
                   String clientMessageId, Instant createdAt, Instant editedAt, Instant deletedAt,
                   Map<String, List<String>> reactions) {
        this(id, roomId, seq, rev, senderId, parts, clientMessageId, createdAt, editedAt, deletedAt, reactions,
                null, null, List.of(), null);
    }

    /** Returns this message with {@code rev} as its revision; the store assigns it with the change. */
    public Message withRev(long rev) {
        return new Message(id, roomId, seq, rev, senderId, parts, clientMessageId, createdAt, editedAt, deletedAt,
                reactions, replyToId, threadId, mentions, thread);
    }

    /** Returns this message with {@code thread} as its replies' summary; the store keeps it with the root. */
    public Message withThread(ThreadSummary thread) {
        return new Message(id, roomId, seq, rev, senderId, parts, clientMessageId, createdAt, editedAt, deletedAt,
                reactions, replyToId, threadId, mentions, thread);
    }

    /** Returns this message with new content (parts, mentions, {@code editedAt}), its links and reactions kept. */
    public Message edited(List<JsonNode> parts, List<String> mentions, Instant editedAt) {
        return new Message(id, roomId, seq, rev, senderId, parts, clientMessageId, createdAt, editedAt, deletedAt,
                reactions, replyToId, threadId, mentions, thread);
    }

    /**
     * Returns this message deleted at {@code at}: parts, reactions and mentions emptied; its place (replyToId,
     * threadId) and a root's summary stay, so a thread keeps its tombstones and its count.
     */
    public Message deleted(Instant at) {
        return new Message(id, roomId, seq, rev, senderId, List.of(), clientMessageId, createdAt, editedAt, at,
                Map.of(), replyToId, threadId, List.of(), thread);
    }

    /** Returns this message with {@code reactions}, the rest kept. */
    public Message withReactions(Map<String, List<String>> reactions) {
        return new Message(id, roomId, seq, rev, senderId, parts, clientMessageId, createdAt, editedAt, deletedAt,
                reactions, replyToId, threadId, mentions, thread);
    }

    private static Map<String, List<String>> immutableReactions(Map<String, List<String>> reactions) {
        // Most messages have none: they share the empty map instead of keeping a map and its wrapper each.
        if (reactions.isEmpty()) {
            return Map.of();
        }
        // Insertion order is kept (the emoji reacted with first comes first on the wire).
        Map<String, List<String>> copy = new LinkedHashMap<>();
        reactions.forEach((emoji, users) -> copy.put(emoji, List.copyOf(users)));
        return Collections.unmodifiableMap(copy);
    }
}
