package dev.svc.chat.reference.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * An immutable snapshot of a room: {@code {id, name?, memberIds, createdAt, lastMessageSeq, lastMessageAt?, rev}}.
 *
 * @param id the room's UUID
 * @param name the room's name, or null
 * @param memberIds the members in the order they were added (unmodifiable)
 * @param createdAt when the room was created
 * @param lastMessageSeq the seq of the newest message, 0 when there is none
 * @param lastMessageAt when the newest message was sent, or null when there is none
 * @param rev the room's latest revision (every send, edit, reaction toggle and delete takes the next one),
 *     0 before any message
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Room(String id, String name, List<String> memberIds, Instant createdAt, long lastMessageSeq,
                   Instant lastMessageAt, long rev) {

    /** Copies the member list so that a snapshot never changes after it was taken. */
    public Room {
        memberIds = List.copyOf(memberIds);
    }

    /** Returns whether {@code userId} is a member of this room. */
    public boolean hasMember(String userId) {
        return memberIds.contains(userId);
    }

    /** Returns the instant that orders rooms by recent activity: the last message, else the creation. */
    public Instant activityAt() {
        return lastMessageAt != null ? lastMessageAt : createdAt;
    }
}
