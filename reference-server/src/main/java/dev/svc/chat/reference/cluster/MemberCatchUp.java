package dev.svc.chat.reference.cluster;

import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.store.Store;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Applies the member removals the bus did not bring: a removal's only effect on a node's sockets is that the
 * removed user's connections that joined the room leave it (they get its typing no more; every other room
 * event goes to the members its publisher read from the database). So this node reads, for each room its
 * token connections joined, the room's members from the database, and makes every connection of a user who
 * is no longer a member leave it. Leaving is idempotent and sends nothing: a removal applied both here and
 * by its notification is applied once in effect. Nothing is noted between catch-ups.
 */
final class MemberCatchUp {

    private final EventPublisher local;
    /** This node's joined rooms: "tenant NUL room" -> the users whose token connections joined it. */
    private final Supplier<Map<String, Set<String>>> joined;
    private final Store store;

    MemberCatchUp(EventPublisher local, Supplier<Map<String, Set<String>>> joined, Store store) {
        this.local = local;
        this.joined = joined;
        this.store = store;
    }

    /** Checks every room joined on this node. */
    void all() {
        for (Map.Entry<String, Set<String>> room : joined.get().entrySet()) {
            int nul = room.getKey().indexOf('\u0000');
            check(room.getKey().substring(0, nul), room.getKey().substring(nul + 1), room.getValue());
        }
    }

    /** Checks one room, if joined on this node. */
    void room(String tenantId, String roomId) {
        Set<String> users = joined.get().get(tenantId + '\u0000' + roomId);
        if (users != null) {
            check(tenantId, roomId, users);
        }
    }

    /** Makes the users who joined the room (read before its members are) leave it unless they are members. */
    private void check(String tenantId, String roomId, Set<String> users) {
        Optional<Room> room = store.room(tenantId, roomId);
        for (String user : users) {
            if (room.isEmpty() || !room.get().hasMember(user)) {
                local.memberRemoved(tenantId, roomId, user);
            }
        }
    }
}
