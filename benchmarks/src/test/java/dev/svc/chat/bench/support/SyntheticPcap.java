package dev.svc.chat.bench.support;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Writes a classic pcap of Ethernet/IPv4/TCP packets on loopback, as tcpdump would, and WebSocket frames to put
 * in them: the tests' stand-in for a capture.
 */
public final class SyntheticPcap {
    private static final int HEADERS = 14 + 20 + 20;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteOrder order;
    private final boolean nanos;

    /** A capture with nanosecond ({@code nanos}) or microsecond timestamps, its numbers in {@code order}. */
    public SyntheticPcap(boolean nanos, ByteOrder order) {
        this.nanos = nanos;
        this.order = order;
        ByteBuffer h = ByteBuffer.allocate(24).order(order);
        h.putInt(nanos ? 0xa1b23c4d : 0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                .putInt(262144).putInt(1);
        out.writeBytes(h.array());
    }

    /** Adds a TCP segment from {@code source} to {@code destination} port at {@code timeNanos} since the epoch. */
    public SyntheticPcap segment(long timeNanos, int source, int destination, byte[] payload) {
        return segment(timeNanos, source, destination, 0x18, payload, payload.length);
    }

    /** Adds a SYN with no payload. */
    public SyntheticPcap syn(long timeNanos, int source, int destination) {
        return segment(timeNanos, source, destination, 0x02, new byte[0], 0);
    }

    /** Adds a segment of which the capture kept only the first {@code kept} bytes of the payload. */
    public SyntheticPcap cut(long timeNanos, int source, int destination, byte[] payload, int kept) {
        return segment(timeNanos, source, destination, 0x18, payload, kept);
    }

    /** Adds a UDP datagram (not TCP). */
    public SyntheticPcap udp(long timeNanos, int source, int destination) {
        byte[] packet = packet(source, destination, 0x18, new byte[8]);
        packet[14 + 9] = 17;
        return record(timeNanos, packet, packet.length, packet.length);
    }

    private SyntheticPcap segment(long timeNanos, int source, int destination, int flags, byte[] payload,
                                  int kept) {
        byte[] packet = packet(source, destination, flags, payload);
        return record(timeNanos, packet, HEADERS + kept, packet.length);
    }

    private static byte[] packet(int source, int destination, int flags, byte[] payload) {
        ByteBuffer p = ByteBuffer.allocate(HEADERS + payload.length); // network order
        p.put(new byte[12]).putShort((short) 0x0800);
        p.put((byte) 0x45).put((byte) 0).putShort((short) (20 + 20 + payload.length)).putShort((short) 0)
                .putShort((short) 0x4000).put((byte) 64).put((byte) 6).putShort((short) 0).put(new byte[] {127, 0, 0, 1, 127, 0, 0, 1});
        p.putShort((short) source).putShort((short) destination).putInt(1).putInt(1).put((byte) 0x50)
                .put((byte) flags).putShort((short) 65535).putInt(0);
        p.put(payload);
        return p.array();
    }

    private SyntheticPcap record(long timeNanos, byte[] packet, int kept, int length) {
        ByteBuffer r = ByteBuffer.allocate(16).order(order);
        r.putInt((int) (timeNanos / 1_000_000_000L))
                .putInt((int) (timeNanos % 1_000_000_000L / (nanos ? 1 : 1000))).putInt(kept).putInt(length);
        out.writeBytes(r.array());
        out.write(packet, 0, kept);
        return this;
    }

    public byte[] bytes() {
        return out.toByteArray();
    }

    /**
     * A final text frame carrying {@code text}: masked (a client's) or not, its length in the shortest form, or
     * in the 64-bit form with {@code longForm}.
     */
    public static byte[] frame(String text, boolean masked, boolean longForm) {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        int n = payload.length;
        ByteBuffer f = ByteBuffer.allocate(14 + n);
        f.put((byte) 0x81);
        int maskBit = masked ? 0x80 : 0;
        if (longForm) {
            f.put((byte) (maskBit | 127)).putLong(n);
        } else if (n < 126) {
            f.put((byte) (maskBit | n));
        } else {
            f.put((byte) (maskBit | 126)).putShort((short) n);
        }
        if (masked) {
            byte[] key = {0x37, (byte) 0xfa, 0x21, 0x3d};
            f.put(key);
            for (int i = 0; i < n; i++) {
                payload[i] ^= key[i & 3];
            }
        }
        f.put(payload);
        byte[] all = new byte[f.position()];
        f.flip().get(all);
        return all;
    }

    /** {@code parts} one after the other. */
    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            all.writeBytes(part);
        }
        return all.toByteArray();
    }

    /** {@code bytes[from, to)}. */
    public static byte[] slice(byte[] bytes, int from, int to) {
        return java.util.Arrays.copyOfRange(bytes, from, to);
    }
}
