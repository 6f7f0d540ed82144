package dev.svc.chat.reference.store;

/**
 * Thrown by {@link Store#appendMessage(String, String, String, String, java.util.List, MessageLinks,
 * java.time.Instant)} when the thread's root is not (or no longer) one that takes replies: deleted, itself a
 * reply, or not in the room. The service checks this first; the store checks it again in the append's own
 * atomic step, for servers sharing a database.
 */
public final class ClosedThreadException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Whether the root exists but was deleted (409) rather than being no root of the room (400). */
    private final boolean deleted;

    /** Creates the exception; {@code deleted} tells a deleted root from one that is not a root of the room. */
    public ClosedThreadException(String message, boolean deleted) {
        super(message);
        this.deleted = deleted;
    }

    /** Returns whether the root was deleted (rather than not being a root of the room). */
    public boolean deleted() {
        return deleted;
    }
}
