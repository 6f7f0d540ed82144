package dev.svc.chat.reference.model;

/**
 * Where one of a user's rooms stands when a connection's CONNECT answer is made: {@code {id, seq, rev}}
 * (contract section 8). Every message with a higher {@code seq} and every change with a higher {@code rev}
 * is delivered on that connection.
 *
 * @param id the room's UUID
 * @param seq the seq of the room's newest message, 0 when there is none
 * @param rev the room's latest revision, 0 before any message
 */
public record RoomPosition(String id, long seq, long rev) {
}
