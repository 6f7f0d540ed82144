package dev.svc.chat.reference.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.reference.model.Call;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.service.CallService;
import dev.svc.chat.reference.service.EventPublisher;
import dev.svc.chat.reference.store.CallState;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.JdbcStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a call catch-up hands the sockets, on a real (SQLite) database: each call that moved past what they were
 * handed, once, as the events its latest stored state stands for; nothing for a participant's leaving; nothing
 * from before the baseline; and an event that arrives after its version was caught up is dropped.
 */
class CallCatchUpTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;
    private JdbcStore store;
    private Database db;
    private final List<String> delivered = new ArrayList<>();
    private final EventPublisher recorder = (tenantId, room, event, payload) -> {
        Call call = (Call) payload;
        delivered.add(event + " " + call.status() + " " + call.participantIds());
    };
    private CallCatchUp calls;
    private Room room;

    @BeforeEach
    void database() throws Exception {
        db = Database.sqlite(Files.createDirectories(dir.resolve("db")));
        store = new JdbcStore(db);
        store.createTenant(new TenantRecord("t", "sk_test_callcatchup_unit", new byte[32]),
                TenantSettings.defaults(true));
        for (String user : List.of("alice", "bob", "carol")) {
            store.ensureUser("t", user, NOW);
        }
        room = store.createRoom("t", "r", List.of("alice", "bob", "carol"), NOW);
        calls = new CallCatchUp(recorder, store, db);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aCallReadAfterAGapIsHandedOnceAsItsLatestStateStandsFor() {
        CallState before = start("before");
        move(before, before.call().finished(Call.ENDED, "hangup", NOW), Set.of());
        calls.baseline();
        calls.all();
        assertEquals(List.of(), delivered, "a call stored before the baseline");

        CallState call = start("c1");
        arrived(call, CallService.CALL_INVITE);
        CallState declinedByBob = move(call, call.call(), Set.of("bob")); // lost
        CallState declined = move(declinedByBob, call.call().finished(Call.DECLINED, "declined", NOW),
                Set.of("bob", "carol")); // lost
        calls.all();
        assertEquals(List.of("call-invite ringing [alice]", "call-declined declined [alice]",
                "call-ended declined [alice]"), delivered);

        arrived(declinedByBob, CallService.CALL_DECLINED); // late: older than what was read
        arrived(declined, CallService.CALL_ENDED); // late: read already
        calls.all();
        assertEquals(3, delivered.size(), "handed twice: " + delivered);
    }

    @Test
    void anAcceptIsHandedAndALeavingIsOnlyNoted() {
        calls.baseline();
        CallState call = start("c2");
        arrived(call, CallService.CALL_INVITE);
        CallState bob = move(call, call.call().with(Call.ACTIVE, List.of("alice", "bob")), Set.of());
        arrived(bob, CallService.CALL_ACCEPTED);
        CallState carol = move(bob, bob.call().with(Call.ACTIVE, List.of("alice", "bob", "carol")), Set.of());
        calls.all(); // carol's accept was lost
        CallState left = move(carol, carol.call().with(Call.ACTIVE, List.of("alice", "carol")), Set.of());
        calls.all(); // bob left: no event
        CallState ended = move(left, left.call().finished(Call.ENDED, "hangup", NOW), Set.of());
        arrived(ended, CallService.CALL_ENDED);
        assertEquals(List.of("call-invite ringing [alice]", "call-accepted active [alice, bob]",
                "call-accepted active [alice, bob, carol]", "call-ended ended [alice, carol]"), delivered);
    }

    @Test
    void aCallThatRangAndEndedInTheGapIsHandedAsEndedAndAnEventOfAVersionIsHandedOnce() {
        calls.baseline();
        CallState call = start("c3");
        move(call, call.call().finished(Call.ENDED, "missed", NOW), Set.of()); // both lost
        calls.all();
        assertEquals(List.of("call-ended ended [alice]"), delivered);

        CallState next = start("c4");
        CallState declined = move(next, next.call().finished(Call.DECLINED, "declined", NOW), Set.of("bob", "carol"));
        arrived(next, CallService.CALL_INVITE);
        arrived(declined, CallService.CALL_DECLINED); // its call-ended was lost
        calls.all();
        arrived(declined, CallService.CALL_ENDED);
        assertEquals(List.of("call-ended ended [alice]", "call-invite ringing [alice]",
                "call-declined declined [alice]", "call-ended declined [alice]"), delivered);
    }

    private CallState start(String id) {
        Call call = new Call(id, room.id(), "audio", "alice", Call.RINGING, List.of("alice"), NOW, null, null);
        CallState state = new CallState(call, Set.of());
        assertTrue(store.insertCall("t", state));
        return state;
    }

    private CallState move(CallState from, Call to, Set<String> declined) {
        CallState next = from.then(to, declined);
        assertTrue(store.replaceCall("t", from, next));
        return next;
    }

    /** The event of {@code state} arrives from another node. */
    private void arrived(CallState state, String event) {
        calls.deliverOnce("t", room, event, state.call().id(), state.version(), state.call().participantIds(),
                state.call());
    }
}
