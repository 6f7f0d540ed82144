package dev.svc.chat.reference.dev;

import dev.svc.chat.reference.gateway.ConnectionInfo;
import dev.svc.chat.reference.gateway.Gateway;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.User;
import dev.svc.chat.reference.store.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The answer of {@code GET /v1/dev/state}: one tenant's users with their live connections, the connections made
 * with its API key, its rooms with members, {@code seq}, {@code rev} and the call in each, and its faults in force.
 */
final class DevState {

    private final Store store;
    private final Gateway gateway;
    private final DevFaults faults;
    private final DevFanOutDrops drops;

    DevState(Store store, Gateway gateway, DevFaults faults, DevFanOutDrops drops) {
        this.store = store;
        this.gateway = gateway;
        this.faults = faults;
        this.drops = drops;
    }

    Map<String, Object> of(String tenantId) {
        Map<String, List<ConnectionInfo>> byUser = new TreeMap<>();
        int apiKeyConnections = 0;
        for (ConnectionInfo connection : gateway.connectionsOf(tenantId)) {
            if (connection.userId() == null) {
                apiKeyConnections++;
            } else {
                byUser.computeIfAbsent(connection.userId(), k -> new ArrayList<>()).add(connection);
            }
        }
        List<Map<String, Object>> users = new ArrayList<>();
        for (User user : store.users(tenantId)) {
            Map<String, Object> u = new LinkedHashMap<>();
            u.put("userId", user.userId());
            u.put("username", user.username());
            u.put("createdAt", user.createdAt());
            u.put("connections", byUser.getOrDefault(user.userId(), List.of()));
            users.add(u);
        }
        List<Map<String, Object>> rooms = new ArrayList<>();
        for (Room room : store.rooms(tenantId)) {
            Map<String, Object> r = room(room);
            r.put("call", store.liveCall(tenantId, room.id()).map(c -> c.call()).orElse(null));
            rooms.add(r);
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("tenant", Map.of("id", tenantId));
        state.put("users", users);
        state.put("apiKeyConnections", apiKeyConnections);
        state.put("rooms", rooms);
        state.put("faults", faults.list(tenantId));
        state.put("fanOutDrops", drops.list(tenantId));
        return state;
    }

    /** Returns a room as the dev API shows it: its last message's seq as {@code seq}. */
    static Map<String, Object> room(Room room) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("id", room.id());
        r.put("name", room.name());
        r.put("members", room.memberIds());
        r.put("createdAt", room.createdAt());
        r.put("seq", room.lastMessageSeq());
        r.put("rev", room.rev());
        r.put("lastMessageAt", room.lastMessageAt());
        return r;
    }
}
