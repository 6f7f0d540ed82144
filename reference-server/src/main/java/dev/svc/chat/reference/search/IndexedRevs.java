package dev.svc.chat.reference.search;

import java.util.Arrays;

/**
 * The newest revision an index holds of each message of one room, by seq (a room's seqs run from 1 without a
 * gap, so an array is 8 bytes a message). A write of a message checks and records its revision here, and
 * writes the index, under this object's lock: of two writes of one message in either order, the newer stays.
 */
final class IndexedRevs {

    private long[] revs = new long[16];

    /**
     * Records {@code rev} for {@code seq} if it is newer than the revision held: returns the revision held
     * before (0 for none), or -1 when {@code rev} is not newer (nothing recorded).
     */
    long advance(long seq, long rev) {
        if (seq < 1 || seq >= Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a seq out of the index's range: " + seq);
        }
        int at = (int) seq;
        if (at >= revs.length) {
            long grown = Math.min(Integer.MAX_VALUE - 8, Math.max(at + 1L, revs.length * 2L));
            revs = Arrays.copyOf(revs, (int) grown);
        }
        long held = revs[at];
        if (held >= rev) {
            return -1;
        }
        revs[at] = rev;
        return held;
    }
}
