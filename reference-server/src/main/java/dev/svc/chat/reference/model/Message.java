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
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Message(String id, String roomId, long seq, long rev, String senderId, List<JsonNode> parts,
                      String clientMessageId, Instant createdAt, Instant editedAt, Instant deletedAt,
                      Map<String, List<String>> reactions) {

    /** Copies the collections so that the snapshot is immutable; reactions keep their order. */
    public Message {
        parts = List.copyOf(parts);
        reactions = immutableReactions(reactions);
    }

    /** Returns this message with {@code rev} as its revision; the store assigns it with the change. */
    public Message withRev(long rev) {
        return new Message(id, roomId, seq, rev, senderId, parts, clientMessageId, createdAt, editedAt, deletedAt,
                reactions);
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
