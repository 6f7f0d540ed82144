package dev.svc.chat.reference.store;

import dev.svc.chat.reference.model.Message;

/**
 * What replacing a message did.
 *
 * @param message the stored message, with its new rev
 * @param root the thread root whose summary changed with it (a reply's delete), at the rev after it; else null
 */
public record ChangeResult(Message message, Message root) {
}
