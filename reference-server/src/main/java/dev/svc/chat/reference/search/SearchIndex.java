package dev.svc.chat.reference.search;

import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.store.MessageWrites;
import java.util.List;
import java.util.Set;

/**
 * The messages' words on one backend: kept current by every message write ({@link MessageWrites}), and
 * asked for the newest matching messages of a set of rooms. Its order is {@code createdAt} descending, then
 * {@code seq} descending, then room id descending (a total order: a room's seq is unique).
 */
public interface SearchIndex extends MessageWrites, AutoCloseable {

    /**
     * Where a page ends (the last result given) or a message's place in the order.
     *
     * @param createdAtMillis its {@code createdAt} in epoch milliseconds
     * @param seq its seq
     * @param roomId its room
     */
    record Position(long createdAtMillis, long seq, String roomId) {
    }

    /**
     * A message found.
     *
     * @param messageId its id
     * @param position its place in the order
     */
    record Hit(String messageId, Position position) {
    }

    /**
     * A search.
     *
     * @param tenantId the tenant
     * @param roomIds the rooms to search, not empty
     * @param senderId only this sender's messages, or null
     * @param threadId only the replies of this thread (messages whose {@code threadId} it is), or null
     * @param terms what must match
     * @param after only messages after this place in the order, or null from the newest
     * @param max at most this many hits
     */
    record Request(String tenantId, Set<String> roomIds, String senderId, String threadId, SearchTerms terms,
                   Position after, int max) {
    }

    /**
     * Takes the states of many messages of one tenant at once, as {@link #written} takes each (the catch-up at
     * start writes a page of a room's changes this way); the default writes them one at a time.
     */
    default void writtenAll(String tenantId, List<Message> messages) {
        for (Message message : messages) {
            written(tenantId, message);
        }
    }

    /** Returns the messages that match, in the order, at most {@code request.max()}. */
    List<Hit> search(Request request);

    /** Releases what the index holds; the default holds nothing. */
    @Override
    default void close() {
    }
}
