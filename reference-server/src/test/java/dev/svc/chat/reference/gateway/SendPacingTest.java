package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.core.CoreSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Send pacing over real outbound queues whose writes complete only when the test says their client read:
 * the writers run on the calling thread and the bounded wait on a manual timer, so nothing sleeps.
 */
class SendPacingTest {

    private static final String TENANT = "t";
    private static final String ROOM = "r";
    private static final Duration MAX_WAIT = Duration.ofSeconds(5);
    private static final int MARK = 8;

    private final List<Runnable> timerTasks = new ArrayList<>();
    private final List<Duration> timerDelays = new ArrayList<>();
    private SendPacing pacing;
    private final List<Client> room = new ArrayList<>();

    @BeforeEach
    void setUp() {
        pacing = new SendPacing(true, MARK, MAX_WAIT, (task, delay) -> {
            timerTasks.add(task);
            timerDelays.add(delay);
            return null;
        }, Runnable::run);
        for (int i = 0; i < 10; i++) {
            room.add(new Client(pacing));
        }
    }

    @Test
    void answersAtOnceWhileTheRoomKeepsUp() {
        for (int i = 0; i < 100; i++) {
            fanOut();
            assertTrue(pacing.whenRoomKeepsUp(TENANT, ROOM).isDone());
        }
        assertEquals(0, pacing.rooms(), "no backlog kept for a room that keeps up");
    }

    @Test
    void heldWhileAQuarterOfTheRoomIsBehindThenReleasedWhenTheyRead() {
        stopReading(0, 1, 2); // threshold for 10 connections: 3
        for (int i = 0; i < MARK + 2; i++) {
            fanOut();
        }
        assertTrue(pacing.backlogged(TENANT, ROOM));
        CompletableFuture<Void> held = pacing.whenRoomKeepsUp(TENANT, ROOM);
        CompletableFuture<Void> second = pacing.whenRoomKeepsUp(TENANT, ROOM);
        assertFalse(held.isDone(), "held while three of ten connections are behind");
        assertFalse(second.isDone());
        assertEquals(List.of(MAX_WAIT, MAX_WAIT), timerDelays, "each held answer has its bounded wait");

        room.get(0).read(); // one of them catches up: two behind, under the threshold
        assertTrue(held.isDone());
        assertTrue(second.isDone());
        assertTrue(pacing.whenRoomKeepsUp(TENANT, ROOM).isDone());

        room.get(1).read();
        room.get(2).read();
        assertEquals(0, pacing.rooms(), "the room's backlog is forgotten once every queue drained");
        for (Client client : room) {
            assertEquals(MARK + 2, client.written, "every frame written, none lost");
        }
    }

    @Test
    void oneSlowMemberAloneDoesNotHoldTheRoom() {
        stopReading(4);
        for (int i = 0; i < 200; i++) {
            fanOut();
            assertTrue(pacing.whenRoomKeepsUp(TENANT, ROOM).isDone(), "send " + i);
        }
        assertFalse(pacing.backlogged(TENANT, ROOM));
    }

    /**
     * A sender and one member on a cutting network, whose dropped connections each left a queue that no longer
     * reads: one reader, so the sender's answers go at once (counted by connection, three stuck queues held each
     * answer for the bounded wait). The stuck queues are still cut at their hard limit, as slow consumers.
     */
    @Test
    void oneMemberWithSeveralStuckConnectionsDoesNotHoldTheOthers() {
        room.clear();
        Client sender = new Client(pacing);
        sender.out.readAs("sender");
        room.add(sender);
        for (int i = 0; i < 3; i++) {
            Client dropped = new Client(pacing);
            dropped.out.readAs("cut-member");
            dropped.reading = false;
            room.add(dropped);
        }
        for (int i = 0; i < 200; i++) {
            fanOut();
            assertTrue(pacing.whenRoomKeepsUp(TENANT, ROOM).isDone(), "send " + i + " answered at once");
        }
        assertFalse(pacing.backlogged(TENANT, ROOM));
        assertEquals(1, pacing.room(FanOut.key(TENANT, ROOM)).over(), "one reader behind, however many queues");
    }

    /** Two members behind in a room of three readers still hold the sender: pacing against outrunning readers. */
    @Test
    void twoMembersBehindStillHoldASmallRoom() {
        room.clear();
        Client sender = new Client(pacing);
        sender.out.readAs("sender");
        room.add(sender);
        for (String member : List.of("a", "b")) {
            for (int i = 0; i < 2; i++) {
                Client slow = new Client(pacing);
                slow.out.readAs(member);
                slow.reading = false;
                room.add(slow);
            }
        }
        for (int i = 0; i < MARK + 1; i++) {
            fanOut();
        }
        assertTrue(pacing.backlogged(TENANT, ROOM));
        CompletableFuture<Void> held = pacing.whenRoomKeepsUp(TENANT, ROOM);
        assertFalse(held.isDone());
        room.get(1).read(); // one of a's two queues catches up: a is still behind
        assertFalse(held.isDone());
        room.get(2).read(); // a caught up: one reader behind, under the threshold
        assertTrue(held.isDone());
    }

    @Test
    void theHeldWaitIsBounded() {
        stopReading(0, 1, 2, 3);
        for (int i = 0; i < MARK + 1; i++) {
            fanOut();
        }
        CompletableFuture<Void> held = pacing.whenRoomKeepsUp(TENANT, ROOM);
        assertFalse(held.isDone());
        assertEquals(1, timerTasks.size());
        timerTasks.get(0).run(); // the bounded wait passed, nobody read
        assertTrue(held.isDone(), "released by its timeout");
        assertTrue(pacing.backlogged(TENANT, ROOM), "the room is still behind: the next send waits too");
    }

    @Test
    void aClosedQueueNoLongerCounts() {
        stopReading(0, 1, 2);
        for (int i = 0; i < MARK + 1; i++) {
            fanOut();
        }
        CompletableFuture<Void> held = pacing.whenRoomKeepsUp(TENANT, ROOM);
        assertFalse(held.isDone());
        room.get(2).out.abort(); // cut (slow consumer or gone)
        assertTrue(held.isDone());
    }

    @Test
    void offNeverHolds() {
        SendPacing off = SendPacing.OFF;
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Client client = new Client(off);
            client.reading = false;
            clients.add(client);
        }
        for (int i = 0; i < 50; i++) {
            for (Client client : clients) {
                client.out.send(OutFrame.of("42[\"m\"," + i + "]"), null, () -> off.room("k"));
            }
        }
        assertTrue(off.whenRoomKeepsUp(TENANT, ROOM).isDone());
        assertEquals(0, off.rooms());
    }

    private void stopReading(int... indexes) {
        for (int i : indexes) {
            room.get(i).reading = false;
        }
    }

    /** What FanOut does for one event: enqueue to every target, then size the room's threshold by its readers. */
    private void fanOut() {
        OutFrame frame = OutFrame.of("42[\"new-message\",{}]");
        RoomBacklog[] found = new RoomBacklog[1];
        Supplier<RoomBacklog> backlog = () -> found[0] != null ? found[0]
                : (found[0] = pacing.room(FanOut.key(TENANT, ROOM)));
        for (Client client : room) {
            client.out.send(frame, null, backlog);
        }
        if (found[0] != null) {
            found[0].targets((int) room.stream().map(client -> client.out.reader()).distinct().count());
        }
    }

    /** A connection whose flushing writes complete at once while it reads, else when it reads again. */
    private static final class Client extends CoreSession.Empty {
        final Outbound out;
        boolean reading = true;
        int written;
        private final List<Callback> pending = new ArrayList<>();

        Client(SendPacing pacing) {
            out = new Outbound(this, Runnable::run, 1000, 1 << 20, () -> { }, pacing);
        }

        @Override
        public boolean isOutputOpen() {
            return true;
        }

        @Override
        public void sendFrame(Frame frame, Callback callback, boolean batch) {
            written++;
            if (batch || reading) {
                callback.succeeded();
            } else {
                pending.add(callback);
            }
        }

        /** Reads everything: the pending write completes, and so does every later one. */
        void read() {
            reading = true;
            List<Callback> done = new ArrayList<>(pending);
            pending.clear();
            for (Callback callback : done) {
                callback.succeeded();
            }
        }
    }
}
