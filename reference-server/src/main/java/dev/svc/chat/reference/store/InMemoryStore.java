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
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * A {@link Store} in memory: one {@link MemoryTenant} per tenant (users, rooms, devices, push outbox, calls)
 * and one {@link MemoryRoom} per room, whose monitor guards its members, messages, revision counter and
 * receipts. Nothing survives a restart.
 */
public final class InMemoryStore implements Store {

    private final Map<String, MemoryTenant> tenants = new ConcurrentHashMap<>();
    private final Map<String, String> tenantIdByApiKey = new ConcurrentHashMap<>();
    private final Map<String, PendingWebhook> webhooks = new ConcurrentHashMap<>();
    private final MessageWrites writes;

    /** Creates an empty store. */
    public InMemoryStore() {
        this(MessageWrites.NONE);
    }

    /** Creates an empty store that tells {@code writes} of every message it writes. */
    public InMemoryStore(MessageWrites writes) {
        this.writes = writes;
    }

    @Override
    public void createTenant(TenantRecord tenant, TenantSettings settings) {
        if (tenants.putIfAbsent(tenant.id(), new MemoryTenant(tenant, settings)) != null) {
            throw new IllegalStateException("tenant exists: " + tenant.id());
        }
        tenantIdByApiKey.put(tenant.apiKey(), tenant.id());
    }

    @Override
    public void updateApiKey(String tenantId, String apiKey) {
        MemoryTenant data = data(tenantId);
        synchronized (data) {
            tenantIdByApiKey.remove(data.record.apiKey(), tenantId);
            data.record = new TenantRecord(tenantId, apiKey, data.record.jwtSecret());
            tenantIdByApiKey.put(apiKey, tenantId);
        }
    }

    @Override
    public Optional<TenantRecord> tenantByApiKey(String apiKey) {
        String id = tenantIdByApiKey.get(apiKey);
        return id == null ? Optional.empty() : tenant(id);
    }

    @Override
    public Optional<TenantRecord> tenant(String tenantId) {
        MemoryTenant data = tenants.get(tenantId);
        return data == null ? Optional.empty() : Optional.of(data.record);
    }

    @Override
    public TenantSettings settings(String tenantId) {
        return data(tenantId).settings;
    }

    @Override
    public TenantSettings updateSettings(String tenantId, UnaryOperator<TenantSettings> change) {
        MemoryTenant data = data(tenantId);
        synchronized (data) {
            data.settings = change.apply(data.settings);
            return data.settings;
        }
    }

    @Override
    public User upsertUser(String tenantId, String userId, String username, Instant now) {
        return data(tenantId).users.compute(userId, (id, old) -> {
            if (old == null) {
                return new User(id, username, now, now);
            }
            if (username == null || username.equals(old.username())) {
                return old;
            }
            return new User(id, username, old.createdAt(), now);
        });
    }

    @Override
    public User ensureUser(String tenantId, String userId, Instant now) {
        return data(tenantId).users.computeIfAbsent(userId, id -> new User(id, null, now, now));
    }

    @Override
    public Optional<User> user(String tenantId, String userId) {
        return Optional.ofNullable(data(tenantId).users.get(userId));
    }

    @Override
    public Room createRoom(String tenantId, String name, Collection<String> memberIds, Instant now) {
        MemoryTenant data = data(tenantId);
        MemoryRoom room = new MemoryRoom(name, now);
        synchronized (room) {
            for (String member : memberIds) {
                room.addMember(member);
            }
            data.rooms.put(room.id, room);
            for (String member : room.memberIds()) {
                data.indexMember(member, room.id);
            }
            return room.snapshot();
        }
    }

    @Override
    public List<User> users(String tenantId) {
        List<User> users = new ArrayList<>(data(tenantId).users.values());
        users.sort(Comparator.comparing(User::userId));
        return users;
    }

    @Override
    public List<Room> rooms(String tenantId) {
        List<Room> rooms = new ArrayList<>();
        for (MemoryRoom room : data(tenantId).rooms.values()) {
            rooms.add(room.snapshot());
        }
        rooms.sort(Comparator.comparing(Room::createdAt).thenComparing(Room::id));
        return rooms;
    }

    @Override
    public Room importRoom(String tenantId, String roomId, String name, Collection<String> memberIds,
                           Instant createdAt) {
        MemoryTenant data = data(tenantId);
        MemoryRoom room = data.rooms.computeIfAbsent(roomId, id -> new MemoryRoom(id, name, createdAt));
        synchronized (room) {
            for (String member : memberIds) {
                if (room.addMember(member)) {
                    data.indexMember(member, room.id);
                }
            }
            return room.snapshot();
        }
    }

    @Override
    public Optional<Room> room(String tenantId, String roomId) {
        MemoryRoom room = data(tenantId).rooms.get(roomId);
        return room == null ? Optional.empty() : Optional.of(room.snapshot());
    }

    @Override
    public Optional<Room> addMembers(String tenantId, String roomId, Collection<String> userIds) {
        MemoryTenant data = data(tenantId);
        MemoryRoom room = data.rooms.get(roomId);
        if (room == null) {
            return Optional.empty();
        }
        synchronized (room) {
            for (String userId : userIds) {
                if (room.addMember(userId)) {
                    data.indexMember(userId, roomId);
                }
            }
            return Optional.of(room.snapshot());
        }
    }

    @Override
    public Optional<Room> removeMember(String tenantId, String roomId, String userId) {
        MemoryTenant data = data(tenantId);
        MemoryRoom room = data.rooms.get(roomId);
        if (room == null) {
            return Optional.empty();
        }
        synchronized (room) {
            if (room.removeMember(userId)) {
                data.unindexMember(userId, roomId);
            }
            return Optional.of(room.snapshot());
        }
    }

    @Override
    public List<Room> roomsOf(String tenantId, String userId) {
        MemoryTenant data = data(tenantId);
        Set<String> ids = data.roomIdsByUser.get(userId);
        List<Room> rooms = new ArrayList<>();
        if (ids == null) {
            return rooms;
        }
        for (String id : ids) {
            MemoryRoom room = data.rooms.get(id);
            if (room != null) {
                synchronized (room) {
                    // The index is updated under the room's monitor; re-check so a racing removal is honoured.
                    if (room.hasMember(userId)) {
                        rooms.add(room.snapshot());
                    }
                }
            }
        }
        return rooms;
    }

    @Override
    public List<RoomPosition> positionsOf(String tenantId, String userId) {
        MemoryTenant data = data(tenantId);
        Set<String> ids = data.roomIdsByUser.get(userId);
        if (ids == null) {
            return List.of();
        }
        List<RoomPosition> positions = new ArrayList<>(ids.size());
        for (String id : ids) {
            MemoryRoom room = data.rooms.get(id);
            RoomPosition position = room == null ? null : room.positionFor(userId);
            if (position != null) {
                positions.add(position);
            }
        }
        return positions;
    }

    @Override
    public Optional<Message> messageByClientId(String tenantId, String roomId, String senderId,
                                               String clientMessageId) {
        return existingRoom(tenantId, roomId).messageByClientId(senderId, clientMessageId);
    }

    @Override
    public AppendResult appendMessage(String tenantId, String roomId, String senderId, String clientMessageId,
                                      List<JsonNode> parts, MessageLinks links, Instant now) {
        AppendResult result = existingRoom(tenantId, roomId).append(senderId, clientMessageId, parts, links, now);
        if (result.created()) {
            writes.written(tenantId, result.message());
        }
        return result;
    }

    @Override
    public MessagePage messages(String tenantId, String roomId, PageRequest page) {
        return existingRoom(tenantId, roomId).messages(page);
    }

    @Override
    public MessagePage messages(String tenantId, String roomId, PageRequest page, String threadId) {
        return existingRoom(tenantId, roomId).messages(page, threadId);
    }

    @Override
    public Optional<Message> message(String tenantId, String roomId, String messageId) {
        return existingRoom(tenantId, roomId).message(messageId);
    }

    @Override
    public Message replaceMessage(String tenantId, Message updated) {
        return changeMessage(tenantId, updated).message();
    }

    @Override
    public ChangeResult changeMessage(String tenantId, Message updated) {
        ChangeResult result = existingRoom(tenantId, updated.roomId()).change(updated);
        writes.written(tenantId, result.message());
        return result;
    }

    @Override
    public ChangesPage changes(String tenantId, String roomId, long since, int limit) {
        return existingRoom(tenantId, roomId).changes(since, limit);
    }

    @Override
    public Optional<Receipt> receipt(String tenantId, String roomId, String userId) {
        return existingRoom(tenantId, roomId).receipt(userId);
    }

    @Override
    public void putReceipt(String tenantId, Receipt receipt) {
        existingRoom(tenantId, receipt.roomId()).putReceipt(receipt);
    }

    @Override
    public List<Receipt> receipts(String tenantId, String roomId) {
        return existingRoom(tenantId, roomId).receipts();
    }

    @Override
    public void putDeviceToken(String tenantId, DeviceToken device) {
        data(tenantId).putDeviceToken(device);
    }

    @Override
    public boolean removeDeviceToken(String tenantId, String userId, String token) {
        return data(tenantId).removeDeviceToken(userId, token);
    }

    @Override
    public List<DeviceToken> deviceTokens(String tenantId, Collection<String> userIds) {
        return data(tenantId).deviceTokens(userIds);
    }

    @Override
    public void appendPushes(String tenantId, List<PushRecord> records, int keep) {
        data(tenantId).appendPushes(records, keep);
    }

    @Override
    public List<PushRecord> pushes(String tenantId, String userId) {
        return data(tenantId).pushes(userId);
    }

    @Override
    public void clearPushes(String tenantId) {
        data(tenantId).clearPushes();
    }

    @Override
    public boolean insertCall(String tenantId, CallState call) {
        return data(tenantId).insertCall(call);
    }

    @Override
    public boolean replaceCall(String tenantId, CallState expected, CallState call) {
        return data(tenantId).replaceCall(expected, call);
    }

    @Override
    public Optional<CallState> call(String tenantId, String callId) {
        return data(tenantId).call(callId);
    }

    @Override
    public Optional<CallState> liveCall(String tenantId, String roomId) {
        return data(tenantId).liveCall(roomId);
    }

    @Override
    public void putWebhook(PendingWebhook delivery) {
        webhooks.put(delivery.id(), delivery);
    }

    @Override
    public void removeWebhook(String id) {
        webhooks.remove(id);
    }

    @Override
    public List<PendingWebhook> pendingWebhooks() {
        List<PendingWebhook> out = new ArrayList<>(webhooks.values());
        out.sort(Comparator.comparing(PendingWebhook::dueAt));
        return out;
    }

    private MemoryTenant data(String tenantId) {
        MemoryTenant data = tenants.get(tenantId);
        if (data == null) {
            throw new NoSuchElementException("no tenant " + tenantId);
        }
        return data;
    }

    private MemoryRoom existingRoom(String tenantId, String roomId) {
        MemoryRoom room = data(tenantId).rooms.get(roomId);
        if (room == null) {
            throw new NoSuchElementException("no room " + roomId);
        }
        return room;
    }
}
