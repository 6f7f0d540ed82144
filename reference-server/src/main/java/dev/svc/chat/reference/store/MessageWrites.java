package dev.svc.chat.reference.store;

import dev.svc.chat.reference.model.Message;

/**
 * Told of every message a store wrote (a new one, an edit, a reaction, a delete), after the write is
 * committed and before the store's method returns, so that what follows the write (its answer, its event)
 * never comes before it. The search index is kept current this way.
 */
@FunctionalInterface
public interface MessageWrites {

    /** Tells nothing to nobody. */
    MessageWrites NONE = (tenantId, message) -> {
    };

    /** Takes the message's state after a write, in its tenant. */
    void written(String tenantId, Message message);
}
