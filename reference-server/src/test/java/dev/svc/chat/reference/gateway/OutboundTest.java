package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.core.CoreSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.junit.jupiter.api.Test;

/**
 * The writer of one connection's outbound queue: how many writer wake-ups a frame costs and how many frames a
 * write carries. A write to a writable socket completes at once, so a frame queued while no write is under way
 * is written by the thread that queued it (the reader answering a send, the fan-out thread for a small room)
 * rather than by a writer woken for it; a write still under way resumes on a writer, which takes every frame
 * queued meanwhile in one write.
 */
class OutboundTest {

    /** Runs the writer's tasks in place, counting them: each is a writer thread woken in the server. */
    private static final class Writers implements Executor {
        int woken;

        @Override
        public void execute(Runnable task) {
            woken++;
            task.run();
        }
    }

    /** A socket whose writes complete at once while it is writable, else when the test drains it. */
    private static final class Socket extends CoreSession.Empty {
        final Outbound out;
        final List<Integer> framesPerWrite = new ArrayList<>();
        boolean writable = true;
        private int batched;
        private final List<Callback> pending = new ArrayList<>();

        Socket(Executor writers) {
            this(writers, new WriteBacklog());
        }

        Socket(Executor writers, WriteBacklog backlog) {
            out = new Outbound(this, writers, 1000, 1 << 20, () -> { }, backlog);
        }

        @Override
        public boolean isOutputOpen() {
            return true;
        }

        @Override
        public void sendFrame(Frame frame, Callback callback, boolean batch) {
            batched++;
            if (batch) {
                callback.succeeded();
                return;
            }
            framesPerWrite.add(batched); // the last frame of a group flushes it: one socket write
            batched = 0;
            if (writable) {
                callback.succeeded();
            } else {
                pending.add(callback);
            }
        }

        void drain() {
            writable = true;
            List<Callback> done = new ArrayList<>(pending);
            pending.clear();
            done.forEach(Callback::succeeded);
        }
    }

    @Test
    void anAnswerToAnIdleConnectionIsWrittenByTheThreadThatQueuedIt() {
        Writers writers = new Writers();
        Socket socket = new Socket(writers);
        for (int i = 0; i < 3; i++) {
            socket.out.sendNow(OutFrame.of("43" + i + "[{\"ok\":true}]"));
        }
        assertEquals(List.of(1, 1, 1), socket.framesPerWrite);
        assertEquals(0, writers.woken, "writer wake-ups for three answers");
    }

    @Test
    void aFanOutToAFewConnectionsIsWrittenByTheFanOutThread() {
        Writers writers = new Writers();
        Socket sender = new Socket(writers);
        Socket receiver = new Socket(writers);
        List<Outbound> starts = new ArrayList<>();
        sender.out.send(OutFrame.of("42[\"new-message\",{}]"), starts);
        receiver.out.send(OutFrame.of("42[\"new-message\",{}]"), starts);
        Outbound.startAll(starts);
        assertEquals(List.of(1), sender.framesPerWrite);
        assertEquals(List.of(1), receiver.framesPerWrite);
        assertEquals(0, writers.woken, "writer wake-ups for a fan-out to two connections");
    }

    @Test
    void aFanOutToManyConnectionsStillWakesAtMostOneWriterPerProcessor() {
        Writers writers = new Writers();
        List<Socket> sockets = new ArrayList<>();
        List<Outbound> starts = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Socket socket = new Socket(writers);
            sockets.add(socket);
            socket.out.send(OutFrame.of("42[\"new-message\",{}]"), starts);
        }
        Outbound.startAll(starts);
        for (Socket socket : sockets) {
            assertEquals(List.of(1), socket.framesPerWrite);
        }
        assertEquals(Math.min(100, Runtime.getRuntime().availableProcessors()), writers.woken);
    }

    @Test
    void framesQueuedWhileAWriteIsUnderWayLeaveTogetherOnAWriter() {
        Writers writers = new Writers();
        Socket socket = new Socket(writers);
        socket.writable = false;
        socket.out.sendNow(OutFrame.of("first"));
        for (int i = 0; i < 10; i++) {
            socket.out.sendNow(OutFrame.of("next " + i));
        }
        assertEquals(List.of(1), socket.framesPerWrite, "the first write is still under way");
        assertEquals(0, writers.woken);
        socket.drain();
        assertEquals(List.of(1, 10), socket.framesPerWrite, "the ten frames queued meanwhile: one write");
        assertEquals(1, writers.woken, "the completed write resumes the queue on a writer");
    }

    /** Holds the writer's tasks until the test runs them: writers the machine has not scheduled yet. */
    private static final class HeldWriters implements Executor {
        final List<Runnable> tasks = new ArrayList<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            while (!tasks.isEmpty()) {
                tasks.remove(0).run();
            }
        }
    }

    @Test
    void framesWaitingForAWriterCountInTheBacklogUntilWritten() {
        HeldWriters writers = new HeldWriters();
        WriteBacklog backlog = new WriteBacklog();
        List<Socket> sockets = new ArrayList<>();
        List<Outbound> starts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Socket socket = new Socket(writers, backlog);
            sockets.add(socket);
            for (int m = 0; m < 3; m++) {
                socket.out.send(OutFrame.of("42[\"new-message\",{\"m\":" + m + "}]"), starts);
            }
        }
        Outbound.startAll(starts);
        assertEquals(30, backlog.frames(), "frames of ten connections waiting for their writers");
        writers.runAll();
        assertEquals(0, backlog.frames(), "every frame written");
        for (Socket socket : sockets) {
            assertEquals(List.of(3), socket.framesPerWrite);
        }
    }

    @Test
    void framesBehindAWriteTheReaderHasNotTakenAreNotCounted() {
        Writers writers = new Writers();
        WriteBacklog backlog = new WriteBacklog();
        Socket socket = new Socket(writers, backlog);
        socket.writable = false;
        socket.out.sendNow(OutFrame.of("first"));
        for (int i = 0; i < 10; i++) {
            socket.out.sendNow(OutFrame.of("next " + i));
        }
        assertEquals(0, backlog.frames(), "a reader that does not read holds up no sender");
        socket.drain();
        assertEquals(0, backlog.frames(), "written once the reader took the first write");
        assertEquals(List.of(1, 10), socket.framesPerWrite);
        socket.writable = false;
        socket.out.sendNow(OutFrame.of("again"));
        socket.out.sendNow(OutFrame.of("behind"));
        socket.out.abort();
        socket.drain();
        assertEquals(0, backlog.frames(), "a dropped queue leaves nothing counted");
    }
}
