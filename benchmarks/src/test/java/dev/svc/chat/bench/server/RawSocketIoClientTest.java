package dev.svc.chat.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.reference.ReferenceServer;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The raw diagnosis peer speaks enough of the protocol to be measured: it connects with a token, its send reaches
 * the other member as a {@code new-message} whose text it hands over, and a refused token fails its connect.
 */
class RawSocketIoClientTest {
    private static ReferenceServer server;

    @BeforeAll
    static void start() {
        server = ReferenceServer.builder().host("127.0.0.1").port(0).apiKey(ServerUnderTest.API_KEY).build()
                .start();
    }

    @AfterAll
    static void stop() {
        server.close();
        RawSocketIoClient.shutdown();
    }

    @Test
    void aSendReachesTheOtherMembersHandlerWithItsText() throws Exception {
        Http http = new Http();
        String api = server.apiUrl();
        List<String> tokens = http.tokens(api, List.of("raw-a", "raw-b"));
        String room = http.post(api + "/chat/rooms", ServerUnderTest.API_KEY,
                "{\"memberIds\":[\"raw-a\",\"raw-b\"]}").get("id").textValue();
        BlockingQueue<String> received = new ArrayBlockingQueue<>(4);
        try (RawSocketIoClient sender = RawSocketIoClient.connect(api, "raw-a", tokens.get(0));
             RawSocketIoClient receiver = RawSocketIoClient.connect(api, "raw-b", tokens.get(1))) {
            receiver.onNewMessage((text, nanos) -> received.add(text + " @" + (nanos > 0)));
            sender.send(room, "tag:123");
            sender.send(room, "tag:456");

            assertEquals("tag:123 @true", received.poll(30, TimeUnit.SECONDS));
            assertEquals("tag:456 @true", received.poll(30, TimeUnit.SECONDS), "a second send, in order");
        }
    }

    @Test
    void aRefusedTokenFailsTheConnect() {
        Exception refused = assertThrows(Exception.class,
                () -> RawSocketIoClient.connect(server.apiUrl(), "raw-c", "not-a-token"));
        assertTrue(String.valueOf(refused.getMessage()).contains("CONNECT refused"), refused.toString());
    }
}
