package dev.svc.chat.reference.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The search cursor: read back by its own search only, refused when changed or of another tenant. */
class SearchCursorTest {

    private static final byte[] SECRET = "tenant-secret-0123456789abcdef01".getBytes(StandardCharsets.UTF_8);
    private static final SearchIndex.Position AT = new SearchIndex.Position(1_700_000_000_123L, 42, "room-1");

    @Test
    void roundTrips() {
        assertEquals(AT, SearchCursor.decode(SECRET, "q", SearchCursor.encode(SECRET, "q", AT)));
    }

    @Test
    void anotherSearchOrTenantIsRefused() {
        String cursor = SearchCursor.encode(SECRET, "q", AT);
        assertThrows(SearchCursor.Refused.class, () -> SearchCursor.decode(SECRET, "other", cursor));
        byte[] otherSecret = "another-tenant-secret-0123456789".getBytes(StandardCharsets.UTF_8);
        assertThrows(SearchCursor.Refused.class, () -> SearchCursor.decode(otherSecret, "q", cursor));
    }

    @Test
    void forgedCursorsAreRefused() {
        String cursor = SearchCursor.encode(SECRET, "q", AT);
        byte[] bytes = Base64.getUrlDecoder().decode(cursor);
        for (int i = 0; i < bytes.length; i++) {
            byte[] changed = bytes.clone();
            changed[i] ^= 1;
            String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(changed);
            assertThrows(SearchCursor.Refused.class, () -> SearchCursor.decode(SECRET, "q", forged), "byte " + i);
        }
        for (String junk : new String[] {"", "x", "!!!", "AAAA", cursor + "A", cursor.substring(1)}) {
            assertThrows(SearchCursor.Refused.class, () -> SearchCursor.decode(SECRET, "q", junk), junk);
        }
    }
}
