package dev.svc.chat.reference.search;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.store.Store;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Message search (contract section 11): checks the query, narrows it to the user's current rooms, asks the
 * backend's {@link SearchIndex} and answers each hit with the message's current state and its snippet.
 * {@code threadId} narrows to that thread's replies (as {@code getMessages?threadId=} lists them); one that is
 * no thread finds nothing.
 */
public final class SearchService {

    /** The largest page. */
    public static final int MAX_LIMIT = 50;
    /** The page size when none is asked for. */
    public static final int DEFAULT_LIMIT = 20;

    private final Store store;
    private final SearchIndex index;

    /** Searches the messages of {@code store} through {@code index}, which its writes keep current. */
    public SearchService(Store store, SearchIndex index) {
        this.store = store;
        this.index = index;
    }

    /**
     * What a search asks for, as the request gave it (nulls for absent).
     *
     * @param q the query
     * @param roomId only this room
     * @param senderId only this sender's messages
     * @param threadId only this thread's replies
     * @param limit the page size
     * @param cursor where to continue
     */
    public record Query(String q, String roomId, String senderId, String threadId, Long limit, String cursor) {
    }

    /**
     * One result.
     *
     * @param message the message's current state
     * @param snippet its matching text with the matched words marked
     */
    public record Result(Message message, String snippet) {
    }

    /**
     * One page of results, newest first.
     *
     * @param results the results
     * @param nextCursor where the next page starts, null after the last page
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Page(List<Result> results, String nextCursor) {
    }

    /** Runs the search for the session of {@code principal}; errors in the contract's order (400, 404, 403). */
    public Page search(Principal principal, Query query) {
        SearchTerms terms;
        try {
            terms = QueryParser.parse(query.q());
        } catch (QueryParser.InvalidQuery e) {
            throw ApiException.badRequest(e.getMessage());
        }
        if (query.limit() != null && (query.limit() < 1 || query.limit() > MAX_LIMIT)) {
            throw ApiException.badRequest("limit must be from 1 to " + MAX_LIMIT);
        }
        if (query.senderId() != null && !Inputs.isUserId(query.senderId())) {
            throw ApiException.badRequest("senderId is not a userId");
        }
        String search = String.join("\u0000", principal.userId(), terms.canonical(), nullable(query.roomId()),
                nullable(query.senderId()), nullable(query.threadId()));
        byte[] secret = principal.tenant().jwtSecret();
        SearchIndex.Position after = null;
        if (query.cursor() != null) {
            try {
                after = SearchCursor.decode(secret, search, query.cursor());
            } catch (SearchCursor.Refused e) {
                throw ApiException.badRequest(e.getMessage());
            }
        }
        String tenantId = principal.tenantId();
        Set<String> rooms = new LinkedHashSet<>();
        if (query.roomId() != null) {
            Room room = store.room(tenantId, query.roomId())
                    .orElseThrow(() -> ApiException.notFound("Room not found"));
            if (!room.hasMember(principal.userId())) {
                throw ApiException.forbidden("Not a member of this room");
            }
            rooms.add(room.id());
        } else {
            store.roomsOf(tenantId, principal.userId()).forEach(room -> rooms.add(room.id()));
        }
        int limit = query.limit() != null ? query.limit().intValue() : DEFAULT_LIMIT;
        if (rooms.isEmpty()) {
            return new Page(List.of(), null);
        }
        List<SearchIndex.Hit> hits = index.search(new SearchIndex.Request(tenantId, rooms, query.senderId(),
                query.threadId(), terms, after, limit + 1));
        List<Result> results = new ArrayList<>();
        for (SearchIndex.Hit hit : hits.subList(0, Math.min(limit, hits.size()))) {
            // The index may be a moment behind a delete made since; the message's current state decides.
            Optional<Message> message = store.message(tenantId, hit.position().roomId(), hit.messageId());
            if (message.isPresent() && message.get().deletedAt() == null) {
                results.add(new Result(message.get(), Snippets.of(message.get(), terms)));
            }
        }
        String next = hits.size() > limit ? SearchCursor.encode(secret, search, hits.get(limit - 1).position()) : null;
        return new Page(results, next);
    }

    private static String nullable(String value) {
        return value == null ? "" : value;
    }
}
