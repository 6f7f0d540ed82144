package dev.svc.chat.reference.search;

import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The search index of the PostgreSQL backend, shared by every server of a cluster: PostgreSQL full-text
 * search over a {@code tsvector} per message with a GIN index, in the table {@code message_search} (made at
 * start if missing), beside an index of each room's rows by time, walked newest first ({@link PgSearchQuery}). The
 * vectors and queries are built from {@link Words}' folded words with their positions (never PostgreSQL's parser
 * or dictionaries, and so no {@code unaccent}: folding is done here), so that the cluster finds exactly what the
 * other backends find. A row is written after its message's commit, only over an older rev of it (servers may
 * write one message's versions in any order); a deleted message keeps a row with an empty vector, so that no
 * older version comes back.
 */
public final class PgSearchIndex implements SearchIndex {

    /** PostgreSQL's largest position in a tsvector; later words are all at it. */
    private static final int MAX_POSITION = 16383;

    private final Database database;
    private final int window;
    private final int chunk;
    private final WordShares shares;

    /** Makes the table and its index if missing (one server at a time). */
    public PgSearchIndex(Database database) {
        this(database, PgSearchQuery.WINDOW, PgSearchQuery.CHUNK, WordShares.fromStatistics());
    }

    /**
     * As the public constructor, with the walk's window and rooms a statement given (tests make them small), and
     * what tells a rare word.
     */
    PgSearchIndex(Database database, int window, int chunk, WordShares shares) {
        this.database = database;
        this.window = window;
        this.chunk = chunk;
        this.shares = shares;
        database.tx(c -> {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(7202611)")) {
                lock.execute();
            }
            try (PreparedStatement ps = c.prepareStatement("CREATE TABLE IF NOT EXISTS message_search ("
                    + " tenant_id VARCHAR(64) NOT NULL, room_id VARCHAR(36) COLLATE \"C\" NOT NULL,"
                    + " seq BIGINT NOT NULL, message_id VARCHAR(36) NOT NULL, sender_id VARCHAR NOT NULL,"
                    + " created_ms BIGINT NOT NULL, rev BIGINT NOT NULL, words TSVECTOR NOT NULL,"
                    + " PRIMARY KEY (tenant_id, room_id, seq))")) {
                ps.execute();
            }
            try (PreparedStatement ps = c.prepareStatement("CREATE INDEX IF NOT EXISTS message_search_words"
                    + " ON message_search USING GIN (words)")) {
                ps.execute();
            }
            // a room's rows newest first, for a common word's search (see search)
            try (PreparedStatement ps = c.prepareStatement("CREATE INDEX IF NOT EXISTS message_search_room_time"
                    + " ON message_search (tenant_id, room_id, created_ms, seq)")) {
                ps.execute();
            }
            return null;
        });
    }

    /** Returns the highest rev of each room's rows ({@code tenantId + "\u0000" + roomId}). */
    public Map<String, Long> indexedRevs() {
        return database.tx(c -> {
            Map<String, Long> out = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT tenant_id, room_id, MAX(rev) FROM message_search GROUP BY tenant_id, room_id");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(LuceneIndex.roomKey(rs.getString(1), rs.getString(2)), rs.getLong(3));
                }
            }
            return out;
        });
    }

    @Override
    public void written(String tenantId, Message m) {
        writtenAll(tenantId, List.of(m));
    }

    /** Writes the messages' rows in one transaction, a batch of statements (a page of the catch-up at start). */
    @Override
    public void writtenAll(String tenantId, List<Message> messages) {
        if (messages.isEmpty()) {
            return;
        }
        List<String> vectors = new ArrayList<>(messages.size());
        messages.forEach(m -> vectors.add(vector(MessageText.words(m))));
        database.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO message_search (tenant_id, room_id, seq,"
                    + " message_id, sender_id, created_ms, rev, words) VALUES (?, ?, ?, ?, ?, ?, ?, ?::tsvector)"
                    + " ON CONFLICT (tenant_id, room_id, seq) DO UPDATE SET rev = EXCLUDED.rev,"
                    + " words = EXCLUDED.words WHERE message_search.rev < EXCLUDED.rev")) {
                for (int i = 0; i < messages.size(); i++) {
                    Message m = messages.get(i);
                    ps.setString(1, tenantId);
                    ps.setString(2, m.roomId());
                    ps.setLong(3, m.seq());
                    ps.setString(4, m.id());
                    ps.setString(5, m.senderId());
                    ps.setLong(6, m.createdAt().toEpochMilli());
                    ps.setLong(7, m.rev());
                    ps.setString(8, vectors.get(i));
                    if (messages.size() == 1) {
                        ps.executeUpdate();
                    } else {
                        ps.addBatch();
                    }
                }
                if (messages.size() > 1) {
                    ps.executeBatch();
                }
            }
            return null;
        });
    }

    /** Returns the tsvector text of the words: each quoted lexeme with its position (from 1). */
    static String vector(List<MessageText.Positioned> words) {
        StringBuilder out = new StringBuilder();
        for (MessageText.Positioned word : words) {
            if (out.length() > 0) {
                out.append(' ');
            }
            out.append(lexeme(word.word())).append(':').append(Math.min(word.position() + 1, MAX_POSITION));
        }
        return out.toString();
    }

    /** Returns the tsquery text of the terms: all of them, phrases as followed-by chains, prefixes as {@code :*}. */
    static String tsquery(SearchTerms terms) {
        List<String> out = new ArrayList<>();
        for (SearchTerms.Term term : terms.terms()) {
            if (term.prefix()) {
                out.add(lexeme(term.words().get(0)) + ":*");
            } else {
                List<String> words = new ArrayList<>();
                term.words().forEach(w -> words.add(lexeme(w)));
                out.add("(" + String.join(" <-> ", words) + ")");
            }
        }
        return String.join(" & ", out);
    }

    private static String lexeme(String word) {
        return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    /**
     * The newest matches by {@link PgSearchQuery}: a walk of the rooms' newest rows, then the GIN index if need be;
     * the GIN index alone for a word the statistics say is rare.
     */
    @Override
    public List<Hit> search(Request request) {
        return database.tx(c -> new PgSearchQuery(request, tsquery(request.terms()), window, chunk,
                shares.current(c)).run(c));
    }
}
