package dev.svc.chat.reference.gateway;

import java.util.ArrayList;
import java.util.List;

/**
 * Holds the frames delivered to a connection from the moment a handshake indexes it until the handshake's
 * answer is queued, so that none overtakes the answer; then queues the answer and those frames, in order.
 *
 * <p>Its monitor is a lock of its own, not the connection's: the fan-out thread takes it while it holds
 * {@link FanOut}'s delivery order, and under it only {@link Outbound}'s monitor is taken. A handshake may
 * therefore hold the connection's monitor, or wait for the delivery order, without ever being waited for by the
 * fan-out (see docs/internals/server.md, "Locks").
 */
final class AnswerGate {

    private final Outbound out;
    // Frames waiting for the answer; null while open. Guarded by this; open is written under it too.
    private List<OutFrame> held = new ArrayList<>();
    private volatile boolean open;

    AnswerGate(Outbound out) {
        this.out = out;
    }

    /**
     * Enqueues a frame of the fan-out, or holds it until the answer is queued; {@code starts} as
     * {@link Outbound#send(OutFrame, List)}.
     */
    void deliver(OutFrame frame, List<Outbound> starts) {
        if (!open) {
            synchronized (this) {
                if (!open) {
                    held.add(frame);
                    return;
                }
            }
        }
        out.send(frame, starts);
    }

    /**
     * Holds every later frame until {@link #open}: called by a handshake before it indexes the connection.
     * Frames held for an earlier handshake that was never answered are dropped.
     */
    synchronized void hold() {
        open = false;
        held = new ArrayList<>();
    }

    /** Queues {@code answer}, then the frames held since {@link #hold}, and lets later frames through. */
    synchronized void open(OutFrame answer) {
        out.send(answer);
        for (OutFrame frame : held) {
            out.send(frame);
        }
        held = null;
        open = true;
    }

    /** Drops the held frames of a handshake that will not be answered (its session ended meanwhile). */
    synchronized void drop() {
        if (!open) {
            held = new ArrayList<>();
        }
    }
}
