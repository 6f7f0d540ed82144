package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.store.ChangeResult;
import dev.svc.chat.reference.store.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What happens to a message after it was sent: edit, soft delete, reactions, and read receipts. Each change
 * is made and published under the room's lock of {@link ChatService}, so every connection sees a room's
 * events in the order they happened. Check order: room 404, message 404, membership 403, author 403,
 * deleted 409.
 */
public final class MessageActions {

    /** The realtime event of an edited, reacted-to or deleted message. */
    public static final String MESSAGE_UPDATED = "message-updated";
    /** The realtime event of a read receipt that moved. */
    public static final String ROOM_READ = "room-read";

    private final Store store;
    private final ChatService service;
    private final EventPublisher publisher;
    private final PresenceDirectory presence;

    /** Creates the actions over the store and service, publishing to {@code publisher}. */
    public MessageActions(Store store, ChatService service, EventPublisher publisher, PresenceDirectory presence) {
        this.store = store;
        this.service = service;
        this.publisher = publisher;
        this.presence = presence;
    }

    /**
     * Replaces the parts of the principal's own message and sets {@code editedAt}. Parts equal to the current
     * ones change nothing and publish nothing (so a retried edit is harmless).
     */
    public Message update(Principal principal, String roomId, String messageId, List<JsonNode> parts) {
        return update(principal, roomId, messageId, parts, null);
    }

    /**
     * Replaces the parts of the principal's own message, and its mentions unless {@code mentions} is null (each
     * a member of the room, else 400), and sets {@code editedAt}. An edit that changes nothing publishes
     * nothing. Editing a thread reply leaves its root as it is.
     */
    public Message update(Principal principal, String roomId, String messageId, List<JsonNode> parts,
                          List<String> mentions) {
        boolean files = FileParts.anyFile(parts);
        List<JsonNode> stored = files ? service.files().resolveStored(principal, parts) : parts;
        Message edited = change(principal, roomId, messageId, true, "edit", current -> {
            List<String> nextMentions = mentions == null ? current.mentions() : mentions;
            if (current.parts().equals(stored) && current.mentions().equals(nextMentions)) {
                return current;
            }
            if (mentions != null) {
                ThreadRules.requireMembers(service.room(principal.tenantId(), roomId), mentions);
            }
            return current.edited(stored, nextMentions, service.now());
        });
        if (files) {
            service.files().referenced(principal.tenantId(), edited);
        }
        return edited;
    }

    /** Returns one message of a room the principal is a member of (room 404, message 404, member 403). */
    public Message message(Principal principal, String roomId, String messageId) {
        Room room = service.room(principal.tenantId(), roomId);
        return existing(principal, room, messageId, false);
    }

    /**
     * Soft-deletes the principal's own message: {@code deletedAt} set, parts and reactions emptied. Deleting a
     * deleted message answers it again and publishes nothing.
     */
    public Message delete(Principal principal, String roomId, String messageId) {
        String tenantId = principal.tenantId();
        Room room = service.room(tenantId, roomId);
        synchronized (service.lock(tenantId, roomId)) {
            Message current = existing(principal, room, messageId, true);
            if (current.deletedAt() != null) {
                return current;
            }
            return store(tenantId, current.deleted(service.now()));
        }
    }

    /** Adds the principal to {@code reactions[emoji]}, or removes them if there; empty lists are dropped. */
    public Message toggleReaction(Principal principal, String roomId, String messageId, String emoji) {
        return change(principal, roomId, messageId, false, "react to", current -> {
            Map<String, List<String>> reactions = new LinkedHashMap<>(current.reactions());
            List<String> users = new ArrayList<>(reactions.getOrDefault(emoji, List.of()));
            if (!users.remove(principal.userId())) {
                users.add(principal.userId());
            }
            if (users.isEmpty()) {
                reactions.remove(emoji);
            } else {
                reactions.put(emoji, users);
            }
            if (reactions.size() > Inputs.MAX_REACTIONS_PER_MESSAGE) {
                throw ApiException.badRequest("A message has at most " + Inputs.MAX_REACTIONS_PER_MESSAGE
                        + " different reactions");
            }
            return current.withReactions(reactions);
        });
    }

    /**
     * Moves the principal's receipt of the room to {@code messageId}. A message at or below the current
     * receipt answers the current receipt and publishes nothing: receipts never move backwards.
     */
    public Receipt markRead(Principal principal, String roomId, String messageId) {
        String tenantId = principal.tenantId();
        Room room = service.room(tenantId, roomId);
        synchronized (service.lock(tenantId, roomId)) {
            Message message = existing(principal, room, messageId, false);
            Optional<Receipt> current = store.receipt(tenantId, roomId, principal.userId());
            if (current.isPresent() && current.get().seq() >= message.seq()) {
                return current.get();
            }
            Receipt receipt = new Receipt(roomId, principal.userId(), message.id(), message.seq(), service.now());
            store.putReceipt(tenantId, receipt);
            publisher.toRoomMembers(tenantId, service.room(tenantId, roomId), ROOM_READ, receipt);
            return receipt;
        }
    }

    /** Returns the current receipt of every member of a room the principal is a member of who has one. */
    public List<Receipt> receipts(Principal principal, String roomId) {
        Room room = service.room(principal.tenantId(), roomId);
        ChatService.requireMember(principal, room);
        return store.receipts(principal.tenantId(), roomId);
    }

    /** Returns the online users of the principal's tenant. */
    public List<String> onlineUsers(Principal principal) {
        return presence.onlineUsers(principal.tenantId());
    }

    private interface Change {
        Message apply(Message current);
    }

    private Message change(Principal principal, String roomId, String messageId, boolean authorOnly,
                           String verb, Change change) {
        String tenantId = principal.tenantId();
        Room room = service.room(tenantId, roomId);
        synchronized (service.lock(tenantId, roomId)) {
            Message current = existing(principal, room, messageId, authorOnly);
            if (current.deletedAt() != null) {
                throw ApiException.conflict("Cannot " + verb + " a deleted message");
            }
            Message next = change.apply(current);
            return next == current ? current : store(tenantId, next);
        }
    }

    /**
     * Stores the change, which takes the room's next rev in the store, and publishes the stored version; then the
     * thread root the change recounted (a reply's delete), which took the rev after it.
     */
    private Message store(String tenantId, Message next) {
        ChangeResult result = store.changeMessage(tenantId, next);
        Room room = service.room(tenantId, next.roomId());
        publisher.toRoomMembers(tenantId, room, MESSAGE_UPDATED, result.message());
        if (result.root() != null) {
            publisher.toRoomMembers(tenantId, room, MESSAGE_UPDATED, result.root());
        }
        return result.message();
    }

    /** Returns the message after the checks that follow the room's existence: 404, member 403, author 403. */
    private Message existing(Principal principal, Room room, String messageId, boolean authorOnly) {
        Message message = Inputs.isServerId(messageId)
                ? store.message(principal.tenantId(), room.id(), messageId).orElse(null) : null;
        if (message == null) {
            throw ApiException.notFound("Message not found");
        }
        // The room is read again under the lock: a member removed a moment ago may no longer act.
        if (!service.room(principal.tenantId(), room.id()).hasMember(principal.userId())) {
            throw ApiException.forbidden("Not a member of this room");
        }
        if (authorOnly && !message.senderId().equals(principal.userId())) {
            throw ApiException.forbidden("Only the author may change this message");
        }
        return message;
    }

    /** Throws 404 unless the tenant has the room (the existence check that comes before permission). */
    public void requireRoom(String tenantId, String roomId) {
        store.room(tenantId, roomId).orElseThrow(ChatService::roomNotFound);
    }
}
