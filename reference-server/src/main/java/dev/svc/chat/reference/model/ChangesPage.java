package dev.svc.chat.reference.model;

import java.util.List;

/**
 * One page of a room's changes: {@code {messages, rev, hasMore}}.
 *
 * @param messages the messages whose rev is above the asked one, each once in its latest state, ascending rev
 * @param rev the room's revision when the page was read
 * @param hasMore whether more changed messages lie beyond the page
 */
public record ChangesPage(List<Message> messages, long rev, boolean hasMore) {

    /** Copies the list so that the page is immutable. */
    public ChangesPage {
        messages = List.copyOf(messages);
    }
}
