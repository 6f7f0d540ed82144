package dev.svc.chat.reference.cluster;

import java.sql.SQLException;

/**
 * Faults of the event bus that tests inject to reproduce its gaps deterministically: a NOTIFY that fails or
 * waits, a queue that is full at once, a listening connection that stays lost until the test lets it listen
 * again. A server uses {@link #NONE}.
 */
public interface BusFaults {

    /** No faults. */
    BusFaults NONE = new BusFaults() {
    };

    /** Returns how many notifications may wait to be sent (a test makes it small). */
    default int queueCapacity() {
        return BusSender.CAPACITY;
    }

    /** Invoked before each attempt to send a notification (may block); an exception makes that attempt fail. */
    default void beforeNotify() throws SQLException {
    }

    /** Invoked on the listening thread after its connection was lost, before it listens again (may block). */
    default void beforeRelisten() {
    }

    /** Invoked on the listening thread each time it began to listen again, before it reads notifications. */
    default void relistened() {
    }
}
