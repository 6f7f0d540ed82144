package dev.svc.chat.reference.store;

import java.util.Arrays;

/**
 * Which message of a room took each revision, for {@link MemoryRoom#changes}: revs run from 1 without holes, so
 * an array indexed by rev holds the seq of the message whose latest change took that rev, or 0 once the message
 * changed again (each message is found once, under its latest rev). Four bytes a revision, where a sorted map
 * kept an entry and a boxed key per message; reading the changes after a rev scans the revs after it, which is
 * the number of changes since then. Not thread-safe: its room's monitor guards it.
 */
final class RevisionIndex {

    private int[] seqByRev = new int[16];
    private int last;

    /** Records that {@code rev} (the room's next one) is the latest of the message at {@code seq}. */
    void add(long rev, long seq) {
        if (rev != last + 1L) {
            throw new IllegalStateException("rev " + rev + " after " + last);
        }
        if (last == seqByRev.length) {
            seqByRev = Arrays.copyOf(seqByRev, Math.max(16, last + (last >> 1)));
        }
        seqByRev[last++] = Math.toIntExact(seq);
    }

    /** Forgets {@code rev}: its message took a later one. */
    void supersede(long rev) {
        seqByRev[Math.toIntExact(rev - 1)] = 0;
    }

    /** Returns the first rev after {@code rev} that is still a message's latest, or 0 when there is none. */
    long after(long rev) {
        for (long r = Math.max(0, rev); r < last; r++) {
            if (seqByRev[(int) r] != 0) {
                return r + 1;
            }
        }
        return 0;
    }

    /** Returns the seq of the message whose latest rev is {@code rev} (one {@link #after} returned). */
    int seq(long rev) {
        return seqByRev[(int) (rev - 1)];
    }
}
