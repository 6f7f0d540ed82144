package dev.svc.chat.reference;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A minimal WebSocket client on a plain socket with a tiny receive buffer, for a client that truly stops
 * reading (the JDK client may keep buffering while its demand is zero).
 */
final class RawWebSocket implements AutoCloseable {

    private final Socket socket = new Socket();
    private final InputStream in;
    private final OutputStream out;

    RawWebSocket(int port) throws IOException {
        socket.setReceiveBufferSize(4096); // before connect, so the TCP window stays small
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(5000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
        out.write(("GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                + "Host: 127.0.0.1:" + port + "\r\n"
                + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String status = readHeaders();
        if (!status.startsWith("HTTP/1.1 101")) {
            throw new IOException("upgrade refused: " + status);
        }
    }

    /** Reads one text frame (server frames are unmasked). */
    String readText() throws IOException {
        int b0 = readByte();
        int len = readByte() & 0x7f;
        if (len == 126) {
            len = (readByte() << 8) | readByte();
        } else if (len == 127) {
            throw new IOException("frame too large for this test client");
        }
        byte[] payload = in.readNBytes(len);
        if ((b0 & 0x0f) != 1) {
            throw new IOException("not a text frame: opcode " + (b0 & 0x0f));
        }
        return new String(payload, StandardCharsets.UTF_8);
    }

    /** Sends one masked text frame (short payloads only). */
    void sendText(String text) throws IOException {
        sendTextBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends one masked text frame whose payload is {@code payload} as given, even if not UTF-8. */
    void sendTextBytes(byte[] payload) throws IOException {
        if (payload.length > 65535) {
            throw new IOException("too long for this test client");
        }
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x81);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else {
            frame.write(0x80 | 126);
            frame.write(payload.length >> 8);
            frame.write(payload.length & 0xff);
        }
        byte[] mask = {1, 2, 3, 4};
        frame.write(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i % 4]);
        }
        out.write(frame.toByteArray());
        out.flush();
    }

    /** Reads and discards until the server ends the connection; returns false if it is still open. */
    boolean drainUntilClosed(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        byte[] buffer = new byte[64 * 1024];
        socket.setSoTimeout(200);
        while (System.nanoTime() < deadline) {
            try {
                if (in.read(buffer) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                // still open: keep reading until the deadline
            } catch (IOException e) {
                return true; // reset by the server
            }
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private String readHeaders() throws IOException {
        StringBuilder headers = new StringBuilder();
        while (!headers.toString().endsWith("\r\n\r\n")) {
            headers.append((char) readByte());
        }
        return headers.toString();
    }

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new IOException("connection closed");
        }
        return b;
    }
}
