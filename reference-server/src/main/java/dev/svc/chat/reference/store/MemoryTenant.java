package dev.svc.chat.reference.store;

import dev.svc.chat.reference.model.DeviceToken;
import dev.svc.chat.reference.model.PushRecord;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.model.User;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One tenant of {@link InMemoryStore}: its record and settings (changed under this object's monitor), users,
 * rooms and the index of each user's rooms, and its device tokens, push outbox and calls, each guarded by a
 * monitor of its own.
 */
final class MemoryTenant {

    volatile TenantRecord record;
    volatile TenantSettings settings;
    final Map<String, User> users = new ConcurrentHashMap<>();
    final Map<String, MemoryRoom> rooms = new ConcurrentHashMap<>();
    final Map<String, Set<String>> roomIdsByUser = new ConcurrentHashMap<>();
    private final Map<String, DeviceToken> devices = new ConcurrentHashMap<>();
    private final Map<String, Map<String, DeviceToken>> devicesByUser = new ConcurrentHashMap<>();
    private final Deque<PushRecord> outbox = new ArrayDeque<>();
    private final Map<String, CallState> calls = new ConcurrentHashMap<>();
    private final Map<String, String> liveCallByRoom = new ConcurrentHashMap<>();

    MemoryTenant(TenantRecord record, TenantSettings settings) {
        this.record = record;
        this.settings = settings;
    }

    /** Notes that the user is a member of the room (called under the room's monitor). */
    void indexMember(String userId, String roomId) {
        // compute (not computeIfAbsent + add) so a racing unindex cannot drop the set we add to.
        roomIdsByUser.compute(userId, (k, ids) -> {
            Set<String> set = ids != null ? ids : ConcurrentHashMap.newKeySet();
            set.add(roomId);
            return set;
        });
    }

    /** Notes that the user is no longer a member of the room (called under the room's monitor). */
    void unindexMember(String userId, String roomId) {
        roomIdsByUser.computeIfPresent(userId, (k, ids) -> {
            ids.remove(roomId);
            return ids.isEmpty() ? null : ids;
        });
    }

    /** Registers a device token; one registered by another user moves to this one. */
    void putDeviceToken(DeviceToken device) {
        synchronized (devices) {
            DeviceToken previous = devices.put(device.token(), device);
            if (previous != null) {
                forgetDevice(previous);
            }
            devicesByUser.computeIfAbsent(device.userId(), k -> new ConcurrentHashMap<>())
                    .put(device.token(), device);
        }
    }

    /** Forgets a device token if it belongs to {@code userId}; returns whether it did. */
    boolean removeDeviceToken(String userId, String token) {
        synchronized (devices) {
            DeviceToken device = devices.get(token);
            if (device == null || !device.userId().equals(userId)) {
                return false;
            }
            devices.remove(token);
            forgetDevice(device);
            return true;
        }
    }

    private void forgetDevice(DeviceToken device) {
        devicesByUser.computeIfPresent(device.userId(), (k, tokens) -> {
            tokens.remove(device.token());
            return tokens.isEmpty() ? null : tokens;
        });
    }

    /** Returns the device tokens of these users. */
    List<DeviceToken> deviceTokens(Collection<String> userIds) {
        List<DeviceToken> out = new ArrayList<>();
        for (String userId : userIds) {
            Map<String, DeviceToken> tokens = devicesByUser.get(userId);
            if (tokens != null) {
                out.addAll(tokens.values());
            }
        }
        return out;
    }

    /** Appends push records, keeping the latest {@code keep}. */
    void appendPushes(List<PushRecord> records, int keep) {
        synchronized (outbox) {
            for (PushRecord r : records) {
                outbox.addLast(r);
                if (outbox.size() > keep) {
                    outbox.removeFirst();
                }
            }
        }
    }

    /** Returns the push records, oldest first, only those to {@code userId} unless it is null. */
    List<PushRecord> pushes(String userId) {
        List<PushRecord> out = new ArrayList<>();
        synchronized (outbox) {
            for (PushRecord r : outbox) {
                if (userId == null || r.userId().equals(userId)) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** Empties the push outbox. */
    void clearPushes() {
        synchronized (outbox) {
            outbox.clear();
        }
    }

    /** Stores a new live call unless its room has one; returns whether it did. */
    boolean insertCall(CallState call) {
        synchronized (calls) {
            String live = liveCallByRoom.get(call.call().roomId());
            if (live != null && calls.get(live).call().isLive()) {
                return false;
            }
            calls.put(call.call().id(), call);
            liveCallByRoom.put(call.call().roomId(), call.call().id());
            return true;
        }
    }

    /** Replaces a call that is still {@code expected}; a call no longer live frees its room. */
    boolean replaceCall(CallState expected, CallState call) {
        synchronized (calls) {
            if (!calls.replace(call.call().id(), expected, call)) {
                return false;
            }
            if (!call.call().isLive()) {
                liveCallByRoom.remove(call.call().roomId(), call.call().id());
            }
            return true;
        }
    }

    /** Returns the call with that id. */
    Optional<CallState> call(String callId) {
        return Optional.ofNullable(calls.get(callId));
    }

    /** Returns the room's live call, if any. */
    Optional<CallState> liveCall(String roomId) {
        synchronized (calls) {
            String id = liveCallByRoom.get(roomId);
            return id == null ? Optional.empty() : Optional.of(calls.get(id));
        }
    }
}
