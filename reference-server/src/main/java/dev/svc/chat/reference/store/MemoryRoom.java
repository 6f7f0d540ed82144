package dev.svc.chat.reference.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.model.ChangesPage;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.MessagePage;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.RoomPosition;
import dev.svc.chat.reference.model.ThreadSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;

/**
 * One room of {@link InMemoryStore}: its members, messages (seq n at index n - 1: seqs have no holes), revision
 * counter and receipts. Every access holds its monitor; the methods here take it themselves, and the store
 * holds it around a membership change and its tenant's index.
 * Its messages are packed ({@link PackedMessages}): about 330 bytes a message in a few large arrays, indexed by
 * seq, id and idempotency key, and four bytes a revision.
 */
final class MemoryRoom {

    final String id;
    private final String name;
    private final Instant createdAt;
    /** Guarded by this; changed by the store with the tenant's index, through the methods below. */
    private final LinkedHashSet<String> members = new LinkedHashSet<>();
    // An immutable copy of members that every snapshot shares until the members change (null: make it again),
    // so that a send does not copy a room's member list: 40 KB for a room of 10,000.
    private List<String> memberList;
    private final PackedMessages messages;
    private final Map<String, Receipt> receipts = new HashMap<>();
    private final RevisionIndex revisions = new RevisionIndex();
    private final ThreadIndex threads = new ThreadIndex();
    private Instant lastMessageAt;
    private long rev;

    MemoryRoom(String name, Instant createdAt) {
        this(UUID.randomUUID().toString(), name, createdAt);
    }

    MemoryRoom(String id, String name, Instant createdAt) {
        this.id = id;
        this.name = name;
        this.createdAt = createdAt;
        this.messages = new PackedMessages(id);
    }

    /** Returns an immutable snapshot of the room. */
    synchronized Room snapshot() {
        // Room's own List.copyOf keeps an unmodifiable list as it is.
        return new Room(id, name, memberIds(), createdAt, messages.size(), lastMessageAt, rev);
    }

    /**
     * Returns where the room stands if {@code userId} is a member, else null (the tenant's index of the user's
     * rooms is updated under this monitor, so a racing removal is honoured here).
     */
    synchronized RoomPosition positionFor(String userId) {
        return members.contains(userId) ? new RoomPosition(id, messages.size(), rev) : null;
    }

    /** Adds a member; returns whether it was not one. */
    synchronized boolean addMember(String userId) {
        boolean added = members.add(userId);
        if (added) {
            memberList = null;
        }
        return added;
    }

    /** Removes a member; returns whether it was one. */
    synchronized boolean removeMember(String userId) {
        boolean removed = members.remove(userId);
        if (removed) {
            memberList = null;
        }
        return removed;
    }

    /** Returns whether {@code userId} is a member. */
    synchronized boolean hasMember(String userId) {
        return members.contains(userId);
    }

    /** Returns the members in the order they were added (immutable). */
    synchronized List<String> memberIds() {
        if (memberList == null) {
            memberList = List.copyOf(members);
        }
        return memberList;
    }

    /** Returns the message stored for that idempotency key, if any. */
    synchronized Optional<Message> messageByClientId(String senderId, String clientMessageId) {
        int seq = messages.seqOfClientId(senderId, clientMessageId);
        return seq == 0 ? Optional.empty() : Optional.of(messages.get(seq));
    }

    /**
     * Appends a message with the next seq and rev unless its idempotency key is stored; a reply changes its root
     * at the rev after (see {@link Store}).
     */
    synchronized AppendResult append(String senderId, String clientMessageId, List<JsonNode> parts,
                                     MessageLinks links, Instant now) {
        int first = messages.seqOfClientId(senderId, clientMessageId);
        if (first != 0) {
            return new AppendResult(messages.get(first), false, snapshot());
        }
        Message root = links.threadId() == null ? null : openRoot(links.threadId());
        long seq = messages.size() + 1L;
        Message message = new Message(UUID.randomUUID().toString(), id, seq, ++rev, senderId, parts,
                clientMessageId, now, null, null, Map.of(), links.replyToId(), links.threadId(), links.mentions(),
                null);
        messages.append(message);
        revisions.add(message.rev(), seq);
        lastMessageAt = now;
        Message changedRoot = null;
        if (root != null) {
            threads.add((int) root.seq(), (int) seq);
            changedRoot = store(root.withThread(ThreadSummary.afterReply(root.thread(), senderId, now)));
        }
        return new AppendResult(message, true, snapshot(), changedRoot);
    }

    /** Returns the root {@code threadId} names if it takes replies, else throws {@link ClosedThreadException}. */
    private Message openRoot(String threadId) {
        int rootSeq = messages.seqOfId(threadId);
        Message root = rootSeq == 0 ? null : messages.get(rootSeq);
        if (root == null || root.threadId() != null) {
            throw new ClosedThreadException("threadId is not a root message of this room", false);
        }
        if (root.deletedAt() != null) {
            throw new ClosedThreadException("The thread's root is deleted", true);
        }
        return root;
    }

    /** Returns a page of the thread {@code threadId} (its replies), or of the messages that are no reply. */
    synchronized MessagePage messages(PageRequest page, String threadId) {
        if (threadId == null) {
            return threads.mainPage(messages.size(), page, messages::get);
        }
        return ThreadIndex.page(threads.replies(messages.seqOfId(threadId)), page, messages::get);
    }

    /** Returns one page of the room's history. */
    synchronized MessagePage messages(PageRequest page) {
        int count = messages.size();
        int from;
        int to;
        boolean hasMore;
        if (page.after() != null) {
            from = (int) Math.min(count, Math.max(0, page.after()));
            to = Math.min(count, from + page.limit());
            hasMore = to < count;
        } else {
            to = page.before() != null ? (int) Math.min(count, Math.max(0, page.before() - 1)) : count;
            from = Math.max(0, to - page.limit());
            hasMore = from > 0;
        }
        List<Message> out = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            out.add(messages.get(i + 1L));
        }
        return new MessagePage(out, hasMore);
    }

    /** Returns the message with that id. */
    synchronized Optional<Message> message(String messageId) {
        int seq = messages.seqOfId(messageId);
        return seq == 0 ? Optional.empty() : Optional.of(messages.get(seq));
    }

    /**
     * Replaces a stored message with {@code updated} at the room's next rev, keeping the summary it has as a root;
     * deleting a reply recounts its root at the rev after (see {@link Store#changeMessage}).
     */
    synchronized ChangeResult change(Message updated) {
        int seq = messages.seqOfId(updated.id());
        if (seq == 0 || seq != updated.seq()) {
            throw new NoSuchElementException("no message " + updated.id());
        }
        Message current = messages.get(seq);
        Message stored = store(updated.withThread(current.thread()));
        Message root = null;
        if (current.threadId() != null && current.deletedAt() == null && stored.deletedAt() != null) {
            int rootSeq = messages.seqOfId(current.threadId());
            if (rootSeq != 0) {
                root = store(messages.get(rootSeq).withThread(recount(rootSeq)));
            }
        }
        return new ChangeResult(stored, root);
    }

    /** Counts the root's remaining replies, newest first. */
    private ThreadSummary recount(int rootSeq) {
        int[] seqs = threads.replies(rootSeq);
        ThreadSummary.Tally tally = new ThreadSummary.Tally();
        for (int i = seqs.length - 1; i >= 0; i--) {
            Message reply = messages.get(seqs[i]);
            if (reply.deletedAt() == null) {
                tally.add(reply.senderId(), reply.createdAt());
            }
        }
        return tally.summary();
    }

    /** Stores {@code updated} (an existing message) at the room's next rev; returns the stored message. */
    private Message store(Message updated) {
        int seq = Math.toIntExact(updated.seq());
        Message stored = updated.withRev(rev + 1);
        long superseded = messages.rev(seq);
        // First, as it may refuse the change (another sender or key): then the room's rev has not moved.
        messages.replace(stored);
        rev = stored.rev();
        // The index holds each message once, under its latest rev.
        revisions.supersede(superseded);
        revisions.add(stored.rev(), seq);
        return stored;
    }

    /** Returns the messages changed after rev {@code since}, each once in its latest state (see {@link Store}). */
    synchronized ChangesPage changes(long since, int limit) {
        List<Message> changed = new ArrayList<>();
        long next = revisions.after(since);
        while (next != 0 && changed.size() < limit) {
            changed.add(messages.get(revisions.seq(next)));
            next = revisions.after(next);
        }
        return new ChangesPage(changed, rev, next != 0);
    }

    /** Returns the user's read receipt, if any. */
    synchronized Optional<Receipt> receipt(String userId) {
        return Optional.ofNullable(receipts.get(userId));
    }

    /** Stores a read receipt, replacing the user's previous one. */
    synchronized void putReceipt(Receipt receipt) {
        receipts.put(receipt.userId(), receipt);
    }

    /** Returns the receipts of the current members who have one, in the order of the members. */
    synchronized List<Receipt> receipts() {
        List<Receipt> out = new ArrayList<>();
        for (String member : members) {
            Receipt receipt = receipts.get(member);
            if (receipt != null) {
                out.add(receipt);
            }
        }
        return out;
    }
}
