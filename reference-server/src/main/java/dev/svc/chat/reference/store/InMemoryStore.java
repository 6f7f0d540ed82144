package dev.svc.chat.reference.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.model.ChangesPage;
import dev.svc.chat.reference.model.DeviceToken;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.MessagePage;
import dev.svc.chat.reference.model.PushRecord;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.model.User;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * A {@link Store} in memory: concurrent maps per tenant, and one monitor per room guarding its members,
 * messages, revision counter and receipts. Nothing survives a restart.
 */
public final class InMemoryStore implements Store {

    private final Map<String, TenantData> tenants = new ConcurrentHashMap<>();
    private final Map<String, String> tenantIdByApiKey = new ConcurrentHashMap<>();
    private final Map<String, PendingWebhook> webhooks = new ConcurrentHashMap<>();

    /** Creates an empty store. */
    public InMemoryStore() {
    }

    @Override
    public void createTenant(TenantRecord tenant, TenantSettings settings) {
        if (tenants.putIfAbsent(tenant.id(), new TenantData(tenant, settings)) != null) {
            throw new IllegalStateException("tenant exists: " + tenant.id());
        }
        tenantIdByApiKey.put(tenant.apiKey(), tenant.id());
    }

    @Override
    public void updateApiKey(String tenantId, String apiKey) {
        TenantData data = data(tenantId);
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
        TenantData data = tenants.get(tenantId);
        return data == null ? Optional.empty() : Optional.of(data.record);
    }

    @Override
    public TenantSettings settings(String tenantId) {
        return data(tenantId).settings;
    }

    @Override
    public TenantSettings updateSettings(String tenantId, UnaryOperator<TenantSettings> change) {
        TenantData data = data(tenantId);
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
        TenantData data = data(tenantId);
        RoomData room = new RoomData(UUID.randomUUID().toString(), name, now);
        synchronized (room) {
            room.members.addAll(memberIds);
            data.rooms.put(room.id, room);
            for (String member : room.members) {
                data.indexMember(member, room.id);
            }
            return room.snapshot();
        }
    }

    @Override
    public Optional<Room> room(String tenantId, String roomId) {
        RoomData room = data(tenantId).rooms.get(roomId);
        if (room == null) {
            return Optional.empty();
        }
        synchronized (room) {
            return Optional.of(room.snapshot());
        }
    }

    @Override
    public Optional<Room> addMembers(String tenantId, String roomId, Collection<String> userIds) {
        TenantData data = data(tenantId);
        RoomData room = data.rooms.get(roomId);
        if (room == null) {
            return Optional.empty();
        }
        synchronized (room) {
            for (String userId : userIds) {
                if (room.members.add(userId)) {
                    data.indexMember(userId, roomId);
                }
            }
            return Optional.of(room.snapshot());
        }
    }

    @Override
    public Optional<Room> removeMember(String tenantId, String roomId, String userId) {
        TenantData data = data(tenantId);
        RoomData room = data.rooms.get(roomId);
        if (room == null) {
            return Optional.empty();
        }
        synchronized (room) {
            if (room.members.remove(userId)) {
                data.unindexMember(userId, roomId);
            }
            return Optional.of(room.snapshot());
        }
    }

    @Override
    public List<Room> roomsOf(String tenantId, String userId) {
        TenantData data = data(tenantId);
        Set<String> ids = data.roomIdsByUser.get(userId);
        List<Room> rooms = new ArrayList<>();
        if (ids == null) {
            return rooms;
        }
        for (String id : ids) {
            RoomData room = data.rooms.get(id);
            if (room != null) {
                synchronized (room) {
                    // The index is updated under the room's monitor; re-check so a racing removal is honoured.
                    if (room.members.contains(userId)) {
                        rooms.add(room.snapshot());
                    }
                }
            }
        }
        return rooms;
    }

    @Override
    public Optional<Message> messageByClientId(String tenantId, String roomId, String senderId,
                                               String clientMessageId) {
        RoomData room = existingRoom(tenantId, roomId);
        synchronized (room) {
            return Optional.ofNullable(room.byClientKey.get(clientKey(senderId, clientMessageId)));
        }
    }

    @Override
    public AppendResult appendMessage(String tenantId, String roomId, String senderId, String clientMessageId,
                                      List<JsonNode> parts, Instant now) {
        RoomData room = existingRoom(tenantId, roomId);
        synchronized (room) {
            String key = clientKey(senderId, clientMessageId);
            Message first = room.byClientKey.get(key);
            if (first != null) {
                return new AppendResult(first, false, room.snapshot());
            }
            long seq = room.messages.size() + 1L;
            Message message = new Message(UUID.randomUUID().toString(), roomId, seq, ++room.rev, senderId, parts,
                    clientMessageId, now, null, null, Map.of());
            room.messages.add(message);
            room.byClientKey.put(key, message);
            room.seqById.put(message.id(), seq);
            room.idByRev.put(message.rev(), message.id());
            room.lastMessageAt = now;
            return new AppendResult(message, true, room.snapshot());
        }
    }

    @Override
    public MessagePage messages(String tenantId, String roomId, PageRequest page) {
        RoomData room = existingRoom(tenantId, roomId);
        synchronized (room) {
            // seq n lives at index n - 1 because seqs have no holes.
            int count = room.messages.size();
            int from;
            int to;
            boolean hasMore;
            if (page.after() != null) {
                from = (int) Math.min(count, Math.max(0, page.after()));
                to = Math.min(count, from + page.limit());
                hasMore = to < count;
            } else {
                to = page.before() != null ? (int) Math.min(count, Math.max(0, page.before() - 1)) : count;
                from = Math.max(0, to - page.limit());
                hasMore = from > 0;
            }
            return new MessagePage(new ArrayList<>(room.messages.subList(from, to)), hasMore);
        }
    }

    @Override
    public Optional<Message> message(String tenantId, String roomId, String messageId) {
        RoomData room = existingRoom(tenantId, roomId);
        synchronized (room) {
            Long seq = room.seqById.get(messageId);
            return seq == null ? Optional.empty() : Optional.of(room.messages.get((int) (seq - 1)));
        }
    }

    @Override
    public Message replaceMessage(String tenantId, Message updated) {
        RoomData room = existingRoom(tenantId, updated.roomId());
        synchronized (room) {
            Long seq = room.seqById.get(updated.id());
            if (seq == null || seq != updated.seq()) {
                throw new NoSuchElementException("no message " + updated.id());
            }
            int index = (int) (seq - 1);
            Message stored = updated.withRev(++room.rev);
            // The index holds each message once, under its latest rev.
            room.idByRev.remove(room.messages.get(index).rev());
            room.idByRev.put(stored.rev(), stored.id());
            room.messages.set(index, stored);
            room.byClientKey.put(clientKey(stored.senderId(), stored.clientMessageId()), stored);
            return stored;
        }
    }

    @Override
    public ChangesPage changes(String tenantId, String roomId, long since, int limit) {
        RoomData room = existingRoom(tenantId, roomId);
        synchronized (room) {
            // Iterate rather than ask the tail's size(): a TreeMap view counts its entries one by one.
            Iterator<String> ids = room.idByRev.tailMap(since, false).values().iterator();
            List<Message> messages = new ArrayList<>();
            while (messages.size() < limit && ids.hasNext()) {
                messages.add(room.messages.get((int) (room.seqById.get(ids.next()) - 1)));
            }
            return new ChangesPage(messages, room.rev, ids.hasNext());
        }
    }

    @Override
    public Optional<Receipt> receipt(String tenantId, String roomId, String userId) {
        RoomData room = existingRoom(tenantId, roomId);
        synchronized (room) {
            return Optional.ofNullable(room.receipts.get(userId));
        }
    }

    @Override
    public void putReceipt(String tenantId, Receipt receipt) {
        RoomData room = existingRoom(tenantId, receipt.roomId());
        synchronized (room) {
            room.receipts.put(receipt.userId(), receipt);
        }
    }

    @Override
    public List<Receipt> receipts(String tenantId, String roomId) {
        RoomData room = existingRoom(tenantId, roomId);
        synchronized (room) {
            List<Receipt> receipts = new ArrayList<>();
            for (String member : room.members) {
                Receipt receipt = room.receipts.get(member);
                if (receipt != null) {
                    receipts.add(receipt);
                }
            }
            return receipts;
        }
    }

    @Override
    public void putDeviceToken(String tenantId, DeviceToken device) {
        TenantData data = data(tenantId);
        synchronized (data.devices) {
            DeviceToken previous = data.devices.put(device.token(), device);
            if (previous != null) {
                forgetDevice(data, previous);
            }
            data.devicesByUser.computeIfAbsent(device.userId(), k -> new ConcurrentHashMap<>())
                    .put(device.token(), device);
        }
    }

    @Override
    public boolean removeDeviceToken(String tenantId, String userId, String token) {
        TenantData data = data(tenantId);
        synchronized (data.devices) {
            DeviceToken device = data.devices.get(token);
            if (device == null || !device.userId().equals(userId)) {
                return false;
            }
            data.devices.remove(token);
            forgetDevice(data, device);
            return true;
        }
    }

    private static void forgetDevice(TenantData data, DeviceToken device) {
        data.devicesByUser.computeIfPresent(device.userId(), (k, tokens) -> {
            tokens.remove(device.token());
            return tokens.isEmpty() ? null : tokens;
        });
    }

    @Override
    public List<DeviceToken> deviceTokens(String tenantId, Collection<String> userIds) {
        List<DeviceToken> out = new ArrayList<>();
        for (String userId : userIds) {
            Map<String, DeviceToken> tokens = data(tenantId).devicesByUser.get(userId);
            if (tokens != null) {
                out.addAll(tokens.values());
            }
        }
        return out;
    }

    @Override
    public void appendPushes(String tenantId, List<PushRecord> records, int keep) {
        Deque<PushRecord> queue = data(tenantId).outbox;
        synchronized (queue) {
            for (PushRecord r : records) {
                queue.addLast(r);
                if (queue.size() > keep) {
                    queue.removeFirst();
                }
            }
        }
    }

    @Override
    public List<PushRecord> pushes(String tenantId, String userId) {
        Deque<PushRecord> queue = data(tenantId).outbox;
        List<PushRecord> out = new ArrayList<>();
        synchronized (queue) {
            for (PushRecord r : queue) {
                if (userId == null || r.userId().equals(userId)) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    @Override
    public void clearPushes(String tenantId) {
        Deque<PushRecord> queue = data(tenantId).outbox;
        synchronized (queue) {
            queue.clear();
        }
    }

    @Override
    public boolean insertCall(String tenantId, CallState call) {
        TenantData data = data(tenantId);
        synchronized (data.calls) {
            String live = data.liveCallByRoom.get(call.call().roomId());
            if (live != null && data.calls.get(live).call().isLive()) {
                return false;
            }
            data.calls.put(call.call().id(), call);
            data.liveCallByRoom.put(call.call().roomId(), call.call().id());
            return true;
        }
    }

    @Override
    public boolean replaceCall(String tenantId, CallState expected, CallState call) {
        TenantData data = data(tenantId);
        synchronized (data.calls) {
            if (!data.calls.replace(call.call().id(), expected, call)) {
                return false;
            }
            if (!call.call().isLive()) {
                data.liveCallByRoom.remove(call.call().roomId(), call.call().id());
            }
            return true;
        }
    }

    @Override
    public Optional<CallState> call(String tenantId, String callId) {
        return Optional.ofNullable(data(tenantId).calls.get(callId));
    }

    @Override
    public Optional<CallState> liveCall(String tenantId, String roomId) {
        TenantData data = data(tenantId);
        synchronized (data.calls) {
            String id = data.liveCallByRoom.get(roomId);
            return id == null ? Optional.empty() : Optional.of(data.calls.get(id));
        }
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
        out.sort(java.util.Comparator.comparing(PendingWebhook::dueAt));
        return out;
    }

    private TenantData data(String tenantId) {
        TenantData data = tenants.get(tenantId);
        if (data == null) {
            throw new NoSuchElementException("no tenant " + tenantId);
        }
        return data;
    }

    private RoomData existingRoom(String tenantId, String roomId) {
        RoomData room = data(tenantId).rooms.get(roomId);
        if (room == null) {
            throw new NoSuchElementException("no room " + roomId);
        }
        return room;
    }

    private static String clientKey(String senderId, String clientMessageId) {
        // userIds never contain a NUL, so the key is unambiguous.
        return senderId + '\u0000' + clientMessageId;
    }

    private static final class TenantData {
        volatile TenantRecord record;
        volatile TenantSettings settings;
        final Map<String, DeviceToken> devices = new ConcurrentHashMap<>();
        final Map<String, Map<String, DeviceToken>> devicesByUser = new ConcurrentHashMap<>();
        final Deque<PushRecord> outbox = new ArrayDeque<>();
        final Map<String, CallState> calls = new ConcurrentHashMap<>();
        final Map<String, String> liveCallByRoom = new ConcurrentHashMap<>();
        final Map<String, User> users = new ConcurrentHashMap<>();
        final Map<String, RoomData> rooms = new ConcurrentHashMap<>();
        final Map<String, Set<String>> roomIdsByUser = new ConcurrentHashMap<>();

        TenantData(TenantRecord record, TenantSettings settings) {
            this.record = record;
            this.settings = settings;
        }

        void indexMember(String userId, String roomId) {
            // compute (not computeIfAbsent + add) so a racing unindex cannot drop the set we add to.
            roomIdsByUser.compute(userId, (k, ids) -> {
                Set<String> set = ids != null ? ids : ConcurrentHashMap.newKeySet();
                set.add(roomId);
                return set;
            });
        }

        void unindexMember(String userId, String roomId) {
            roomIdsByUser.computeIfPresent(userId, (k, ids) -> {
                ids.remove(roomId);
                return ids.isEmpty() ? null : ids;
            });
        }
    }

    /** One room's mutable state; every access holds its monitor. */
    private static final class RoomData {
        final String id;
        final String name;
        final Instant createdAt;
        final LinkedHashSet<String> members = new LinkedHashSet<>();
        final List<Message> messages = new ArrayList<>();
        final Map<String, Message> byClientKey = new HashMap<>();
        final Map<String, Long> seqById = new HashMap<>();
        final Map<String, Receipt> receipts = new HashMap<>();
        // rev -> id of the message whose latest change took that rev; one entry per message, so that
        // changes() reads only what changed after a rev instead of scanning every message.
        final NavigableMap<Long, String> idByRev = new TreeMap<>();
        Instant lastMessageAt;
        long rev;

        RoomData(String id, String name, Instant createdAt) {
            this.id = id;
            this.name = name;
            this.createdAt = createdAt;
        }

        Room snapshot() {
            return new Room(id, name, new ArrayList<>(members), createdAt, messages.size(), lastMessageAt, rev);
        }
    }
}
