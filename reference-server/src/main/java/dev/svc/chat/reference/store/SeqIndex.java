package dev.svc.chat.reference.store;

import java.util.function.IntPredicate;

/**
 * A hash index from a key to the seq of a room's message, in two int arrays (open addressing, linear probing):
 * eight bytes a slot and no object per entry, where a hash map kept an entry object, a key string and its bytes.
 * It holds only the keys' hashes, so two keys may share one: {@link #find} offers every seq stored under the hash
 * to the caller, in the order they were added, who compares the key with the message's. Never shrinks (a room's messages are never removed).
 * Not thread-safe: its room's monitor guards it.
 */
final class SeqIndex {

    private int[] hashes = new int[8];
    private int[] seqs = new int[8];
    private int size;

    /** Returns the hash of a key as this index stores it: spread, and never 0 (0 marks a free slot). */
    static int spread(int hash) {
        int h = hash * 0x9E3779B9;
        h ^= h >>> 16;
        return h == 0 ? 1 : h;
    }

    /** Adds {@code seq} under {@code hash} (from {@link #spread}); a hash may hold several seqs. */
    void add(int hash, int seq) {
        if ((size + 1) * 2 > hashes.length) {
            grow();
        }
        insert(hashes, seqs, hash, seq);
        size++;
    }

    /** Returns the first seq under {@code hash} that {@code matches} accepts, or 0 when none does. */
    int find(int hash, IntPredicate matches) {
        int mask = hashes.length - 1;
        for (int i = hash & mask; hashes[i] != 0; i = (i + 1) & mask) {
            if (hashes[i] == hash && matches.test(seqs[i])) {
                return seqs[i];
            }
        }
        return 0;
    }

    private void grow() {
        int[] oldHashes = hashes;
        int[] oldSeqs = seqs;
        int oldMask = oldHashes.length - 1;
        hashes = new int[oldHashes.length * 2];
        seqs = new int[oldHashes.length * 2];
        // From a free slot on (there is one: the table is at most half full), so that a run of slots that wrapped
        // past the end is re-inserted in its probe order: entries of one hash keep the order they were added in.
        int start = 0;
        while (oldHashes[start] != 0) {
            start++;
        }
        for (int k = 1; k <= oldHashes.length; k++) {
            int i = (start + k) & oldMask;
            if (oldHashes[i] != 0) {
                insert(hashes, seqs, oldHashes[i], oldSeqs[i]);
            }
        }
    }

    private static void insert(int[] hashes, int[] seqs, int hash, int seq) {
        int mask = hashes.length - 1;
        int i = hash & mask;
        while (hashes[i] != 0) {
            i = (i + 1) & mask;
        }
        hashes[i] = hash;
        seqs[i] = seq;
    }
}
