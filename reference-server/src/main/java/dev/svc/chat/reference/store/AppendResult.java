package dev.svc.chat.reference.store;

import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;

/**
 * What appending a message did.
 *
 * @param message the stored message: the new one, or the first one with the same idempotency key
 * @param created whether this call stored it (false for a repeat)
 * @param room the room after the append
 * @param root the thread root a new reply changed (its summary, at the rev after the reply's), else null
 */
public record AppendResult(Message message, boolean created, Room room, Message root) {

    /** Creates the result of an append that changed no root. */
    public AppendResult(Message message, boolean created, Room room) {
        this(message, created, room, null);
    }
}
