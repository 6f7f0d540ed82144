package dev.svc.chat.reference.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.TenantSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A room's snapshots share one immutable member list until the members change, so that a send (which takes two
 * snapshots) does not copy the members of its room; a snapshot taken before a change keeps the old members.
 */
class RoomSnapshotTest {

    private static final Instant NOW = Instant.parse("2026-11-25T17:00:00.000Z");

    @Test
    void snapshotsShareTheMemberListUntilTheMembersChange() {
        InMemoryStore store = new InMemoryStore();
        store.createTenant(new TenantRecord("t1", "sk_test_t1", new byte[32]), TenantSettings.defaults(true));
        List<String> members = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            members.add("u" + i);
        }
        String roomId = store.createRoom("t1", null, members, NOW).id();

        Room before = store.room("t1", roomId).orElseThrow();
        AppendResult sent = store.appendMessage("t1", roomId, "u0", "c1",
                List.of(JsonNodeFactory.instance.objectNode().put("type", "text").put("text", "hi")), NOW);
        assertTrue(before.memberIds() == sent.room().memberIds(), "the send's snapshot copied the members");
        assertTrue(before.memberIds() == store.room("t1", roomId).orElseThrow().memberIds(),
                "a second snapshot copied the members");

        Room added = store.addMembers("t1", roomId, List.of("late")).orElseThrow();
        assertNotSame(before.memberIds(), added.memberIds());
        assertEquals(1_000, before.memberIds().size());
        assertEquals("late", added.memberIds().get(1_000));
        Room removed = store.removeMember("t1", roomId, "u0").orElseThrow();
        assertEquals(1_000, removed.memberIds().size());
        assertEquals("u1", removed.memberIds().get(0));
        assertEquals(1_001, added.memberIds().size());
        // Adding someone already a member changes nothing, and keeps the list.
        assertTrue(removed.memberIds() == store.addMembers("t1", roomId, List.of("u1")).orElseThrow().memberIds(),
                "adding a member again copied the members");
        assertEquals(List.of(roomId), store.roomsOf("t1", "late").stream().map(Room::id).toList());
        assertEquals(List.of(), store.roomsOf("t1", "u0"));
    }
}
