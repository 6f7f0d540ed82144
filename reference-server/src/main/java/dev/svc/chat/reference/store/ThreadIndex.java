package dev.svc.chat.reference.store;

import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.MessagePage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * One room's threads in {@link InMemoryStore}: the seqs of each root's replies, ascending, and which seqs are
 * replies at all; with the paging of {@link Store#messages(String, String, PageRequest, String)} over them.
 * Not thread-safe: its room's monitor guards it.
 */
final class ThreadIndex {

    private static final int[] NONE = new int[0];

    private final Map<Integer, int[]> repliesByRoot = new HashMap<>();
    private final Map<Integer, Integer> countByRoot = new HashMap<>();
    private final BitSet replies = new BitSet();

    /** Records the reply at {@code seq} (the room's newest) to the root at {@code rootSeq}. */
    void add(int rootSeq, int seq) {
        int n = countByRoot.getOrDefault(rootSeq, 0);
        int[] seqs = repliesByRoot.getOrDefault(rootSeq, NONE);
        if (n == seqs.length) {
            seqs = Arrays.copyOf(seqs, Math.max(4, n * 2));
            repliesByRoot.put(rootSeq, seqs);
        }
        seqs[n] = seq;
        countByRoot.put(rootSeq, n + 1);
        replies.set(seq);
    }

    /** Returns the seqs of the root's replies, ascending (a copy; empty for no root or no reply). */
    int[] replies(int rootSeq) {
        int n = countByRoot.getOrDefault(rootSeq, 0);
        return n == 0 ? NONE : Arrays.copyOf(repliesByRoot.get(rootSeq), n);
    }

    /** Returns one page of the replies {@code seqs} (ascending), read through {@code read}. */
    static MessagePage page(int[] seqs, PageRequest page, LongFunction<Message> read) {
        int from;
        int to;
        boolean hasMore;
        if (page.after() != null) {
            from = firstAbove(seqs, page.after());
            to = Math.min(seqs.length, from + page.limit());
            hasMore = to < seqs.length;
        } else {
            to = page.before() != null ? firstAbove(seqs, page.before() - 1) : seqs.length;
            from = Math.max(0, to - page.limit());
            hasMore = from > 0;
        }
        List<Message> out = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            out.add(read.apply(seqs[i]));
        }
        return new MessagePage(out, hasMore);
    }

    /** Returns one page of the messages that are no reply, of a room whose last seq is {@code count}. */
    MessagePage mainPage(int count, PageRequest page, LongFunction<Message> read) {
        List<Message> out = new ArrayList<>();
        boolean hasMore = false;
        if (page.after() != null) {
            long seq = Math.max(0, page.after());
            while (++seq <= count) {
                if (!replies.get((int) seq)) {
                    if (out.size() == page.limit()) {
                        hasMore = true;
                        break;
                    }
                    out.add(read.apply(seq));
                }
            }
            return new MessagePage(out, hasMore);
        }
        long seq = page.before() != null ? Math.min(count + 1L, Math.max(1, page.before())) : count + 1L;
        while (--seq >= 1) {
            if (!replies.get((int) seq)) {
                if (out.size() == page.limit()) {
                    hasMore = true;
                    break;
                }
                out.add(read.apply(seq));
            }
        }
        Collections.reverse(out);
        return new MessagePage(out, hasMore);
    }

    /** Returns the index of the first of {@code seqs} (ascending) above {@code bound}. */
    private static int firstAbove(int[] seqs, long bound) {
        int i = Arrays.binarySearch(seqs, (int) Math.max(0, Math.min(Integer.MAX_VALUE, bound)));
        return i >= 0 ? i + 1 : -i - 1;
    }
}
