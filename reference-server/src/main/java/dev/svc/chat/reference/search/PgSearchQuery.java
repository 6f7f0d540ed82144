package dev.svc.chat.reference.search;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.postgresql.PGStatement;

/**
 * One search of {@link PgSearchIndex}, in two steps that together give exactly the newest matches.
 *
 * <p>First the walk: the rooms' rows newest first (a merge of each room's backward scan of the time index
 * {@code message_search_room_time}, at most {@value #CHUNK} rooms a statement), each row tested against the
 * query and the filters, stopping at the page's last match or after {@link #WINDOW} rows (shared by the walks of
 * a user in more rooms). A common word fills the page within a few dozen rows. The walk is exact down to where it
 * stopped (every row newer was tested).
 *
 * <p>Then, only when the walk stopped at its window without a full page, the GIN index for what is older: one
 * bitmap of the tsquery over the whole table, ANDed with the rooms' rows, sorted by time. This is cheap for the
 * words the walk could not find (under one row in {@code WINDOW / max} of the rooms' newest). It is planned
 * with the query's own words (never a generic plan: PostgreSQL's generic plan of {@code words @@ $1} assumes a
 * rare word and, for a common one, reads the whole posting list).
 *
 * <p>A query that PostgreSQL's statistics say is rare ({@link WordShares}: a word of it is in fewer rows than
 * {@code max / WINDOW}, so the walk would not fill the page) skips the walk and reads the GIN index at once: its
 * posting list is short, and the walk's rows would all be read for nothing.
 *
 * <p>The order is {@code createdAt} descending, then {@code seq}, then room id (bytewise: the column's collation
 * is "C"), as {@link SearchIndex} says.
 */
final class PgSearchQuery {

    /** The most rows a walk tests before it gives over to the GIN index. */
    static final int WINDOW = 2000;
    /** The most rooms one walk statement merges (its text has a branch per room). */
    static final int CHUNK = 32;
    /** A room id no room has (room ids are not empty): pads a walk to a power of two of branches. */
    private static final String NO_ROOM = "";

    private static final Comparator<SearchIndex.Position> NEWEST_FIRST = Comparator
            .comparingLong(SearchIndex.Position::createdAtMillis)
            .thenComparingLong(SearchIndex.Position::seq)
            .thenComparing(SearchIndex.Position::roomId, PgSearchQuery::compareBytewise)
            .reversed();

    private final SearchIndex.Request request;
    private final String tsquery;
    private final int window;
    private final int chunk;
    private final WordShares.Reading shares;

    PgSearchQuery(SearchIndex.Request request, String tsquery, int window, int chunk, WordShares.Reading shares) {
        this.request = request;
        this.tsquery = tsquery;
        this.window = window;
        this.chunk = chunk;
        this.shares = shares;
    }

    /** Returns whether the statistics say the walk's window would hold fewer matches than a page. */
    boolean rare() {
        return shares.rarerThan(request.terms(), (double) request.max() / window);
    }

    /** What a walk found: its matches newest first, and the oldest place it is exact down to (null: all). */
    private record Walked(List<SearchIndex.Hit> hits, SearchIndex.Position exactTo) {
    }

    /** Returns the newest matches, at most {@code request.max()}, in the order. */
    List<SearchIndex.Hit> run(Connection c) throws SQLException {
        if (rare()) {
            return indexed(c, request.after(), request.max());
        }
        List<String> rooms = new ArrayList<>(request.roomIds());
        List<SearchIndex.Hit> candidates = new ArrayList<>();
        SearchIndex.Position exactTo = null;
        // the walks share the window: a user in many rooms tests no more rows before the GIN index than one in few
        int walks = (rooms.size() + chunk - 1) / chunk;
        int rows = Math.max(1, window / Math.max(1, walks));
        for (int from = 0; from < rooms.size(); from += chunk) {
            Walked walked = walk(c, rooms.subList(from, Math.min(rooms.size(), from + chunk)), rows);
            candidates.addAll(walked.hits());
            if (walked.exactTo() != null && (exactTo == null || NEWEST_FIRST.compare(walked.exactTo(), exactTo) < 0)) {
                exactTo = walked.exactTo();
            }
        }
        // every walk tested every row at or above the newest of their stopping places: no match is missing there
        SearchIndex.Position bound = exactTo;
        if (bound != null) {
            candidates.removeIf(hit -> NEWEST_FIRST.compare(hit.position(), bound) > 0);
        }
        candidates.sort(Comparator.comparing(SearchIndex.Hit::position, NEWEST_FIRST));
        if (candidates.size() >= request.max()) {
            return new ArrayList<>(candidates.subList(0, request.max()));
        }
        if (bound != null) {
            candidates.addAll(indexed(c, bound, request.max() - candidates.size()));
        }
        return candidates;
    }

    /**
     * Walks the rooms' rows newest first (after the request's cursor), testing each, and returns the matches up to
     * a page and where it stopped: at the page's last match, at the window's last row, or nowhere (the rooms'
     * rows ran out first).
     */
    private Walked walk(Connection c, List<String> rooms, int rows) throws SQLException {
        int branches = Integer.highestOneBit(rooms.size());
        branches = branches == rooms.size() ? branches : branches * 2;
        List<Object> params = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT message_id, created_ms, seq, room_id, hit, n FROM (SELECT"
                + " message_id, created_ms, seq, room_id, words @@ ?::tsquery");
        params.add(tsquery);
        if (request.senderId() != null) {
            sql.append(" AND sender_id = ?");
            params.add(request.senderId());
        }
        if (request.threadId() != null) {
            sql.append(" AND ").append(threadCondition("w"));
            params.add(request.threadId());
        }
        sql.append(" AS hit, row_number() OVER (ORDER BY created_ms DESC, seq DESC, room_id DESC) AS n FROM (SELECT *"
                + " FROM (");
        for (int i = 0; i < branches; i++) {
            sql.append(i == 0 ? "" : " UNION ALL ").append("(SELECT message_id, created_ms, seq, room_id, sender_id,"
                    + " tenant_id, words FROM message_search WHERE tenant_id = ? AND room_id = ?");
            params.add(request.tenantId());
            params.add(i < rooms.size() ? rooms.get(i) : NO_ROOM);
            if (request.after() != null) {
                // the first condition bounds the time index's scan; the second is the order's own
                sql.append(" AND created_ms <= ? AND (created_ms, seq, room_id) < (?, ?, ?)");
                params.add(request.after().createdAtMillis());
                params.add(request.after().createdAtMillis());
                params.add(request.after().seq());
                params.add(request.after().roomId());
            }
            sql.append(" ORDER BY created_ms DESC, seq DESC)");
        }
        sql.append(") u ORDER BY created_ms DESC, seq DESC, room_id DESC LIMIT ?) w) x WHERE hit OR n = ? LIMIT ?");
        params.add(rows);
        params.add(rows);
        // the page's matches and the window's last row (one more row at most: the walk stops right after the page)
        params.add(request.max() + 1);
        List<SearchIndex.Hit> hits = new ArrayList<>();
        SearchIndex.Position windowEnd = null;
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && hits.size() < request.max()) {
                    SearchIndex.Position position = new SearchIndex.Position(rs.getLong(2), rs.getLong(3),
                            rs.getString(4));
                    if (rs.getBoolean(5)) {
                        hits.add(new SearchIndex.Hit(rs.getString(1), position));
                    }
                    if (rs.getLong(6) == rows) {
                        windowEnd = position;
                    }
                }
            }
        }
        if (hits.size() >= request.max()) {
            return new Walked(hits, hits.get(hits.size() - 1).position());
        }
        return new Walked(hits, windowEnd);
    }

    /**
     * Returns the matches strictly after {@code after} (null: from the newest) in the order, at most {@code max}, by
     * the GIN index.
     */
    private List<SearchIndex.Hit> indexed(Connection c, SearchIndex.Position after, int max) throws SQLException {
        List<Object> params = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT message_id, created_ms, seq, room_id FROM message_search s"
                + " WHERE tenant_id = ? AND room_id = ANY(?) AND words @@ ?::tsquery");
        params.add(request.tenantId());
        params.add(c.createArrayOf("varchar", request.roomIds().toArray()));
        params.add(tsquery);
        if (request.senderId() != null) {
            sql.append(" AND sender_id = ?");
            params.add(request.senderId());
        }
        if (request.threadId() != null) {
            sql.append(" AND ").append(threadCondition("s"));
            params.add(request.threadId());
        }
        if (after != null) {
            sql.append(" AND created_ms <= ? AND (created_ms, seq, room_id) < (?, ?, ?)");
            params.add(after.createdAtMillis());
            params.add(after.createdAtMillis());
            params.add(after.seq());
            params.add(after.roomId());
        }
        sql.append(" ORDER BY created_ms DESC, seq DESC, room_id DESC LIMIT ?");
        params.add(max);
        List<SearchIndex.Hit> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            // never a server-side prepared statement, whose generic plan would not see the words' frequencies
            ps.unwrap(PGStatement.class).setPrepareThreshold(0);
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new SearchIndex.Hit(rs.getString(1),
                            new SearchIndex.Position(rs.getLong(2), rs.getLong(3), rs.getString(4))));
                }
            }
        }
        return out;
    }

    /** A reply's thread never changes: the messages table tells it, and no index column is needed. */
    private static String threadCondition(String alias) {
        return "EXISTS (SELECT 1 FROM messages m WHERE m.tenant_id = " + alias + ".tenant_id AND m.room_id = "
                + alias + ".room_id AND m.seq = " + alias + ".seq AND m.thread_id = ?)";
    }

    private static void bind(PreparedStatement ps, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            ps.setObject(i + 1, params.get(i));
        }
    }

    /** Compares as the "C" collation does: by UTF-8 bytes, which is by code points. */
    static int compareBytewise(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
