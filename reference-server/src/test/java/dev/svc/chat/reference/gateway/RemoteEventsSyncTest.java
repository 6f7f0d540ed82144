package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node's list read from the database replaces what this node knew of that node's users, except the users the
 * bus told about after the mark taken before the read: the bus is as new or newer for those.
 */
class RemoteEventsSyncTest {
    private static final Instant AT = Instant.parse("2026-11-23T00:00:00Z");
    private final FanOut fanOut = new FanOut(new Frames(new ObjectMapper()), Duration.ofMillis(50));
    private final RemoteEvents remote = new RemoteEvents(fanOut);

    @AfterEach
    void close() {
        fanOut.close();
    }

    @Test
    void aListReadAfterTheMarkReplacesTheNodesUsersButNotWhatTheBusToldSince() {
        remote.presence("A", "t1", "bob", true, AT); // told before the mark: its going offline may have been lost
        remote.presence("A", "t1", "erin", true, AT);
        long mark = remote.mark();
        remote.presence("A", "t1", "carol", true, AT); // told after the mark: newer than the list may be
        remote.presence("A", "t1", "erin", false, AT);
        // the list, read after the mark, was written by a beat that began before carol came and erin left
        remote.sync("A", Map.of("t1", Set.of("dave", "erin")), mark, false, AT);
        assertEquals(List.of("carol", "dave"), remote.onlineUsers("t1"));
    }

    @Test
    void aListReadAtFirstSightOnlyAdds() {
        remote.presence("A", "t1", "bob", true, AT);
        long mark = remote.mark();
        remote.sync("A", Map.of("t1", Set.of("dave")), mark, true, AT);
        assertEquals(List.of("bob", "dave"), remote.onlineUsers("t1"));
        remote.stopRecording();
        remote.sync("A", Map.of(), remote.mark(), false, AT); // the node's next list: nobody is on it any more
        assertEquals(List.of(), remote.onlineUsers("t1"));
    }

    @Test
    void anotherNodesUsersAreLeftAlone() {
        remote.presence("A", "t1", "bob", true, AT);
        remote.presence("B", "t1", "carol", true, AT);
        remote.sync("A", Map.of(), remote.mark(), false, AT);
        assertEquals(List.of("carol"), remote.onlineUsers("t1"));
    }
}
