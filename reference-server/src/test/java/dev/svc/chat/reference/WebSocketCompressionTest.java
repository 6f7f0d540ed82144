package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * permessage-deflate is not negotiated unless asked for: like the official server, the gateway does not
 * compress by default (compressing is once per frame per connection, the fan-out's largest cost).
 */
class WebSocketCompressionTest {

    @Test
    void deflateIsNotNegotiatedByDefault() throws Exception {
        try (ReferenceServer server = Backends.builder().build().start()) {
            String answer = upgradeOfferingDeflate(server.port());
            assertTrue(answer.startsWith("HTTP/1.1 101"), answer);
            assertFalse(answer.toLowerCase(Locale.ROOT).contains("permessage-deflate"), answer);
        }
    }

    @Test
    void deflateIsNegotiatedWhenEnabled() throws Exception {
        try (ReferenceServer server = Backends.builder().webSocketCompression(true).build().start()) {
            String answer = upgradeOfferingDeflate(server.port());
            assertTrue(answer.startsWith("HTTP/1.1 101"), answer);
            assertTrue(answer.toLowerCase(Locale.ROOT).contains("sec-websocket-extensions: permessage-deflate"),
                    answer);
        }
    }

    /** Sends an upgrade that offers permessage-deflate, as browsers and the official client do; returns the answer's head. */
    private static String upgradeOfferingDeflate(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                    + "Host: 127.0.0.1:" + port + "\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                head.write(b);
            }
            return head.toString(StandardCharsets.US_ASCII);
        }
    }
}
