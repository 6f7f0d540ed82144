package dev.svc.chat.reference.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A room holds up to {@link Inputs#MAX_ROOM_MEMBERS} (10,000) members; one more is refused and changes nothing. */
class RoomSizeLimitTest {

    @Test
    void aRoomTakesTenThousandMembersAndNoMore() {
        InMemoryStore store = new InMemoryStore();
        store.createTenant(new TenantRecord("t1", "sk_test_t1", new byte[32]), TenantSettings.defaults(true));
        ChatService service = new ChatService(store, Clock.systemUTC(),
                new SendRateLimiter(Clock.systemUTC(), 20, 40), (tenant, room, event, payload) -> { });
        assertEquals(10_000, Inputs.MAX_ROOM_MEMBERS);
        Room room = service.createRoom("t1", null, users(0, 1000));
        for (int from = 1000; from < 10_000; from += 1000) {
            room = service.addMembers("t1", room.id(), users(from, from + 1000));
        }
        assertEquals(10_000, room.memberIds().size());
        String roomId = room.id();
        ApiException e = assertThrows(ApiException.class,
                () -> service.addMembers("t1", roomId, List.of("one-too-many")));
        assertEquals("bad_request", e.code());
        assertEquals(10_000, service.room("t1", roomId).memberIds().size());
    }

    private static List<String> users(int from, int to) {
        List<String> ids = new ArrayList<>();
        for (int i = from; i < to; i++) {
            ids.add("u" + i);
        }
        return ids;
    }
}
