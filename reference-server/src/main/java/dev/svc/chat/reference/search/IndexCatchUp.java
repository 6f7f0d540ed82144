package dev.svc.chat.reference.search;

import dev.svc.chat.reference.model.ChangesPage;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.Store;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Brings an index up to the messages at start: every room whose rev is above the rev the index holds for it
 * has its changes since then written to the index (all of them for an index made anew). This is how the
 * index survives a kill between a message's commit and the index's, and how a missing index is rebuilt.
 */
public final class IndexCatchUp {

    private static final int PAGE = 500;

    private IndexCatchUp() {
    }

    private record RoomRev(String tenantId, String roomId, long rev) {
    }

    /**
     * Writes to {@code index} every change of every room of {@code database} above {@code indexedRevs} (keys
     * {@code tenantId + "\u0000" + roomId}, absent meaning nothing), read through {@code store}; returns the
     * number of messages written.
     */
    public static long run(Database database, Store store, SearchIndex index, Map<String, Long> indexedRevs) {
        List<RoomRev> rooms = database.tx(c -> {
            List<RoomRev> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT tenant_id, id, rev FROM rooms");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new RoomRev(rs.getString(1), rs.getString(2), rs.getLong(3)));
                }
            }
            return out;
        });
        long written = 0;
        for (RoomRev room : rooms) {
            long since = indexedRevs.getOrDefault(LuceneIndex.roomKey(room.tenantId(), room.roomId()), 0L);
            while (since < room.rev()) {
                ChangesPage page = store.changes(room.tenantId(), room.roomId(), since, PAGE);
                index.writtenAll(room.tenantId(), page.messages());
                for (Message message : page.messages()) {
                    since = Math.max(since, message.rev());
                }
                written += page.messages().size();
                if (!page.hasMore()) {
                    break;
                }
            }
        }
        return written;
    }
}
