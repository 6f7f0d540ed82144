package dev.svc.chat.reference.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.Conditions;
import dev.svc.chat.reference.EmbeddedPg;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.JdbcStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL index's two-step search ({@link PgSearchQuery}): a walk of the rooms' newest rows, then the GIN
 * index for what the walk's window left. Whatever the window and the rooms a statement, every page is exactly the
 * newest matches after the cursor (ties in time across rooms and within a room included); and a word in more than
 * one message in a hundred is found by the walk alone, never by a scan of its posting list in the GIN index.
 */
class PgSearchQueryTest {

    private static final String TENANT = "t";
    private static final String[] FILLER = {"lorem", "ipsum", "dolor", "amet", "sit", "consectetur"};

    private final EmbeddedPg pg = EmbeddedPg.shared();
    private final String schema = "search_query_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
    private Database db;
    private JdbcStore store;

    @BeforeEach
    void open() {
        db = Database.postgres(pg.jdbcUrl(), pg.user(), null, schema);
        store = new JdbcStore(db);
        store.createTenant(new TenantRecord(TENANT, "sk_test_pg_query_key", new byte[32]),
                TenantSettings.defaults(true));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static List<JsonNode> text(String text) {
        return List.of(JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text));
    }

    /** A sent message with its words, for the expected answers. */
    private record Sent(Message message, List<String> words) {
        SearchIndex.Position position() {
            return new SearchIndex.Position(message.createdAt().toEpochMilli(), message.seq(), message.roomId());
        }
    }

    /** Seven rooms, messages two to a second (ties within a room and across rooms), words by a seeded draw. */
    private List<Sent> sendMessages() {
        Random random = new Random(11);
        List<Room> rooms = new ArrayList<>();
        for (int r = 0; r < 7; r++) {
            rooms.add(store.createRoom(TENANT, "room " + r, List.of("alice", "bob"), Instant.EPOCH));
        }
        List<Sent> sent = new ArrayList<>();
        for (int i = 0; i < 420; i++) {
            Room room = rooms.get(random.nextInt(i < 300 ? rooms.size() : 2));
            List<String> words = new ArrayList<>();
            words.add(FILLER[random.nextInt(FILLER.length)]);
            if (random.nextInt(10) < 8) {
                words.add("alpha");
            }
            if (random.nextInt(10) == 0) {
                words.add("beta");
            }
            if (random.nextInt(60) == 0) {
                words.add("gamma");
            }
            words.add(FILLER[random.nextInt(FILLER.length)]);
            String sender = random.nextBoolean() ? "alice" : "bob";
            Message m = store.appendMessage(TENANT, room.id(), sender, "c" + i, text(String.join(" ", words)),
                    Instant.ofEpochSecond(i / 2)).message();
            sent.add(new Sent(m, words));
        }
        return sent;
    }

    private static boolean consecutive(List<String> words, String first, String second) {
        for (int i = 0; i + 1 < words.size(); i++) {
            if (words.get(i).equals(first) && words.get(i + 1).equals(second)) {
                return true;
            }
        }
        return false;
    }

    private static Comparator<Sent> newestFirst() {
        return Comparator.comparing(Sent::position, Comparator.comparingLong(SearchIndex.Position::createdAtMillis)
                .thenComparingLong(SearchIndex.Position::seq)
                .thenComparing(SearchIndex.Position::roomId, PgSearchQuery::compareBytewise).reversed());
    }

    /** Pages through the whole answer, {@code max} at a time, each page after the last one's last hit. */
    private static List<String> allPages(SearchIndex index, Set<String> rooms, String sender, String q, int max) {
        List<String> out = new ArrayList<>();
        SearchIndex.Position after = null;
        while (true) {
            List<SearchIndex.Hit> page = index.search(new SearchIndex.Request(TENANT, rooms, sender, null,
                    QueryParser.parse(q), after, max));
            page.forEach(hit -> out.add(hit.messageId()));
            if (page.size() < max) {
                return out;
            }
            after = page.get(page.size() - 1).position();
        }
    }

    @Test
    void everyPageIsTheNewestMatchesWhateverTheWindowAndTheRoomsAStatement() {
        List<Sent> sent = sendMessages();
        // the default, a window of 5 rows and 3 rooms a walk (several walks, the GIN index after most), and a
        // window of one row and a room a walk; the last two with statistics (under them, most words are rare to
        // a window of 5 rows and all of them to one of 1: the GIN index alone), then without (the walk first)
        List<PgSearchIndex> indexes = List.of(new PgSearchIndex(db),
                new PgSearchIndex(db, 5, 3, WordShares.fromStatistics()),
                new PgSearchIndex(db, 1, 1, WordShares.fromStatistics()),
                new PgSearchIndex(db, 5, 3, WordShares.unknown()),
                new PgSearchIndex(db, 1, 1, WordShares.unknown()));
        assertEquals(sent.size(), IndexCatchUp.run(db, store, indexes.get(0), indexes.get(0).indexedRevs()));
        analyze();
        Set<String> allRooms = new LinkedHashSet<>();
        sent.forEach(s -> allRooms.add(s.message().roomId()));
        List<String> someRooms = new ArrayList<>(allRooms).subList(0, 4);
        List<Object[]> cases = List.of(
                new Object[] {"alpha", (Predicate<Sent>) s -> s.words().contains("alpha")},
                new Object[] {"beta", (Predicate<Sent>) s -> s.words().contains("beta")},
                new Object[] {"gamma", (Predicate<Sent>) s -> s.words().contains("gamma")},
                new Object[] {"alpha beta",
                    (Predicate<Sent>) s -> s.words().contains("alpha") && s.words().contains("beta")},
                new Object[] {"\"lorem alpha\"", (Predicate<Sent>) s -> consecutive(s.words(), "lorem", "alpha")},
                new Object[] {"gam*", (Predicate<Sent>) s -> s.words().contains("gamma")},
                new Object[] {"nowhere", (Predicate<Sent>) s -> false});
        for (Object[] c : cases) {
            String q = (String) c[0];
            @SuppressWarnings("unchecked")
            Predicate<Sent> matches = (Predicate<Sent>) c[1];
            for (Set<String> rooms : List.of(allRooms, Set.copyOf(someRooms), Set.of(someRooms.get(0)))) {
                for (String sender : Arrays.asList(null, "bob")) {
                    List<String> expected = sent.stream()
                            .filter(s -> rooms.contains(s.message().roomId()))
                            .filter(s -> sender == null || sender.equals(s.message().senderId()))
                            .filter(matches).sorted(newestFirst()).map(s -> s.message().id()).toList();
                    for (PgSearchIndex index : indexes) {
                        for (int max : new int[] {3, 21}) {
                            assertEquals(expected, allPages(index, rooms, sender, q, max),
                                    q + " in " + rooms.size() + " rooms, sender " + sender + ", pages of " + max);
                        }
                    }
                }
            }
        }
        assertTrue(sent.stream().filter(s -> s.words().contains("gamma")).count() >= 3, "the rare word is there");
    }

    @Test
    void wordsFoundAmongTheNewestRowsNeverScanTheGinIndex() throws Exception {
        List<String> rooms = rooms();
        int searches = 16;
        long[] before;
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), pg.user(), "")) {
            before = scans(c);
            // a pool of its own, closed before the statistics are read: a session reports them when it ends; its
            // prepared statements planned generically, as PostgreSQL comes to choose on a busy server (where rare
            // words made the statement's plans look dear)
            String genericPlans = pg.jdbcUrl() + "?options=-c%20plan_cache_mode%3Dforce_generic_plan";
            try (Database own = Database.postgres(genericPlans, pg.user(), null, schema)) {
                PgSearchIndex index = new PgSearchIndex(own);
                fill(index, rooms);
                analyze();
                // a word in one message in 50, then one in all: more searches than the driver's and the server's
                // thresholds for a prepared statement's generic plan
                for (int i = 0; i < searches; i++) {
                    assertEquals(21, index.search(new SearchIndex.Request(TENANT, Set.copyOf(rooms.subList(0, 3)),
                            null, null, QueryParser.parse(i < searches / 2 ? "fifty" : "common"), null, 21)).size());
                }
            }
            long[] after = reported(c, before, ROWS + searches);
            assertEquals(0, after[1] - before[1], "scans of the GIN index message_search_words");
        }
    }

    @Test
    void wordsTheStatisticsSayAreRareSkipTheWalk() throws Exception {
        List<String> rooms = rooms();
        Set<String> searched = Set.copyOf(rooms.subList(0, 3));
        int searches = 8;
        long[] before;
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), pg.user(), "")) {
            before = scans(c);
            try (Database own = Database.postgres(pg.jdbcUrl(), pg.user(), null, schema)) {
                PgSearchIndex index = new PgSearchIndex(own);
                fill(index, rooms);
                analyze();
                // under 21 rows in the default window of 2,000 (a share of 1.05 %): a word in one message in 200
                // and one in a single message (unlisted: no commoner than the least common listed); not a word in
                // one in 50 nor a prefix (many rare words can share it); a query with a rare word is rare
                WordShares.Reading reading = own.tx(WordShares::read);
                double share = 21.0 / PgSearchQuery.WINDOW;
                for (String q : List.of("common", "fifty", "wor*", "fifty common")) {
                    assertFalse(reading.rarerThan(QueryParser.parse(q), share), q + " by " + reading.unlisted());
                }
                for (String q : List.of("rarish", "word120", "\"common word120\"", "common rarish",
                        "fifty wor* rarish")) {
                    assertTrue(reading.rarerThan(QueryParser.parse(q), share), q + " by " + reading.unlisted());
                }
                // rarish is in rows 0, 200, 400, ...: of the rooms searched, room 0 has every 600th row
                List<String> newest = new ArrayList<>();
                for (int i = ROWS - 600; newest.size() < 21; i -= 600) {
                    newest.add("m" + i);
                }
                for (int i = 0; i < searches; i++) {
                    String q = i % 2 == 0 ? "rarish" : "word120";
                    SearchIndex.Request request = new SearchIndex.Request(TENANT, searched, null, null,
                            QueryParser.parse(q), null, 21);
                    assertTrue(new PgSearchQuery(request, PgSearchIndex.tsquery(request.terms()),
                            PgSearchQuery.WINDOW, PgSearchQuery.CHUNK, reading).rare(), q);
                    List<String> found = new ArrayList<>();
                    index.search(request).forEach(hit -> found.add(hit.messageId()));
                    assertEquals(i % 2 == 0 ? newest : List.of("m120"), found, q);
                }
            }
            // none walked the rooms' time index (PostgreSQL reads the GIN index or, this table being small, all of it)
            long[] after = reported(c, before, ROWS);
            assertEquals(0, after[2] - before[2], "scans of the time index message_search_room_time");
        }
    }

    private static final int ROWS = 30_000;

    /** Thirty rooms (no room needs a row: the index is written straight). */
    private static List<String> rooms() {
        List<String> rooms = new ArrayList<>();
        for (int r = 0; r < 30; r++) {
            rooms.add("room-" + r);
        }
        return rooms;
    }

    /**
     * Enough rows for the planner to read the indexes, written straight to the index, 1,000 a room: "common" in
     * all, "fifty" in one in 50, "rarish" in one in 200, and a word of its own in each.
     */
    private static void fill(PgSearchIndex index, List<String> rooms) {
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            batch.add(new Message("m" + i, rooms.get(i % rooms.size()), i / rooms.size() + 1, 1, "alice",
                    text((i % 50 == 0 ? "fifty " : "") + (i % 200 == 0 ? "rarish " : "") + "common "
                            + FILLER[i % FILLER.length] + " word" + i),
                    "c" + i, Instant.ofEpochSecond(i), null, null, Map.of()));
            if (batch.size() == 1000) {
                index.writtenAll(TENANT, batch);
                batch.clear();
            }
        }
    }

    /** Waits until the index scans reported since {@code before} are at least {@code scans}; returns them. */
    private long[] reported(Connection c, long[] before, int scans) throws InterruptedException {
        long[][] after = {scans(c)};
        // each row's write looks its key up once; each search scans at least one index
        Conditions.until("the writes' and searches' index scans reported", Duration.ofSeconds(60), () -> {
            after[0] = scans(c);
            return after[0][0] - before[0] >= scans;
        }, () -> Arrays.toString(after[0]) + " after " + Arrays.toString(before));
        return after[0];
    }

    private void analyze() {
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), pg.user(), "");
             Statement s = c.createStatement()) {
            s.execute("ANALYZE " + schema + ".message_search");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Returns the index scans of {@code message_search} reported so far: all of its indexes, its GIN index, its time
     * index.
     */
    private long[] scans(Connection c) {
        try {
            return readScans(c);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private long[] readScans(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_stat_clear_snapshot()");
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(SUM(idx_scan), 0), COALESCE(SUM(idx_scan)"
                + " FILTER (WHERE indexrelname = 'message_search_words'), 0), COALESCE(SUM(idx_scan) FILTER (WHERE"
                + " indexrelname = 'message_search_room_time'), 0) FROM pg_stat_user_indexes"
                + " WHERE schemaname = ? AND relname = 'message_search'")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
            }
        }
    }
}
