package dev.svc.chat.bench.support;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads a packet capture of WebSocket connections on loopback (classic pcap as {@code tcpdump -w} writes it,
 * nanosecond or microsecond timestamps, Ethernet link) and reports every stamp {@code r<digits>:<6 or more
 * digits>} in a frame's payload with the time the frame was complete on the wire.
 *
 * <p>Each direction of a TCP connection is one byte stream, put together by appending the segments' payloads in
 * the order captured (loopback neither reorders nor loses segments; the capture may cut one short at its snapshot
 * length). A segment the capture cut short is skipped and its stream loses its place; so does a stream first seen
 * mid-connection. A stream without its place takes up again at a segment that starts with an HTTP request or
 * response (the WebSocket upgrade, skipped to its blank line) or with a plausible frame header. Client frames
 * are unmasked. Garbage is counted and skipped, never thrown: only an unreadable file throws.
 */
public final class LoopbackCapture {
    /** Frames larger than this are taken for garbage: the benchmarks' frames are a few hundred bytes. */
    static final int MAX_FRAME = 1 << 24;
    /** An HTTP header longer than this is taken for garbage. */
    private static final int MAX_HTTP_HEADER = 1 << 16;
    private static final int MAGIC_NANOS = 0xa1b23c4d;
    private static final int MAGIC_MICROS = 0xa1b2c3d4;
    private static final int LINK_ETHERNET = 1;

    /**
     * A stamp seen in a frame: the capture's time (ns since the epoch) of the segment that completed the frame,
     * the segment's ports, whether the frame was masked (a client's), the tag ({@code r12}) and the stamp.
     */
    public record Stamp(long timeNanos, int sourcePort, int destinationPort, boolean masked, String tag,
                        long stamp) {
    }

    /**
     * What a read counted: packets read, segments skipped as cut short by the snapshot length, packets that were
     * not a TCP segment over IPv4 or IPv6 (or whose headers made no sense), frames parsed, segments dropped while
     * their stream looked for its place (and places lost on a header that made no sense), and why the file was
     * not read to its end (null when it was).
     */
    public record Counts(long packets, long truncated, long notTcp, long frames, long unplaced, String problem) {
        public String describe() {
            return String.format(java.util.Locale.ROOT, "%,d packets, %,d frames; skipped: %,d cut short by the "
                            + "snapshot length, %,d not TCP, %,d segments without a frame boundary%s", packets,
                    frames, truncated, notTcp, unplaced, problem == null ? "" : "; " + problem);
        }
    }

    /** One direction of a connection: the bytes not yet parsed, and whether they start at a frame (or header). */
    private static final class Stream {
        byte[] bytes = new byte[4096];
        int start;
        int end;
        boolean placed;
        boolean inHttpHeader;

        void lose() {
            start = 0;
            end = 0;
            placed = false;
            inHttpHeader = false;
        }

        void append(byte[] from, int offset, int length) {
            if (end + length > bytes.length) {
                int kept = end - start;
                byte[] to = kept + length > bytes.length ? new byte[Math.max(2 * bytes.length, kept + length)]
                        : bytes;
                System.arraycopy(bytes, start, to, 0, kept);
                bytes = to;
                start = 0;
                end = kept;
            }
            System.arraycopy(from, offset, bytes, end, length);
            end += length;
        }
    }

    private final Consumer<Stamp> out;
    private final Map<Long, Stream> streams = new HashMap<>();
    private final Map<String, String> tags = new HashMap<>();
    private long packets;
    private long truncated;
    private long notTcp;
    private long frames;
    private long unplaced;

    private LoopbackCapture(Consumer<Stamp> out) {
        this.out = out;
    }

    /** Reads {@code pcap}, giving {@code out} each stamp in the order of the capture. */
    public static Counts read(Path pcap, Consumer<Stamp> out) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(pcap), 1 << 20)) {
            return read(in, out);
        }
    }

    /** Reads a capture from {@code in} (not closed), giving {@code out} each stamp in the order of the capture. */
    public static Counts read(InputStream in, Consumer<Stamp> out) throws IOException {
        LoopbackCapture capture = new LoopbackCapture(out);
        String problem = capture.readAll(in);
        return new Counts(capture.packets, capture.truncated, capture.notTcp, capture.frames, capture.unplaced,
                problem);
    }

    /** Returns why the file was not read to its end, or null. */
    private String readAll(InputStream in) throws IOException {
        byte[] header = new byte[24];
        if (in.readNBytes(header, 0, 24) < 24) {
            return "no pcap header";
        }
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int magic = h.getInt(0);
        if (magic == Integer.reverseBytes(MAGIC_NANOS) || magic == Integer.reverseBytes(MAGIC_MICROS)) {
            h.order(ByteOrder.BIG_ENDIAN);
            magic = Integer.reverseBytes(magic);
        }
        if (magic != MAGIC_NANOS && magic != MAGIC_MICROS) {
            return String.format("not a classic pcap (magic %08x)", magic);
        }
        long unit = magic == MAGIC_NANOS ? 1 : 1000;
        int link = h.getInt(20) & 0xffff;
        if (link != LINK_ETHERNET) {
            return "link type " + link + ", not Ethernet";
        }
        ByteBuffer record = ByteBuffer.allocate(16).order(h.order());
        byte[] packet = new byte[1 << 16];
        while (true) {
            int got = in.readNBytes(record.array(), 0, 16);
            if (got == 0) {
                return null;
            }
            if (got < 16) {
                return "the last record is cut short";
            }
            long seconds = Integer.toUnsignedLong(record.getInt(0));
            long fraction = Integer.toUnsignedLong(record.getInt(4));
            long captured = Integer.toUnsignedLong(record.getInt(8));
            long original = Integer.toUnsignedLong(record.getInt(12));
            if (captured > MAX_FRAME) {
                return "a record of " + captured + " bytes: the file is damaged from packet " + (packets + 1);
            }
            if (captured > packet.length) {
                packet = new byte[(int) captured];
            }
            if (in.readNBytes(packet, 0, (int) captured) < captured) {
                return "the last record is cut short";
            }
            packets++;
            packet(seconds * 1_000_000_000L + fraction * unit, packet, (int) captured, original > captured);
        }
    }

    /** One Ethernet frame of {@code length} captured bytes ({@code cut}: the capture kept only those). */
    private void packet(long time, byte[] p, int length, boolean cut) {
        int ip = 14;
        if (length < ip) {
            notTcp++;
            return;
        }
        int type = u16(p, 12);
        if (type == 0x8100 && length >= 18) {
            type = u16(p, 16);
            ip = 18;
        }
        int tcp;
        int ipEnd;
        long family;
        if (type == 0x0800 && length >= ip + 20 && (p[ip] & 0xf0) == 0x40) {
            int headerLength = (p[ip] & 0x0f) * 4;
            boolean fragment = (u16(p, ip + 6) & 0x3fff) != 0;
            if (headerLength < 20 || p[ip + 9] != 6 || fragment) {
                notTcp++;
                return;
            }
            tcp = ip + headerLength;
            ipEnd = ip + u16(p, ip + 2);
            family = 4;
        } else if (type == 0x86dd && length >= ip + 40 && (p[ip] & 0xf0) == 0x60 && p[ip + 6] == 6) {
            tcp = ip + 40;
            ipEnd = tcp + u16(p, ip + 4);
            family = 6;
        } else {
            notTcp++;
            return;
        }
        if (length < tcp + 20) { // without the ports its stream is unknown; no snapshot length is this short
            if (cut) {
                truncated++;
            } else {
                notTcp++;
            }
            return;
        }
        int sourcePort = u16(p, tcp);
        int destinationPort = u16(p, tcp + 2);
        int dataOffset = ((p[tcp + 12] & 0xf0) >> 4) * 4;
        int flags = p[tcp + 13] & 0xff;
        long key = family << 32 | (long) sourcePort << 16 | destinationPort;
        if ((flags & 0x02) != 0) { // SYN: a new connection on these ports, its bytes start here
            streams.remove(key);
        }
        int payload = tcp + dataOffset;
        if (dataOffset < 20 || payload > ipEnd) { // also an IP length shorter than the TCP header
            notTcp++;
            return;
        }
        if (payload < ipEnd) {
            Stream stream = streams.computeIfAbsent(key, k -> new Stream());
            if (ipEnd > length) {
                truncated++;
                stream.lose();
            } else {
                segment(stream, time, sourcePort, destinationPort, p, payload, ipEnd - payload);
            }
        }
        if ((flags & 0x05) != 0) { // FIN or RST: nothing more comes on these ports until a SYN
            streams.remove(key);
        }
    }

    private void segment(Stream s, long time, int sourcePort, int destinationPort, byte[] p, int from, int length) {
        if (!s.placed) {
            if (startsHttp(p, from, length)) {
                s.inHttpHeader = true;
            } else if (length < 2 || !plausible(p[from] & 0xff, p[from + 1] & 0xff)) {
                unplaced++;
                return;
            }
            s.placed = true;
        }
        int searched = Math.max(0, s.end - s.start - 3); // of a header: the bytes before hold no blank line
        s.append(p, from, length);
        if (s.inHttpHeader && !skipHttpHeader(s, s.start + searched)) {
            return;
        }
        frames(s, time, sourcePort, destinationPort);
    }

    /** Returns whether the header ended (and skips it to its blank line); loses the place when too long. */
    private boolean skipHttpHeader(Stream s, int searchFrom) {
        for (int i = searchFrom; i + 3 < s.end; i++) {
            if (s.bytes[i] == '\r' && s.bytes[i + 1] == '\n' && s.bytes[i + 2] == '\r' && s.bytes[i + 3] == '\n') {
                s.start = i + 4;
                s.inHttpHeader = false;
                return true;
            }
        }
        if (s.end - s.start > MAX_HTTP_HEADER) {
            unplaced++;
            s.lose();
        }
        return false;
    }

    /** Parses the whole frames at the start of {@code s}'s bytes; a header that makes no sense loses the place. */
    private void frames(Stream s, long time, int sourcePort, int destinationPort) {
        byte[] b = s.bytes;
        while (s.end - s.start >= 2) {
            int at = s.start;
            int b0 = b[at] & 0xff;
            int b1 = b[at + 1] & 0xff;
            if (!plausible(b0, b1)) {
                unplaced++;
                s.lose();
                return;
            }
            boolean masked = (b1 & 0x80) != 0;
            long n = b1 & 0x7f;
            int header = 2;
            if (n == 126) {
                header = 4;
                if (s.end - at < header) {
                    return;
                }
                n = u16(b, at + 2);
            } else if (n == 127) {
                header = 10;
                if (s.end - at < header) {
                    return;
                }
                n = ByteBuffer.wrap(b, at + 2, 8).getLong();
            }
            if (n < 0 || n > MAX_FRAME) {
                unplaced++;
                s.lose();
                return;
            }
            int mask = at + header;
            if (masked) {
                header += 4;
            }
            if (s.end - at < header + n) {
                return;
            }
            int payload = at + header;
            int length = (int) n;
            if (masked) {
                for (int i = 0; i < length; i++) {
                    b[payload + i] ^= b[mask + (i & 3)];
                }
            }
            frames++;
            stamps(b, payload, payload + length, time, sourcePort, destinationPort, masked);
            s.start = payload + length;
        }
        if (s.start == s.end) {
            s.start = 0;
            s.end = 0;
        }
    }

    /** Reports each {@code r<digits>:<6 or more digits>} in {@code b[from, to)}, left to right, not overlapping. */
    private void stamps(byte[] b, int from, int to, long time, int sourcePort, int destinationPort,
                        boolean masked) {
        for (int i = from; i < to; i++) {
            if (b[i] != 'r') {
                continue;
            }
            int colon = digits(b, i + 1, to);
            if (colon == i + 1 || colon >= to || b[colon] != ':') {
                continue;
            }
            int end = digits(b, colon + 1, to);
            int count = end - colon - 1;
            if (count < 6) {
                continue;
            }
            // More than 18 digits may not fit a long; no clock of this machine reads that high.
            if (count <= 18) {
                long stamp = Long.parseLong(new String(b, colon + 1, count, StandardCharsets.US_ASCII));
                String tag = new String(b, i, colon - i, StandardCharsets.US_ASCII);
                out.accept(new Stamp(time, sourcePort, destinationPort, masked, tags.computeIfAbsent(tag, t -> t),
                        stamp));
            }
            i = end - 1;
        }
    }

    private static int digits(byte[] b, int from, int to) {
        int i = from;
        while (i < to && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        return i;
    }

    /**
     * Whether two bytes can start a frame: no extension bits (none is negotiated), a defined opcode, and a
     * control frame final and short.
     */
    static boolean plausible(int b0, int b1) {
        int opcode = b0 & 0x0f;
        if ((b0 & 0x70) != 0 || (opcode > 2 && opcode < 8) || opcode > 10) {
            return false;
        }
        return opcode < 8 || ((b0 & 0x80) != 0 && (b1 & 0x7f) <= 125);
    }

    private static boolean startsHttp(byte[] p, int from, int length) {
        return startsWith(p, from, length, "GET ") || startsWith(p, from, length, "HTTP/");
    }

    private static boolean startsWith(byte[] p, int from, int length, String prefix) {
        if (length < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (p[from + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xff) << 8 | (b[at + 1] & 0xff);
    }
}
