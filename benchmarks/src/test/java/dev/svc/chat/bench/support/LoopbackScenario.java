package dev.svc.chat.bench.support;

import static dev.svc.chat.bench.support.SyntheticPcap.concat;
import static dev.svc.chat.bench.support.SyntheticPcap.frame;
import static dev.svc.chat.bench.support.SyntheticPcap.slice;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A small capture of one room on loopback, times in CLOCK_MONOTONIC ns plus {@link #OFFSET}: the sender (client
 * port {@link #SENDER}) sends messages A, B and C (stamps {@link #A}, {@link #B}, {@link #C}) to the server
 * ({@link #SERVER}), which relays A and B to the receiver ({@link #RECEIVER}) and echoes them to the sender
 * first. The sender's connection starts in the capture with its HTTP upgrade; the receiver's was open before.
 * B's client frame (16-bit length) comes in two segments; its frame to the receiver uses the 64-bit length. The
 * segment relaying C is cut short by the snapshot length, and the next one on that stream (the rest of a frame
 * begun in it) has no frame boundary. A UDP datagram is in between.
 */
public final class LoopbackScenario {
    public static final int SERVER = 8080;
    public static final int SENDER = 40001;
    public static final int RECEIVER = 40002;
    /** CLOCK_REALTIME − CLOCK_MONOTONIC, ns. */
    public static final long OFFSET = 1_700_000_000_000_000_000L;
    public static final long A = 1_000_000;
    public static final long B = 2_000_000;
    public static final long C = 2_010_000;

    /** When the frames were complete on loopback, monotonic ns. */
    public static final long A_SENT = 1_100_000;
    public static final long A_ECHOED = 1_150_000;
    public static final long A_RELAYED = 1_300_000;
    public static final long B_FIRST_HALF = 2_050_000;
    public static final long B_SENT = 2_100_000;
    public static final long C_SENT = 2_150_000;
    public static final long C_RELAYED_CUT = 2_200_000;
    public static final long B_ECHOED = 2_350_000;
    public static final long B_RELAYED = 2_400_000;

    private LoopbackScenario() {
    }

    /** The capture, with nanosecond or microsecond timestamps, its numbers in {@code order}. */
    public static byte[] capture(boolean nanos, ByteOrder order) {
        String padding = "x".repeat(150); // B's client frame needs the 16-bit length
        byte[] bSent = frame("42[\"send\",{\"parts\":[{\"type\":\"text\",\"text\":\"r1:" + B + "\"}],\"pad\":\""
                + padding + "\"}]", true, false);
        byte[] cRelayed = frame(relayed(C), false, false);
        byte[] next = frame(relayed(C + 5), false, false);
        byte[] cutSegment = concat(cRelayed, slice(next, 0, 20));
        return new SyntheticPcap(nanos, order)
                .syn(OFFSET + 10_000, SENDER, SERVER)
                .segment(OFFSET + 20_000, SENDER, SERVER, ("GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                        + "Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII))
                .segment(OFFSET + 30_000, SERVER, SENDER, concat(("HTTP/1.1 101 Switching Protocols\r\n"
                        + "Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n").getBytes(StandardCharsets.US_ASCII),
                        frame("0{\"sid\":\"r9:12\"}", false, false)))
                .segment(OFFSET + A_SENT, SENDER, SERVER,
                        frame("42[\"send\",{\"parts\":[{\"type\":\"text\",\"text\":\"r1:" + A + "\"}]}]", true, false))
                .segment(OFFSET + A_ECHOED, SERVER, SENDER, frame(relayed(A), false, false))
                .udp(OFFSET + 1_200_000, 5353, 5353)
                .segment(OFFSET + A_RELAYED, SERVER, RECEIVER, frame(relayed(A), false, false))
                .segment(OFFSET + B_FIRST_HALF, SENDER, SERVER, slice(bSent, 0, 60))
                .segment(OFFSET + B_SENT, SENDER, SERVER, slice(bSent, 60, bSent.length))
                .segment(OFFSET + C_SENT, SENDER, SERVER,
                        frame("42[\"send\",{\"parts\":[{\"type\":\"text\",\"text\":\"r1:" + C + "\"}]}]", true, false))
                .cut(OFFSET + C_RELAYED_CUT, SERVER, RECEIVER, cutSegment, 10)
                .segment(OFFSET + 2_300_000, SERVER, RECEIVER, slice(next, 20, next.length))
                .segment(OFFSET + B_ECHOED, SERVER, SENDER, frame(relayed(B), false, false))
                .segment(OFFSET + B_RELAYED, SERVER, RECEIVER, frame(relayed(B), false, true))
                .bytes();
    }

    private static String relayed(long stamp) {
        return "42[\"new-message\",{\"id\":\"m-" + stamp + "\",\"parts\":[{\"type\":\"text\",\"text\":\"r1:" + stamp
                + "\"}]}]";
    }
}
