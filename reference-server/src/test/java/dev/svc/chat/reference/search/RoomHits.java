package dev.svc.chat.reference.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The Lucene tests' one search: tenant {@code t}, room {@code r1}, the first 10 hits' message ids, newest first. */
final class RoomHits {
    private RoomHits() {
    }

    static List<String> found(LuceneIndex index, String q) {
        List<String> ids = new ArrayList<>();
        for (SearchIndex.Hit hit : index.search(new SearchIndex.Request("t", Set.of("r1"), null, null,
                QueryParser.parse(q), null, 10))) {
            ids.add(hit.messageId());
        }
        return ids;
    }
}
