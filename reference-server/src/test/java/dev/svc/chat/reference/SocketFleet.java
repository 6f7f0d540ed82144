package dev.svc.chat.reference;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many raw WebSocket clients in one test: each connects and handshakes on its own channel (blocking), then
 * one selector thread reads every member's frames and counts them, so a thousand clients need one thread
 * and every frame the server sends is read at once (none of them is a slow consumer).
 */
final class SocketFleet implements AutoCloseable {

    private static final String PRESENCE = "42[\"tenant-presence\",";

    /** One client of the fleet. */
    static final class Member {
        private final SocketChannel channel;
        private final ByteBuffer in = ByteBuffer.allocate(8192);
        final AtomicInteger presenceFrames = new AtomicInteger();
        final AtomicInteger frames = new AtomicInteger();
        final List<String> presence = java.util.Collections.synchronizedList(new ArrayList<>());
        volatile boolean closedByServer;

        private Member(SocketChannel channel) {
            this.channel = channel;
        }

        /** Closes the TCP connection without a WebSocket close frame (a dropped network). */
        void drop() throws IOException {
            channel.close();
        }
    }

    private final int port;
    private final Selector selector;
    private final Queue<Member> joining = new ConcurrentLinkedQueue<>();
    private final Thread reader;
    private volatile boolean closed;
    private volatile Throwable readerFailure;

    SocketFleet(int port) throws IOException {
        this.port = port;
        this.selector = Selector.open();
        this.reader = new Thread(this::readLoop, "socket-fleet-reader");
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /** Opens a WebSocket, connects with {@code authJson}, and hands the member to the reader thread. */
    Member connect(String authJson) throws IOException {
        SocketChannel channel = SocketChannel.open();
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.connect(new InetSocketAddress("127.0.0.1", port));
        channel.write(ByteBuffer.wrap(("GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                + "Host: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII)));
        String headers = readHeaders(channel);
        if (!headers.startsWith("HTTP/1.1 101")) {
            channel.close();
            throw new IOException("upgrade refused: " + headers);
        }
        Member member = new Member(channel);
        String open = readFrame(channel);
        if (!open.startsWith("0{")) {
            throw new IOException("expected the open packet, got " + open);
        }
        writeMasked(channel, "40" + authJson);
        String answer = readFrame(channel);
        if (!answer.startsWith("40{")) {
            throw new IOException("expected CONNECT ok, got " + answer);
        }
        channel.configureBlocking(false);
        joining.add(member);
        selector.wakeup();
        return member;
    }

    /** Throws if the reader thread failed. */
    void checkReader() {
        if (readerFailure != null) {
            throw new AssertionError("fleet reader failed", readerFailure);
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        selector.wakeup();
        try {
            reader.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (SelectionKey key : selector.keys()) {
            key.channel().close();
        }
        for (Member m : joining) {
            m.channel.close();
        }
        selector.close();
    }

    private void readLoop() {
        try {
            while (!closed) {
                selector.select(100);
                Member m;
                while ((m = joining.poll()) != null) {
                    m.channel.register(selector, SelectionKey.OP_READ, m);
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    read((Member) key.attachment(), key);
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException e) {
            readerFailure = e;
        }
    }

    private void read(Member member, SelectionKey key) throws IOException {
        int n;
        try {
            n = member.channel.read(member.in);
        } catch (IOException e) {
            n = -1;
        }
        if (n < 0) {
            if (member.channel.isOpen()) {
                member.closedByServer = true;
            }
            key.cancel();
            member.channel.close();
            return;
        }
        ByteBuffer buf = member.in;
        buf.flip();
        while (buf.remaining() >= 2) {
            buf.mark();
            int b0 = buf.get() & 0xff;
            int len = buf.get() & 0x7f;
            if (len == 126) {
                if (buf.remaining() < 2) {
                    buf.reset();
                    break;
                }
                len = buf.getShort() & 0xffff;
            } else if (len == 127) {
                throw new IOException("frame too large for the fleet");
            }
            if (buf.remaining() < len) {
                buf.reset();
                break;
            }
            byte[] payload = new byte[len];
            buf.get(payload);
            if ((b0 & 0x0f) == 8) {
                member.closedByServer = true;
            } else {
                String text = new String(payload, StandardCharsets.UTF_8);
                member.frames.incrementAndGet();
                if (text.startsWith(PRESENCE)) {
                    member.presence.add(text);
                    member.presenceFrames.incrementAndGet();
                }
            }
        }
        buf.compact();
        if (!buf.hasRemaining()) {
            throw new IOException("frame larger than the fleet's buffer");
        }
    }

    private static String readHeaders(SocketChannel channel) throws IOException {
        StringBuilder headers = new StringBuilder();
        ByteBuffer one = ByteBuffer.allocate(1);
        while (!headers.toString().endsWith("\r\n\r\n")) {
            one.clear();
            if (channel.read(one) < 0) {
                throw new IOException("closed during the upgrade");
            }
            headers.append((char) one.get(0));
        }
        return headers.toString();
    }

    private static String readFrame(SocketChannel channel) throws IOException {
        ByteBuffer head = readFully(channel, 2);
        int len = head.get(1) & 0x7f;
        if (len == 126) {
            len = readFully(channel, 2).getShort() & 0xffff;
        } else if (len == 127) {
            throw new IOException("frame too large");
        }
        return new String(readFully(channel, len).array(), StandardCharsets.UTF_8);
    }

    private static ByteBuffer readFully(SocketChannel channel, int n) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(n);
        while (buf.hasRemaining()) {
            if (channel.read(buf) < 0) {
                throw new IOException("closed");
            }
        }
        buf.flip();
        return buf;
    }

    private static void writeMasked(SocketChannel channel, String text) throws IOException {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        ByteBuffer frame = ByteBuffer.allocate(payload.length + 8);
        frame.put((byte) 0x81);
        if (payload.length < 126) {
            frame.put((byte) (0x80 | payload.length));
        } else {
            frame.put((byte) (0x80 | 126));
            frame.putShort((short) payload.length);
        }
        byte[] mask = {1, 2, 3, 4};
        frame.put(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.put((byte) (payload[i] ^ mask[i % 4]));
        }
        frame.flip();
        while (frame.hasRemaining()) {
            channel.write(frame);
        }
    }
}
