package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The gateway's {@code typing} event at the frame level: its validation, and who gets it. */
class TypingGatewayTest {

    private ReferenceServer server;
    private Http http;
    private String roomId;

    @BeforeEach
    void start() {
        server = Backends.builder().build().start();
        http = new Http(server);
        roomId = http.createRoom(server.apiKey(), "alice", "bob");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String join() {
        return "{\"roomId\":\"" + roomId + "\"}";
    }

    @Test
    void typingIsValidatedAndAckedAndRelayedWithTheContractPayload() {
        try (SocketClient bob = SocketClient.connectToken(server, http.mint(server.apiKey(), "bob"));
             SocketClient alice = SocketClient.connectToken(server, http.mint(server.apiKey(), "alice"))) {
            assertEquals("tenant-presence", bob.nextEvent().get(0).asText());
            assertTrue(bob.emitWithAck(0, "join-room", join()).get("ok").asBoolean());
            String notJoined = "{\"roomId\":\"" + roomId + "\",\"isTyping\":true}";
            assertEquals("bad_request", alice.emitWithAck(1, "typing", notJoined).at("/error/code").asText());
            assertTrue(alice.emitWithAck(2, "join-room", join()).get("ok").asBoolean());
            for (String bad : new String[] {"{\"roomId\":\"" + roomId + "\"}",
                    "{\"roomId\":\"" + roomId + "\",\"isTyping\":\"yes\"}", "{\"isTyping\":true}", "[]"}) {
                JsonNode ack = alice.emitWithAck(3, "typing", bad);
                assertEquals(false, ack.get("ok").asBoolean(), bad);
                assertEquals("bad_request", ack.at("/error/code").asText(), bad);
            }
            assertEquals("{\"ok\":true}", alice.emitWithAck(4, "typing", notJoined).toString());
            JsonNode event = bob.nextEvent();
            assertEquals("typing", event.get(0).asText());
            assertEquals("{\"roomId\":\"" + roomId + "\",\"userId\":\"alice\",\"isTyping\":true}",
                    event.get(1).toString());
            // the typer is not told of its own typing: the answer to its next emit is its next frame
            assertTrue(alice.emitWithAck(5, "leave-room", join()).get("ok").asBoolean());
            alice.assertNoFrame();
        }
    }

    @Test
    void anApiKeyConnectionThatJoinedGetsTypingButCannotType() {
        try (SocketClient bot = SocketClient.connect(server, "{\"apiKey\":\"" + server.apiKey() + "\"}");
             SocketClient alice = SocketClient.connectToken(server, http.mint(server.apiKey(), "alice"))) {
            assertTrue(bot.emitWithAck(0, "join-room", join()).get("ok").asBoolean());
            assertTrue(alice.emitWithAck(0, "join-room", join()).get("ok").asBoolean());
            String typing = "{\"roomId\":\"" + roomId + "\",\"isTyping\":false}";
            assertEquals("forbidden", bot.emitWithAck(1, "typing", typing).at("/error/code").asText());
            assertTrue(alice.emitWithAck(1, "typing", typing).get("ok").asBoolean());
            assertEquals("alice", bot.nextEvent().get(1).get("userId").asText());
        }
    }
}
