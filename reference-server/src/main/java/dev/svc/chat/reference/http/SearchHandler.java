package dev.svc.chat.reference.http;

import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.search.SearchService;
import io.javalin.http.Context;

/** The session-token route of message search (contract section 11). */
final class SearchHandler {

    private final Credentials credentials;
    private final Responses responses;
    private final SearchService search;

    SearchHandler(Credentials credentials, Responses responses, SearchService search) {
        this.credentials = credentials;
        this.responses = responses;
        this.search = search;
    }

    void messages(Context ctx) {
        Principal principal = credentials.session(ctx);
        SearchService.Query query = new SearchService.Query(ctx.queryParam("q"), given(ctx, "roomId"),
                given(ctx, "senderId"), given(ctx, "threadId"), Inputs.queryNumber(ctx.queryParam("limit"), "limit"),
                given(ctx, "cursor"));
        responses.json(ctx, 200, search.search(principal, query));
    }

    /** Returns a query parameter, null when absent or empty (contract section 1). */
    private static String given(Context ctx, String name) {
        String value = ctx.queryParam(name);
        return value == null || value.isEmpty() ? null : value;
    }
}
