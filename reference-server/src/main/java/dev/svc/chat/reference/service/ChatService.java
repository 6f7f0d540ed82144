package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.ChangesPage;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.MessagePage;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.model.User;
import dev.svc.chat.reference.store.AppendResult;
import dev.svc.chat.reference.store.ClosedThreadException;
import dev.svc.chat.reference.store.MessageLinks;
import dev.svc.chat.reference.store.PageRequest;
import dev.svc.chat.reference.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The chat rules shared by REST and the gateway: existence (404) before permission (403), membership,
 * idempotent sends, the send rate limit, and publishing events in seq order. Input syntax (400) is checked
 * by the callers before they get here.
 */
public final class ChatService {

    /** The realtime event of a new message. */
    public static final String NEW_MESSAGE = "new-message";

    private static final Comparator<Room> BY_RECENT_ACTIVITY =
            Comparator.comparing(Room::activityAt).thenComparing(Room::id).reversed();

    private final Store store;
    private final Clock clock;
    private final SendRateLimiter sendLimiter;
    private final EventPublisher publisher;
    private final TenantSettingsCache settingsCache;
    // Encodes a new message once for its event, its webhook and the sender's answer; null: each encodes it.
    private final Function<Object, String> encoder;
    private final FileParts files;
    // One monitor per room: appending and publishing under it makes every connection see seq order.
    private final Map<String, Object> roomLocks = new ConcurrentHashMap<>();

    /**
     * A stored send.
     *
     * @param message the message (the first one on a repeat)
     * @param created whether this call created it
     * @param json the message as the server's mapper encodes it, made once for its event and this answer;
     *     null on a repeat, or when the service has no encoder
     */
    public record SendResult(Message message, boolean created, String json) {
    }

    /** Creates the service over {@code store}, publishing realtime events to {@code publisher}. */
    public ChatService(Store store, Clock clock, SendRateLimiter sendLimiter, EventPublisher publisher) {
        this(store, clock, sendLimiter, publisher, null);
    }

    /** Creates the service; {@code settingsCache} (or null) is invalidated whenever settings are updated. */
    public ChatService(Store store, Clock clock, SendRateLimiter sendLimiter, EventPublisher publisher,
                       TenantSettingsCache settingsCache) {
        this(store, clock, sendLimiter, publisher, settingsCache, null);
    }

    /**
     * Creates the service; {@code encoder} (or null) encodes a new message as JSON once, with the server's
     * mapper: its event, its webhook and the sender's answer all carry that text.
     */
    public ChatService(Store store, Clock clock, SendRateLimiter sendLimiter, EventPublisher publisher,
                       TenantSettingsCache settingsCache, Function<Object, String> encoder) {
        this(store, clock, sendLimiter, publisher, settingsCache, encoder, FileParts.OPAQUE);
    }

    /** Creates the service; {@code files} fills in the {@code file} parts of sends and edits (section 9). */
    public ChatService(Store store, Clock clock, SendRateLimiter sendLimiter, EventPublisher publisher,
                       TenantSettingsCache settingsCache, Function<Object, String> encoder, FileParts files) {
        this.files = files;
        this.encoder = encoder;
        this.store = store;
        this.clock = clock;
        this.sendLimiter = sendLimiter;
        this.publisher = publisher;
        this.settingsCache = settingsCache;
    }

    /** Returns what fills in and records the {@code file} parts of messages. */
    public FileParts files() {
        return files;
    }

    /** Returns the current time at the contract's millisecond precision. */
    public Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /** Returns the tenant's settings. */
    public TenantSettings settings(String tenantId) {
        return store.settings(tenantId);
    }

    /** Applies {@code change} to the tenant's settings atomically and returns the result. */
    public TenantSettings updateSettings(String tenantId, UnaryOperator<TenantSettings> change) {
        TenantSettings updated = store.updateSettings(tenantId, change);
        if (settingsCache != null) {
            settingsCache.invalidate(tenantId);
        }
        return updated;
    }

    /**
     * Returns the user a token is about to be minted for: created (or renamed when {@code username} is
     * given) if the tenant auto-creates users, else it must exist ({@code 404 user_not_found}).
     */
    public User userForMint(String tenantId, String userId, String username) {
        if (store.settings(tenantId).autoCreateUsers()) {
            return store.upsertUser(tenantId, userId, username, now());
        }
        if (store.user(tenantId, userId).isEmpty()) {
            throw ApiException.userNotFound();
        }
        return store.upsertUser(tenantId, userId, username, now());
    }

    /** Creates or updates a user; a null username keeps the stored one. */
    public User upsertUser(String tenantId, String userId, String username) {
        return store.upsertUser(tenantId, userId, username, now());
    }

    /** Returns the user or throws 404. */
    public User user(String tenantId, String userId) {
        return store.user(tenantId, userId).orElseThrow(() -> ApiException.notFound("User not found"));
    }

    /** Creates a room; members that are not users yet become users. */
    public Room createRoom(String tenantId, String name, List<String> memberIds) {
        Instant now = now();
        LinkedHashSet<String> members = new LinkedHashSet<>(memberIds);
        for (String member : members) {
            store.ensureUser(tenantId, member, now);
        }
        return store.createRoom(tenantId, name, members, now);
    }

    /** Adds members to a room (404 if unknown, 400 past the member limit). */
    public Room addMembers(String tenantId, String roomId, List<String> userIds) {
        room(tenantId, roomId); // 404 before taking a lock, so unknown ids leave no lock behind
        synchronized (lock(tenantId, roomId)) {
            Room room = room(tenantId, roomId);
            LinkedHashSet<String> union = new LinkedHashSet<>(room.memberIds());
            union.addAll(userIds);
            if (union.size() > Inputs.MAX_ROOM_MEMBERS) {
                throw ApiException.badRequest("A room has at most " + Inputs.MAX_ROOM_MEMBERS + " members");
            }
            Instant now = now();
            for (String userId : userIds) {
                store.ensureUser(tenantId, userId, now);
            }
            return store.addMembers(tenantId, roomId, userIds).orElseThrow(ChatService::roomNotFound);
        }
    }

    /** Removes a member from a room; removing a non-member changes nothing. */
    public Room removeMember(String tenantId, String roomId, String userId) {
        room(tenantId, roomId);
        synchronized (lock(tenantId, roomId)) {
            Room room = store.removeMember(tenantId, roomId, userId).orElseThrow(ChatService::roomNotFound);
            publisher.memberRemoved(tenantId, roomId, userId);
            return room;
        }
    }

    /** Returns the principal's rooms, most recent activity first. */
    public List<Room> roomsOf(Principal principal) {
        List<Room> rooms = store.roomsOf(principal.tenantId(), principal.userId());
        rooms.sort(BY_RECENT_ACTIVITY);
        return rooms;
    }

    /** Returns a page of history of a room the principal is a member of. */
    public MessagePage messages(Principal principal, String roomId, PageRequest page) {
        Room room = room(principal.tenantId(), roomId);
        requireMember(principal, room);
        return store.messages(principal.tenantId(), roomId, page);
    }

    /**
     * Returns the messages of a room the principal is a member of that changed after revision {@code since},
     * each once in its latest state, ascending rev, at most {@code limit}.
     */
    public ChangesPage changes(Principal principal, String roomId, long since, int limit) {
        Room room = room(principal.tenantId(), roomId);
        requireMember(principal, room);
        return store.changes(principal.tenantId(), roomId, since, limit);
    }

    /**
     * Returns a page of a thread's replies ({@code threadId}: 400 unless a root of the room), or with
     * {@code mainOnly} of the messages that are no thread reply, of a room the principal is a member of.
     */
    public MessagePage messages(Principal principal, String roomId, PageRequest page, String threadId,
                                boolean mainOnly) {
        if (threadId == null && !mainOnly) {
            return messages(principal, roomId, page);
        }
        Room room = room(principal.tenantId(), roomId);
        requireMember(principal, room);
        if (threadId != null) {
            ThreadRules.root(store, principal.tenantId(), roomId, threadId);
        }
        return store.messages(principal.tenantId(), roomId, page, threadId);
    }

    /** Sends a message as the principal: the input's parts, with its reply, thread and mentions. */
    public SendResult send(Principal principal, String roomId, SendInput input) {
        return send(principal, roomId, input.senderId(), input.clientMessageId(), input.parts(), input);
    }

    /**
     * Sends a message as the principal. A repeat of (room, sender, clientMessageId) answers the first
     * message, is not rate limited and publishes nothing.
     */
    public SendResult send(Principal principal, String roomId, String senderId, String clientMessageId,
                           List<JsonNode> parts) {
        return send(principal, roomId, senderId, clientMessageId, parts, null);
    }

    private SendResult send(Principal principal, String roomId, String senderId, String clientMessageId,
                            List<JsonNode> parts, SendInput input) {
        String tenantId = principal.tenantId();
        // A file part is checked as the body is (400 before the room's 404), and filled in from the stored file.
        List<JsonNode> stored = FileParts.anyFile(parts) ? files.resolveStored(principal, parts) : parts;
        Room room = room(tenantId, roomId);
        if (senderId != null && !senderId.equals(principal.userId())) {
            throw ApiException.impersonation();
        }
        requireMember(principal, room);
        Optional<Message> first = store.messageByClientId(tenantId, roomId, principal.userId(), clientMessageId);
        if (first.isPresent()) {
            return repeated(tenantId, first.get());
        }
        long wait = sendLimiter.tryAcquire(tenantId + '\u0000' + principal.userId());
        if (wait > 0) {
            throw ApiException.rateLimited(wait);
        }
        synchronized (lock(tenantId, roomId)) {
            // Checked under the lock: a root deleted or a member removed a moment ago counts.
            MessageLinks links = input == null ? MessageLinks.NONE
                    : ThreadRules.links(store, tenantId, roomId, input, () -> room(tenantId, roomId));
            AppendResult result;
            try {
                result = store.appendMessage(tenantId, roomId, principal.userId(), clientMessageId, stored, links,
                        now());
            } catch (ClosedThreadException e) {
                throw ThreadRules.refused(e);
            }
            if (!result.created()) {
                return repeated(tenantId, result.message());
            }
            if (stored != parts) {
                files.referenced(tenantId, result.message());
            }
            String json = null;
            if (encoder == null) {
                publisher.toRoomMembers(tenantId, result.room(), NEW_MESSAGE, result.message());
            } else {
                json = encoder.apply(result.message());
                publisher.toRoomMembers(tenantId, result.room(), NEW_MESSAGE, result.message(), json);
            }
            if (result.root() != null) {
                // The root's new summary and rev come after the reply's, as their revs do.
                publisher.toRoomMembers(tenantId, result.room(), MessageActions.MESSAGE_UPDATED, result.root());
            }
            return new SendResult(result.message(), true, json);
        }
    }

    /**
     * Answers a repeated send with its first message. The message is stored before its files learn of it, so a
     * kill in between leaves them unreadable to the room; the sender had no answer and repeats the send, and the
     * references are recorded again here (a reference already recorded is kept once).
     */
    private SendResult repeated(String tenantId, Message first) {
        if (FileParts.anyFile(first.parts())) {
            files.referenced(tenantId, first);
        }
        return new SendResult(first, false, null);
    }

    /**
     * Returns the room a connection may join: any room of the tenant for an API key, else only a room the
     * user is a member of.
     */
    public Room roomForJoin(Principal principal, String roomId) {
        Room room = room(principal.tenantId(), roomId);
        if (!principal.isApiKey()) {
            requireMember(principal, room);
        }
        return room;
    }

    /** Returns the room or throws 404 (also for another tenant's room: it is looked up in this tenant only). */
    public Room room(String tenantId, String roomId) {
        return store.room(tenantId, roomId).orElseThrow(ChatService::roomNotFound);
    }

    /** Throws 403 unless the principal is a member of {@code room} (shared with {@link MessageActions}). */
    static void requireMember(Principal principal, Room room) {
        if (!room.hasMember(principal.userId())) {
            throw ApiException.forbidden("Not a member of this room");
        }
    }

    /** Returns the monitor that orders a room's changes and their events (shared with {@link MessageActions}). */
    Object lock(String tenantId, String roomId) {
        return roomLocks.computeIfAbsent(tenantId + '/' + roomId, k -> new Object());
    }

    static ApiException roomNotFound() {
        return ApiException.notFound("Room not found");
    }
}
