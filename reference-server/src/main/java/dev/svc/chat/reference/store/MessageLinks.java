package dev.svc.chat.reference.store;

import java.util.List;

/**
 * What a new message points at (contract section 10), checked by the service before the store gets it.
 *
 * @param replyToId the message of the same room it answers, or null
 * @param threadId the root of the same room it is a reply to, or null
 * @param mentions the distinct members it mentions (empty when none)
 */
public record MessageLinks(String replyToId, String threadId, List<String> mentions) {

    /** A message that answers none, is in no thread and mentions nobody. */
    public static final MessageLinks NONE = new MessageLinks(null, null, List.of());

    /** Copies the mentions. */
    public MessageLinks {
        mentions = mentions == null ? List.of() : List.copyOf(mentions);
    }
}
