package dev.svc.chat.reference.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A thread root's summary of its replies (contract section 10): the replies not deleted, the newest one's
 * {@code createdAt}, and their distinct senders, most recent first, at most {@value #MAX_PARTICIPANTS}.
 *
 * @param replyCount how many replies are not deleted
 * @param lastReplyAt the newest remaining reply's {@code createdAt}, null when none remains (written as null)
 * @param participantIds the distinct senders of the remaining replies, most recent first
 */
public record ThreadSummary(int replyCount, @JsonInclude(JsonInclude.Include.ALWAYS) Instant lastReplyAt,
                            List<String> participantIds) {

    /** The most participants a summary names. */
    public static final int MAX_PARTICIPANTS = 10;

    /** Copies the participants. */
    public ThreadSummary {
        participantIds = List.copyOf(participantIds);
    }

    /**
     * Returns the summary after a new reply by {@code senderId} at {@code createdAt}, the thread's newest, to a
     * root whose summary was {@code before} (null: none yet). Exact without reading the other replies: the new
     * sender comes first and the others keep their order, so the first ten stay the ten most recent.
     */
    public static ThreadSummary afterReply(ThreadSummary before, String senderId, Instant createdAt) {
        List<String> participants = new ArrayList<>(MAX_PARTICIPANTS);
        participants.add(senderId);
        if (before != null) {
            for (String p : before.participantIds()) {
                if (participants.size() < MAX_PARTICIPANTS && !p.equals(senderId)) {
                    participants.add(p);
                }
            }
        }
        return new ThreadSummary(before == null ? 1 : before.replyCount() + 1, createdAt, participants);
    }

    /**
     * Counts a thread's remaining (not deleted) replies given newest first: the one place both backends
     * compute a summary, so that they agree.
     */
    public static final class Tally {
        private int count;
        private Instant last;
        private final Set<String> participants = new LinkedHashSet<>();

        /** Counts the next remaining reply, each older than the one before. */
        public void add(String senderId, Instant createdAt) {
            if (count++ == 0) {
                last = createdAt;
            }
            if (participants.size() < MAX_PARTICIPANTS) {
                participants.add(senderId);
            }
        }

        /** Returns the summary of the replies counted. */
        public ThreadSummary summary() {
            return new ThreadSummary(count, last, new ArrayList<>(participants));
        }
    }
}
