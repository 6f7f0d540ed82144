package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * Connections opened and dropped without a handshake, or held without one, and header floods: the server's
 * bookkeeping returns to zero, nothing stays open, and it still serves.
 */
class ConnectionFloodTest {

    private static final String UPGRADE = "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

    @Test
    void connectionsDroppedWithoutAHandshakeLeaveNothingBehind() throws Exception {
        try (ReferenceServer server = ReferenceServer.builder().build().start()) {
            Http http = new Http(server);
            String token = http.mint(server.apiKey(), "alice");
            int endpointsBefore = server.openEndpoints();
            for (int round = 0; round < 5; round++) {
                List<Socket> sockets = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    sockets.add(open(server.port(), UPGRADE));
                }
                for (Socket s : sockets) {
                    readUntil(s.getInputStream(), "\"maxPayload\"");
                }
                assertTrue(server.connectionCount() >= 200);
                for (int i = 0; i < sockets.size(); i++) {
                    drop(sockets.get(i), i % 2 == 0);
                }
            }
            // Plain TCP connections that never send a byte, and sessions that handshook, dropped too.
            for (int i = 0; i < 100; i++) {
                drop(open(server.port(), ""), i % 2 == 0);
            }
            for (int i = 0; i < 50; i++) {
                Socket s = open(server.port(), UPGRADE);
                readUntil(s.getInputStream(), "\"maxPayload\"");
                writeMaskedText(s.getOutputStream(), "40{\"token\":\"" + token + "\"}");
                readUntil(s.getInputStream(), "40{\"sid\"");
                drop(s, i % 2 == 0);
            }
            await(server::gatewayBookkeeping, 0, "gateway bookkeeping (connections, timers, indexes)");
            await(() -> Math.max(0, server.openEndpoints() - endpointsBefore), 0, "Jetty endpoints");
            assertEquals(0, http.bearer("GET", "/v1/presence", token, null).json().get("online").size());
            stillServes(server, http, token);
        }
    }

    @Test
    void connectionsHeldWithoutAHandshakeAreClosedAtTheConnectTimeout() throws Exception {
        try (ReferenceServer server = ReferenceServer.builder().connectTimeout(Duration.ofMillis(300)).build().start()) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 200; i++) {
                    held.add(open(server.port(), UPGRADE));
                }
                for (Socket s : held) {
                    readUntil(s.getInputStream(), "\"maxPayload\"");
                }
                await(server::gatewayBookkeeping, 0, "connections held without a CONNECT closed by the server");
                for (Socket s : held) {
                    s.setSoTimeout(30_000);
                    assertTrue(readsToEnd(s.getInputStream()), "the server closed it");
                }
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
            Http http = new Http(server);
            stillServes(server, http, http.mint(server.apiKey(), "bob"));
        }
    }

    @Test
    void headerFloodsAreRefusedWithTheContractBody() throws Exception {
        try (ReferenceServer server = ReferenceServer.builder().build().start()) {
            String big = "GET /v1/presence HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Flood: " + "a".repeat(10_000)
                    + "\r\nConnection: close\r\n\r\n";
            StringBuilder many = new StringBuilder("GET /v1/presence HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            for (int i = 0; i < 2000; i++) {
                many.append("X-H").append(i).append(": v\r\n");
            }
            many.append("Connection: close\r\n\r\n");
            String upgrade = UPGRADE.replace("Host: 127.0.0.1\r\n", "Host: 127.0.0.1\r\nX-Flood: " + "b".repeat(9000)
                    + "\r\n");
            for (String request : List.of(big, many.toString(), upgrade)) {
                String response = exchange(server.port(), request);
                assertTrue(response.startsWith("HTTP/1.1 431"), response);
                JsonNode body = Http.JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
                assertEquals("bad_request", body.at("/error/code").asText(), response);
                assertTrue(body.at("/error/message").asText().contains("8192 bytes"), response);
            }
            // Just under the limit, the route answers as usual (no credential: 401).
            String fits = "GET /v1/presence HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + "c".repeat(7000)
                    + "\r\nConnection: close\r\n\r\n";
            String response = exchange(server.port(), fits);
            assertTrue(response.startsWith("HTTP/1.1 401"), response);
            Http http = new Http(server);
            stillServes(server, http, http.mint(server.apiKey(), "carol"));
        }
    }

    private static void stillServes(ReferenceServer server, Http http, String token) {
        String roomId = http.createRoom(server.apiKey(), "alice", "bob", "carol");
        try (SocketClient client = SocketClient.connectToken(server, token)) {
            assertTrue(client.emitWithAck(1, "join-room", "{\"roomId\":\"" + roomId + "\"}").get("ok").asBoolean());
        }
    }

    private static Socket open(int port, String request) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(30_000);
        if (!request.isEmpty()) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
        }
        return s;
    }

    /** Closes with a FIN, or with a RST when {@code reset} (as a crashed client or a lost network does). */
    private static void drop(Socket s, boolean reset) throws IOException {
        if (reset) {
            s.setSoLinger(true, 0);
        }
        s.close();
    }

    private static void readUntil(InputStream in, String marker) throws IOException {
        StringBuilder seen = new StringBuilder();
        while (seen.indexOf(marker) < 0) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before " + marker + ": " + seen);
            }
            seen.append((char) b);
        }
    }

    private static boolean readsToEnd(InputStream in) {
        try {
            byte[] buffer = new byte[4096];
            while (in.read(buffer) >= 0) {
                // discard until the end of the stream
            }
            return true;
        } catch (IOException e) {
            return e.getMessage() != null && e.getMessage().contains("reset");
        }
    }

    private static String exchange(int port, String request) throws IOException {
        try (Socket s = open(port, "")) {
            OutputStream out = s.getOutputStream();
            try {
                out.write(request.getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                // The server may answer and close before it has read the whole flood: read what it said.
            }
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static void writeMaskedText(OutputStream out, String text) throws IOException {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[payload.length + (payload.length < 126 ? 6 : 8)];
        int i = 0;
        frame[i++] = (byte) 0x81;
        if (payload.length < 126) {
            frame[i++] = (byte) (0x80 | payload.length);
        } else {
            frame[i++] = (byte) (0x80 | 126);
            frame[i++] = (byte) (payload.length >> 8);
            frame[i++] = (byte) payload.length;
        }
        byte[] mask = {9, 8, 7, 6};
        System.arraycopy(mask, 0, frame, i, 4);
        i += 4;
        for (int j = 0; j < payload.length; j++) {
            frame[i + j] = (byte) (payload[j] ^ mask[j % 4]);
        }
        out.write(frame);
        out.flush();
    }

    private static void await(IntSupplier value, int expected, String what) throws InterruptedException {
        Conditions.until(what + " at " + expected, Conditions.WAIT, () -> value.getAsInt() == expected,
                value::getAsInt);
    }
}
