package dev.svc.chat.reference.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which revisions of each room this node has handed to its sockets (and the seqs of the new messages among
 * them), so that a message event reaches them once whichever way it came: published here, told by another
 * node, or read back from the database after a gap of the bus ({@link RoomCatchUp}). Per room it keeps every
 * revision up to a floor, and the ones above it. A room starts at the revision it had when this node began to
 * listen (read at start), or at 0 when it was created later: what came before was before this node's sockets
 * (a client recovers that by {@code seq} and {@code rev} when it connects).
 *
 * <p>A revision noted above a missing one leaves a hole: usually an event still on its way (another node's
 * notification, a send of this node about to be published), so a hole is read from the database only once it
 * is older than {@link #HOLE_GRACE_NANOS}.
 */
final class RoomRevisions {

    /** How long a hole may wait for its events before the room is read from the database. */
    static final long HOLE_GRACE_NANOS = 1_000_000_000L;

    private final Map<String, Room> rooms = new ConcurrentHashMap<>();
    /** The monotonic clock a hole's age is read on: {@link System#nanoTime}, or a test's. */
    private final LongSupplier nanoTime;

    RoomRevisions() {
        this(System::nanoTime);
    }

    RoomRevisions(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }
    private final Set<Room> holes = ConcurrentHashMap.newKeySet();

    /** Returns the room's record, created at revision 0 (a room created after this node began to listen). */
    Room room(String tenantId, String roomId) {
        return rooms.computeIfAbsent(tenantId + '\u0000' + roomId, k -> new Room(tenantId, roomId));
    }

    /** Notes that the room was at {@code rev} and {@code lastSeq} before this node's sockets could hear of it. */
    void baseline(String tenantId, String roomId, long rev, long lastSeq) {
        Room room = room(tenantId, roomId);
        synchronized (room) {
            room.noteThrough(rev);
            room.seqFloor = Math.max(room.seqFloor, lastSeq);
            room.seqs.headSet(room.seqFloor, true).clear();
        }
    }

    /** Returns the rooms whose oldest hole is older than {@link #HOLE_GRACE_NANOS} now. */
    List<Room> holesOlderThanGrace() {
        long nowNanos = nanoTime.getAsLong();
        List<Room> due = new ArrayList<>();
        for (Room room : holes) {
            synchronized (room) {
                if (room.holeSince != 0 && nowNanos - room.holeSince >= HOLE_GRACE_NANOS) {
                    due.add(room);
                }
            }
        }
        return due;
    }

    /**
     * One room's delivered revisions. Callers that test and then note (deliver once) hold its monitor across
     * both, so that an event is handed to the sockets by exactly one of the threads that have it.
     */
    final class Room {
        final String tenantId;
        final String roomId;
        // Guarded by this.
        private long revFloor;
        private final TreeSet<Long> revs = new TreeSet<>();
        private long seqFloor;
        private final TreeSet<Long> seqs = new TreeSet<>();
        private long holeSince;

        private Room(String tenantId, String roomId) {
            this.tenantId = tenantId;
            this.roomId = roomId;
        }

        /** Returns whether revision {@code rev} was handed to the sockets (or came before them). */
        synchronized boolean has(long rev) {
            return rev <= revFloor || revs.contains(rev);
        }

        /** Returns whether the new message of seq {@code seq} was handed to the sockets (or came before them). */
        synchronized boolean hasSeq(long seq) {
            return seq <= seqFloor || seqs.contains(seq);
        }

        /** Returns the revision up to which every one was handed to the sockets. */
        synchronized long floor() {
            return revFloor;
        }

        /** Notes revision {@code rev}, and seq {@code seq} when it is a new message ({@code seq} > 0). */
        synchronized void note(long rev, long seq) {
            if (rev == revFloor + 1 && revs.isEmpty()) {
                revFloor = rev; // the common case: in order, no set
            } else if (rev > revFloor) {
                revs.add(rev);
                while (!revs.isEmpty() && revs.first() == revFloor + 1) {
                    revFloor = revs.pollFirst();
                }
            }
            if (seq > seqFloor) {
                seqs.add(seq);
                while (!seqs.isEmpty() && seqs.first() == seqFloor + 1) {
                    seqFloor = seqs.pollFirst();
                }
            }
            holeChanged();
        }

        /** Notes every revision up to {@code rev} (read from the database: later versions replaced the rest). */
        synchronized void noteThrough(long rev) {
            if (rev <= revFloor) {
                return;
            }
            revFloor = rev;
            revs.headSet(rev, true).clear();
            while (!revs.isEmpty() && revs.first() == revFloor + 1) {
                revFloor = revs.pollFirst();
            }
            holeChanged();
        }

        private void holeChanged() {
            if (revs.isEmpty()) {
                holeSince = 0;
                holes.remove(this);
            } else if (holeSince == 0) {
                holeSince = Math.max(1, nanoTime.getAsLong());
                holes.add(this);
            }
        }
    }
}
