package dev.svc.chat.reference.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.model.ChangesPage;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.MessagePage;
import dev.svc.chat.reference.model.Receipt;
import dev.svc.chat.reference.model.Room;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * One room of {@link InMemoryStore}: its members, messages (seq n at index n - 1: seqs have no holes), revision
 * counter and receipts. Every access holds its monitor; the methods here take it themselves, and the store
 * holds it around a membership change and its tenant's index.
 */
final class MemoryRoom {

    final String id;
    private final String name;
    private final Instant createdAt;
    /** Guarded by this; changed by the store with the tenant's index. */
    final LinkedHashSet<String> members = new LinkedHashSet<>();
    private final List<Message> messages = new ArrayList<>();
    private final Map<String, Message> byClientKey = new HashMap<>();
    private final Map<String, Long> seqById = new HashMap<>();
    private final Map<String, Receipt> receipts = new HashMap<>();
    // rev -> id of the message whose latest change took that rev; one entry per message, so that
    // changes() reads only what changed after a rev instead of scanning every message.
    private final NavigableMap<Long, String> idByRev = new TreeMap<>();
    private Instant lastMessageAt;
    private long rev;

    MemoryRoom(String name, Instant createdAt) {
        this.id = UUID.randomUUID().toString();
        this.name = name;
        this.createdAt = createdAt;
    }

    /** Returns an immutable snapshot of the room. */
    synchronized Room snapshot() {
        // One copy: Room's own List.copyOf keeps an unmodifiable list as it is.
        return new Room(id, name, List.copyOf(members), createdAt, messages.size(), lastMessageAt, rev);
    }

    /** Returns the message stored for that idempotency key, if any. */
    synchronized Optional<Message> messageByClientId(String senderId, String clientMessageId) {
        return Optional.ofNullable(byClientKey.get(clientKey(senderId, clientMessageId)));
    }

    /** Appends a message with the next seq and rev unless its idempotency key is stored (see {@link Store}). */
    synchronized AppendResult append(String senderId, String clientMessageId, List<JsonNode> parts, Instant now) {
        String key = clientKey(senderId, clientMessageId);
        Message first = byClientKey.get(key);
        if (first != null) {
            return new AppendResult(first, false, snapshot());
        }
        long seq = messages.size() + 1L;
        Message message = new Message(UUID.randomUUID().toString(), id, seq, ++rev, senderId, parts,
                clientMessageId, now, null, null, Map.of());
        messages.add(message);
        byClientKey.put(key, message);
        seqById.put(message.id(), seq);
        idByRev.put(message.rev(), message.id());
        lastMessageAt = now;
        return new AppendResult(message, true, snapshot());
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
        return new MessagePage(new ArrayList<>(messages.subList(from, to)), hasMore);
    }

    /** Returns the message with that id. */
    synchronized Optional<Message> message(String messageId) {
        Long seq = seqById.get(messageId);
        return seq == null ? Optional.empty() : Optional.of(messages.get((int) (seq - 1)));
    }

    /** Replaces a stored message with {@code updated} at the room's next rev; returns the stored message. */
    synchronized Message replace(Message updated) {
        Long seq = seqById.get(updated.id());
        if (seq == null || seq != updated.seq()) {
            throw new NoSuchElementException("no message " + updated.id());
        }
        int index = (int) (seq - 1);
        Message stored = updated.withRev(++rev);
        // The index holds each message once, under its latest rev.
        idByRev.remove(messages.get(index).rev());
        idByRev.put(stored.rev(), stored.id());
        messages.set(index, stored);
        byClientKey.put(clientKey(stored.senderId(), stored.clientMessageId()), stored);
        return stored;
    }

    /** Returns the messages changed after rev {@code since}, each once in its latest state (see {@link Store}). */
    synchronized ChangesPage changes(long since, int limit) {
        // Iterate rather than ask the tail's size(): a TreeMap view counts its entries one by one.
        Iterator<String> ids = idByRev.tailMap(since, false).values().iterator();
        List<Message> changed = new ArrayList<>();
        while (changed.size() < limit && ids.hasNext()) {
            changed.add(messages.get((int) (seqById.get(ids.next()) - 1)));
        }
        return new ChangesPage(changed, rev, ids.hasNext());
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

    private static String clientKey(String senderId, String clientMessageId) {
        // userIds never contain a NUL, so the key is unambiguous.
        return senderId + '\u0000' + clientMessageId;
    }
}
