package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * REST answers are never compressed, whatever the client accepts: the contract asks for no compression, and the
 * send route answered ahead of Javalin writes plain bytes, so Javalin's routes must too.
 */
class RestCompressionTest {

    private static ReferenceServer server;
    private static Http http;

    @BeforeAll
    static void start() {
        server = Backends.builder().build().start();
        http = new Http(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void largeAnswersAreNotGzippedForAClientThatAcceptsGzip() {
        String token = http.mint(server.apiKey(), "alice");
        String room = http.createRoom(server.apiKey(), "alice");
        String text = "x".repeat(4000);
        assertEquals(201, http.sendText(token, room, "c1", text).status());
        Map<String, String> gzip = Map.of("Authorization", "Bearer " + token, "Accept-Encoding", "gzip");
        String body = Http.toJson(Map.of("clientMessageId", "c2",
                "parts", List.of(Map.of("type", "text", "text", text))));
        for (Http.Response r : List.of(
                http.send("GET", "/v1/chat/rooms/" + room + "/messages", null, gzip),
                http.send("POST", "/v1/chat/rooms/" + room + "/messages", body, gzip),
                http.send("POST", "/v1/chat/rooms/" + room + "/messages/", body, gzip))) {
            assertTrue(r.status() / 100 == 2, r.raw().uri() + ": " + r.status());
            assertEquals("", r.raw().headers().firstValue("Content-Encoding").orElse(""), r.raw().uri().toString());
            assertTrue(r.raw().body().contains(text), r.raw().uri().toString());
        }
    }
}
