package dev.svc.chat.reference.model;

import java.util.List;

/**
 * One page of a room's history, in ascending seq.
 *
 * @param messages the messages of the page, oldest first
 * @param hasMore whether more messages lie beyond the page in the direction asked
 */
public record MessagePage(List<Message> messages, boolean hasMore) {

    /** Copies the list so that the page is immutable. */
    public MessagePage {
        messages = List.copyOf(messages);
    }
}
