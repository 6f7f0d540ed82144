package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.store.ClosedThreadException;
import dev.svc.chat.reference.store.MessageLinks;
import dev.svc.chat.reference.store.Store;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The checks of contract section 10: the syntax of {@code replyToId}, {@code threadId} and {@code mentions}
 * (read with the body, before anything else), then what they name (after the room's existence and the
 * sender's membership): a message of the room, a root of the room that is not deleted, members of the room.
 */
public final class ThreadRules {

    /** The most distinct users a message mentions. */
    public static final int MAX_MENTIONS = 20;

    private ThreadRules() {
    }

    /** Returns an optional message id field (null when absent), or throws 400 for a value that is no string. */
    static String optionalId(JsonNode node, String field) {
        if (node == null) {
            return null;
        }
        if (!node.isTextual()) {
            throw ApiException.badRequest(field + " must be a string");
        }
        return node.textValue();
    }

    /**
     * Returns the mentions of a body (null when absent): an array of user ids, duplicates collapsed in their
     * first order, at most {@value #MAX_MENTIONS} distinct; else throws 400.
     */
    public static List<String> mentions(JsonNode node) {
        if (node == null) {
            return null;
        }
        if (!node.isArray()) {
            throw ApiException.badRequest("mentions must be an array of user ids");
        }
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (JsonNode element : node) {
            if (!element.isTextual()) {
                throw ApiException.badRequest("mentions must be an array of user ids");
            }
            distinct.add(Inputs.userId(element.textValue(), "mentions"));
            if (distinct.size() > MAX_MENTIONS) {
                throw ApiException.badRequest("mentions names at most " + MAX_MENTIONS + " users");
            }
        }
        return List.copyOf(distinct);
    }

    /** Throws 400 unless every mentioned user is a member of {@code room}. */
    static void requireMembers(Room room, List<String> mentions) {
        for (String userId : mentions) {
            if (!room.hasMember(userId)) {
                throw ApiException.badRequest("mentions must name members of the room: " + userId
                        + " is not one");
            }
        }
    }

    /**
     * Checks what a send's fields name in the room (400, or 409 for a deleted root) and returns its links; a send
     * without any reads nothing more (the room is read again only for its mentions).
     */
    static MessageLinks links(Store store, String tenantId, String roomId, SendInput input,
                              Supplier<Room> room) {
        List<String> mentions = input.mentions() == null ? List.of() : input.mentions();
        if (input.replyToId() == null && input.threadId() == null && mentions.isEmpty()) {
            return MessageLinks.NONE;
        }
        if (!mentions.isEmpty()) {
            requireMembers(room.get(), mentions);
        }
        if (input.replyToId() != null && find(store, tenantId, roomId, input.replyToId()).isEmpty()) {
            throw ApiException.badRequest("replyToId is not a message of this room");
        }
        if (input.threadId() != null) {
            Message root = root(store, tenantId, roomId, input.threadId());
            if (root.deletedAt() != null) {
                throw ApiException.conflict("The thread's root is deleted: it takes no new replies");
            }
        }
        return new MessageLinks(input.replyToId(), input.threadId(), mentions);
    }

    /** Returns the root message {@code threadId} of the room (deleted or not), or throws 400. */
    static Message root(Store store, String tenantId, String roomId, String threadId) {
        return find(store, tenantId, roomId, threadId).filter(m -> m.threadId() == null)
                .orElseThrow(() -> ApiException.badRequest("threadId is not a root message of this room"));
    }

    /** Maps the store's refusal of a root (a race with another server) to the contract's error. */
    static ApiException refused(ClosedThreadException e) {
        return e.deleted() ? ApiException.conflict("The thread's root is deleted: it takes no new replies")
                : ApiException.badRequest("threadId is not a root message of this room");
    }

    private static Optional<Message> find(Store store, String tenantId, String roomId, String messageId) {
        return Inputs.isServerId(messageId) ? store.message(tenantId, roomId, messageId) : Optional.empty();
    }
}
