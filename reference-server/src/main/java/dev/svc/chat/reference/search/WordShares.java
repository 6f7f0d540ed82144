package dev.svc.chat.reference.search;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * What PostgreSQL's statistics of {@code message_search.words} tell of a word's share of the rows: the column's
 * most common lexemes and the share of rows each is in ({@code pg_stats.most_common_elems}, written by
 * {@code ANALYZE}, which autovacuum runs as the table grows), read again at most every {@link #REFRESH_NANOS}.
 * A lexeme not in the list is taken to be in no more rows than the least common one listed (the list keeps the
 * commonest lexemes of the sample).
 *
 * <p>It only chooses between two plans of {@link PgSearchQuery} that give the same answer: statistics that are
 * stale or missing cost time, never a match.
 */
final class WordShares {

    /** How long a reading of the statistics is used (ANALYZE changes them rarely). */
    static final long REFRESH_NANOS = 30_000_000_000L;

    /**
     * One reading.
     *
     * @param shares the listed lexemes' shares of the rows
     * @param unlisted the share no unlisted lexeme is taken to exceed (1 without statistics: nothing is known rare)
     */
    record Reading(Map<String, Double> shares, double unlisted) {

        static final Reading NONE = new Reading(Map.of(), 1);

        /** Returns the share of the rows the word is taken to be in, at most. */
        double share(String word) {
            Double share = shares.get(word);
            return share != null ? share : unlisted;
        }

        /**
         * Returns whether the terms match under {@code share} of the rows: some whole word or phrase word (they
         * must all match) is in fewer. A prefix tells nothing: many rare words can share it.
         */
        boolean rarerThan(SearchTerms terms, double share) {
            for (SearchTerms.Term term : terms.terms()) {
                if (term.prefix()) {
                    continue;
                }
                for (String word : term.words()) {
                    if (share(word) < share) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** Whether the statistics are read (else nothing is known rare). */
    private final boolean reads;
    private volatile Reading reading;
    private volatile long readAt;

    private WordShares(boolean reads) {
        this.reads = reads;
    }

    /** Returns the shares read from the statistics. */
    static WordShares fromStatistics() {
        return new WordShares(true);
    }

    /** Returns shares that know no word rare: every search walks first (tests compare the two ways). */
    static WordShares unknown() {
        return new WordShares(false);
    }

    /** Returns the reading, read again with {@code c} when older than {@link #REFRESH_NANOS}. */
    Reading current(Connection c) throws SQLException {
        if (!reads) {
            return Reading.NONE;
        }
        Reading r = reading;
        long now = System.nanoTime();
        if (r == null || now - readAt > REFRESH_NANOS) {
            r = read(c);
            reading = r;
            readAt = now;
        }
        return r;
    }

    /** Reads the statistics of the table in the connection's schema; {@link Reading#NONE} when there are none. */
    static Reading read(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT most_common_elems::text::text[],"
                + " most_common_elem_freqs FROM pg_stats WHERE schemaname = current_schema()"
                + " AND tablename = 'message_search' AND attname = 'words'");
             ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return Reading.NONE;
            }
            Array elems = rs.getArray(1);
            Array freqs = rs.getArray(2);
            if (elems == null || freqs == null) {
                return Reading.NONE;
            }
            Object[] words = (Object[]) elems.getArray();
            Object[] shares = (Object[]) freqs.getArray();
            // the frequencies of the lexemes, then the least and the greatest of them
            if (shares.length < words.length + 1) {
                return Reading.NONE;
            }
            Map<String, Double> out = new HashMap<>();
            for (int i = 0; i < words.length; i++) {
                out.put((String) words[i], ((Number) shares[i]).doubleValue());
            }
            return new Reading(out, ((Number) shares[words.length]).doubleValue());
        }
    }
}
