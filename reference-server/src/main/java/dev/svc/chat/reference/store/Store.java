package dev.svc.chat.reference.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.model.ChangesPage;
import dev.svc.chat.reference.model.DeviceToken;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.MessagePage;
import dev.svc.chat.reference.model.PushRecord;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.RoomPosition;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.model.User;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The server's state: tenants, users, rooms and messages, receipts, calls, device tokens, the push outbox,
 * settings and pending webhooks. Every method is safe under concurrent calls and each one is atomic on its
 * own (one transaction in the SQL backends, so also across servers sharing a database); callers that need
 * several steps to be atomic on one server (seq order of fan-out, membership limits) hold the service's
 * per-room lock around them. Data of one tenant is never visible through another tenant's id.
 *
 * <p>Every change to a room's messages (append, replace) takes the room's next revision ({@code rev}, from 1
 * without holes) in the same atomic step as the change itself, so that a rev is never seen without its change
 * and {@link #changes} never misses one. A backend with transactions assigns it in the change's transaction.
 */
public interface Store extends AutoCloseable {

    /** Stores a new tenant with the given settings. */
    void createTenant(TenantRecord tenant, TenantSettings settings);

    /** Replaces the API key of an existing tenant (a restart with another configured key). */
    void updateApiKey(String tenantId, String apiKey);

    /** Returns the tenant whose API key is {@code apiKey}. */
    Optional<TenantRecord> tenantByApiKey(String apiKey);

    /** Returns the tenant with id {@code tenantId}. */
    Optional<TenantRecord> tenant(String tenantId);

    /** Returns the settings of an existing tenant. */
    TenantSettings settings(String tenantId);

    /** Atomically replaces the settings of an existing tenant with {@code change} applied, and returns them. */
    TenantSettings updateSettings(String tenantId, UnaryOperator<TenantSettings> change);

    /**
     * Creates or updates a user. A null {@code username} keeps the stored one; {@code updatedAt} moves only
     * when something changed.
     */
    User upsertUser(String tenantId, String userId, String username, Instant now);

    /** Returns the user, creating it without a username if it does not exist. */
    User ensureUser(String tenantId, String userId, Instant now);

    /** Returns the user with that id. */
    Optional<User> user(String tenantId, String userId);

    /** Creates a room with a fresh UUID; members are expected to be users already. */
    Room createRoom(String tenantId, String name, Collection<String> memberIds, Instant now);

    /** Returns the room with that id. */
    Optional<Room> room(String tenantId, String roomId);

    /** Returns every user of the tenant, ordered by userId (the dev API: a developer's own data). */
    List<User> users(String tenantId);

    /** Returns every room of the tenant, oldest first (the dev API). */
    List<Room> rooms(String tenantId);

    /**
     * Creates a room with the given id (a server id, {@code Inputs.isServerId}) unless the tenant has it, then
     * adds the members it lacks; returns the room (an import or seed, run again, changes nothing).
     */
    Room importRoom(String tenantId, String roomId, String name, Collection<String> memberIds, Instant createdAt);

    /** Adds members (ignoring present ones) and returns the room, or empty if there is no such room. */
    Optional<Room> addMembers(String tenantId, String roomId, Collection<String> userIds);

    /** Removes a member (if present) and returns the room, or empty if there is no such room. */
    Optional<Room> removeMember(String tenantId, String roomId, String userId);

    /** Returns the rooms the user is a member of, in no particular order. */
    List<Room> roomsOf(String tenantId, String userId);

    /**
     * Returns where each room the user is a member of stands (its newest seq and its rev), in no particular
     * order, without the rooms' members: one query in the SQL backends however many rooms the user has. Each
     * room's position includes every change committed before it was read.
     */
    List<RoomPosition> positionsOf(String tenantId, String userId);

    /** Returns the message stored for that idempotency key, if any. */
    Optional<Message> messageByClientId(String tenantId, String roomId, String senderId, String clientMessageId);

    /**
     * Appends a message with the next seq and the room's next rev unless (room, sender, clientMessageId) is
     * already stored, in which case the first message (in its current state) is returned with {@code created}
     * false and no rev is taken. The room must exist.
     */
    default AppendResult appendMessage(String tenantId, String roomId, String senderId, String clientMessageId,
                                       List<JsonNode> parts, Instant now) {
        return appendMessage(tenantId, roomId, senderId, clientMessageId, parts, MessageLinks.NONE, now);
    }

    /**
     * Appends a message as {@link #appendMessage(String, String, String, String, List, Instant)} with its links.
     * A reply in a thread ({@code links.threadId()}) changes its root in the same atomic step: the root takes
     * the rev after the reply's with its summary recomputed, and comes back as {@link AppendResult#root()}. A
     * root that is deleted, a reply itself, or not in the room throws {@link ClosedThreadException} and stores
     * nothing.
     */
    AppendResult appendMessage(String tenantId, String roomId, String senderId, String clientMessageId,
                               List<JsonNode> parts, MessageLinks links, Instant now);

    /** Returns one page of the room's history; the room must exist. */
    MessagePage messages(String tenantId, String roomId, PageRequest page);

    /**
     * Returns one page of a thread's replies (ascending seq, deleted ones as tombstones) when {@code threadId}
     * is given, else of the messages that are no thread reply; paged by seq as
     * {@link #messages(String, String, PageRequest)}. The room must exist; the root is not checked here.
     */
    MessagePage messages(String tenantId, String roomId, PageRequest page, String threadId);

    /** Returns the message with that id in that room; the room must exist. */
    Optional<Message> message(String tenantId, String roomId, String messageId);

    /**
     * Replaces a stored message (same id and seq) with {@code updated} carrying the room's next rev (the rev
     * of {@code updated} is ignored), so that history, changes and idempotent repeats of its send answer the
     * new version; returns the stored message. The room and the message must exist.
     */
    Message replaceMessage(String tenantId, Message updated);

    /**
     * Replaces a message as {@link #replaceMessage}; the store keeps a root's summary as it has it (whatever
     * {@code updated} carries). Deleting a thread reply changes its root in the same atomic step: the root takes
     * the rev after the reply's with its summary recomputed, and comes back as {@link ChangeResult#root()}.
     */
    ChangeResult changeMessage(String tenantId, Message updated);

    /**
     * Returns the messages of the room whose rev is above {@code since}, each once in its latest state, in
     * ascending rev, at most {@code limit} of them, with the room's rev at the time of reading; the room must
     * exist.
     */
    ChangesPage changes(String tenantId, String roomId, long since, int limit);

    /** Returns the user's read receipt of the room, if any; the room must exist. */
    Optional<Receipt> receipt(String tenantId, String roomId, String userId);

    /** Stores a read receipt, replacing the user's previous one of that room; the room must exist. */
    void putReceipt(String tenantId, Receipt receipt);

    /**
     * Returns the receipts of the room's current members who have one, in the order of the room's members;
     * the room must exist.
     */
    List<Receipt> receipts(String tenantId, String roomId);

    /** Registers a device token for its user; a token registered by another user of the tenant moves to this one. */
    void putDeviceToken(String tenantId, DeviceToken device);

    /** Forgets a device token if it belongs to {@code userId}; returns whether it did. */
    boolean removeDeviceToken(String tenantId, String userId, String token);

    /** Returns the device tokens of these users, in no particular order (one read for a whole room). */
    List<DeviceToken> deviceTokens(String tenantId, Collection<String> userIds);

    /** Appends push records to the tenant's outbox, keeping the latest {@code keep} records. */
    void appendPushes(String tenantId, List<PushRecord> records, int keep);

    /** Returns the tenant's push records, oldest first, only those to {@code userId} unless it is null. */
    List<PushRecord> pushes(String tenantId, String userId);

    /** Empties the tenant's push outbox. */
    void clearPushes(String tenantId);

    /**
     * Stores a new live call unless its room has a live call already; returns whether it was stored. The
     * check and the insert are one atomic step (a unique key in the SQL backends).
     */
    boolean insertCall(String tenantId, CallState call);

    /**
     * Replaces a stored call with {@code next} (same id) if it is still {@code expected}, atomically, and
     * returns whether it did; a call that is no longer live frees its room. Servers sharing a database move a
     * call this way, so that no move is computed from a state another server has already changed.
     */
    boolean replaceCall(String tenantId, CallState expected, CallState next);

    /** Returns the call with that id. */
    Optional<CallState> call(String tenantId, String callId);

    /** Returns the room's ringing or active call, if any (one that has run out of ringing time included). */
    Optional<CallState> liveCall(String tenantId, String roomId);

    /** Stores a pending webhook delivery, replacing the one with the same id. */
    void putWebhook(PendingWebhook delivery);

    /** Forgets a pending webhook delivery (delivered or given up). */
    void removeWebhook(String id);

    /** Returns every pending webhook delivery, of every tenant, earliest due first. */
    List<PendingWebhook> pendingWebhooks();

    /** Releases what the store holds (connections, files); the in-memory store holds nothing. */
    @Override
    default void close() {
    }
}
