package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.http.AccessLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The send route answered ahead of Javalin ({@code http.SendRoute}) against Javalin's own send route, which still
 * answers the path with a trailing slash: every status, error body and header must be the same, so that a drift
 * between the two shows here. Also what the filter must leave to Javalin, and its access-log line.
 */
class SendRouteTest {

    private static final MutableClock CLOCK = new MutableClock(Instant.parse("2026-11-21T10:00:00.000Z"));
    private static ReferenceServer server;
    private static Http http;
    private static String alice;
    private static String carol;
    private static String room;

    @BeforeAll
    static void start() {
        server = Backends.builder().clock(CLOCK).build().start();
        http = new Http(server);
        alice = http.mint(server.apiKey(), "alice");
        carol = http.mint(server.apiKey(), "carol");
        room = http.createRoom(server.apiKey(), "alice", "bob");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String path(String roomId) {
        return "/v1/chat/rooms/" + roomId + "/messages";
    }

    /** One request, sent to the filter's path and to Javalin's (the same with a trailing slash). */
    private record Case(String name, String roomId, String body, Map<String, String> headers, boolean chunked) {
    }

    private static Case bearer(String name, String token, String body) {
        return new Case(name, room, body, Map.of("Authorization", "Bearer " + token), false);
    }

    @Test
    void refusalsAreTheBytesOfJavalinsRoute() {
        Http.Response minted = http.apiKey("POST", "/v1/auth/token", server.apiKey(),
                Map.of("userId", "alice", "expiresIn", 1));
        String expiring = minted.json().get("token").asText();
        String text = "{\"clientMessageId\":\"c1\",\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}]}";
        String big = "{\"clientMessageId\":\"c1\",\"parts\":[{\"type\":\"text\",\"text\":\"" + "x".repeat(70_000)
                + "\"}]}";
        List<Case> cases = new ArrayList<>(List.of(
                new Case("no credential", room, text, Map.of(), false),
                new Case("not a bearer", room, text, Map.of("Authorization", "Basic YTpi"), false),
                bearer("a forged token", "eyJhbGciOiJIUzI1NiJ9.e30.x", text),
                bearer("an API key as a bearer", server.apiKey(), text),
                new Case("an API key", room, text, Map.of("x-api-key", server.apiKey()), false),
                bearer("truncated JSON", alice, "{"),
                bearer("not JSON", alice, "not json"),
                bearer("an array", alice, "[1]"),
                bearer("two values", alice, "{} {}"),
                bearer("an empty body", alice, ""),
                bearer("a NUL in a text", alice, text.replace("hi", "h\\u0000i")),
                bearer("no parts", alice, "{\"clientMessageId\":\"c1\"}"),
                bearer("a body over 64 KiB", alice, big),
                new Case("a chunked body over 64 KiB", room, big, Map.of("Authorization", "Bearer " + alice), true),
                bearer("another sender", alice, text.replace("{", "{\"senderId\":\"bob\",")),
                new Case("an unknown room", UUID.randomUUID().toString(), text,
                        Map.of("Authorization", "Bearer " + alice), false),
                bearer("not a member", carol, text)));
        CLOCK.advance(Duration.ofSeconds(2));
        cases.add(bearer("an expired token", expiring, text));
        for (Case c : cases) {
            Http.Response direct = send(c, path(c.roomId()));
            Http.Response javalin = send(c, path(c.roomId()) + "/");
            assertTrue(direct.status() >= 400, c.name() + ": " + direct.status());
            assertEquals(javalin.status(), direct.status(), c.name());
            assertEquals(javalin.raw().body(), direct.raw().body(), c.name());
            assertEquals(headers(javalin, true), headers(direct, true), c.name());
            if (direct.status() == 413) {
                // The unread rest of a refused body: the connection always ends, however much of it had arrived.
                assertEquals(List.of("close"), headers(direct, true).get("connection"), c.name());
            }
        }
    }

    @Test
    void aSendAndItsRepeatAreAnsweredAsJavalinsRouteAnswersThem() {
        Http.Response direct = http.sendText(alice, room, "d1", "one");
        Http.Response javalin = http.bearer("POST", path(room) + "/", alice, Map.of("clientMessageId", "j1",
                "parts", List.of(Map.of("type", "text", "text", "one"))));
        assertEquals(201, direct.status());
        assertEquals(201, javalin.status());
        assertEquals(headers(javalin, false), headers(direct, false));
        assertEquals(fieldTypes(javalin.json()), fieldTypes(direct.json()));
        assertEquals(direct.json().get("seq").asLong() + 1, javalin.json().get("seq").asLong());
        // A repeat answers 200 with the first message, by either route.
        Http.Response repeat = http.sendText(alice, room, "j1", "one");
        assertEquals(200, repeat.status());
        assertEquals(javalin.raw().body(), repeat.raw().body());
        assertEquals(headers(javalin, false), headers(repeat, false));
    }

    @Test
    void aRateLimitedSendCarriesRetryAfterByEitherRoute() {
        try (ReferenceServer limited = Backends.builder().clock(CLOCK).sendRateLimit(0.5, 1).build().start()) {
            Http h = new Http(limited);
            String roomId = h.createRoom(limited.apiKey(), "alice");
            String token = h.mint(limited.apiKey(), "alice");
            assertEquals(201, h.sendText(token, roomId, "r0", "m").status());
            Case c = new Case("rate limited", roomId,
                    "{\"clientMessageId\":\"r1\",\"parts\":[{\"type\":\"text\",\"text\":\"m\"}]}",
                    Map.of("Authorization", "Bearer " + token), false);
            Http.Response direct = send(h, c, path(roomId));
            Http.Response javalin = send(h, c, path(roomId) + "/");
            assertEquals(429, direct.status());
            assertEquals("2", direct.raw().headers().firstValue("Retry-After").orElse(""));
            assertEquals(javalin.raw().body(), direct.raw().body());
            assertEquals(headers(javalin, true), headers(direct, true));
        }
    }

    /**
     * Two readers of the room that read nothing after their handshake (as a member whose network died): every
     * send, on either route, is answered while their queues grow, until each is cut at its bound.
     */
    @Test
    void sendsAreAnsweredWhileTheRoomsReadersReadNothingUntilTheyAreCut() throws Exception {
        try (ReferenceServer server = Backends.builder().sendRateLimit(10_000, 10_000).outboundQueueLimit(50).build()
                .start()) {
            Http h = new Http(server);
            String roomId = h.createRoom(server.apiKey(), "alice", "bob", "carol");
            String token = h.mint(server.apiKey(), "alice");
            Map<String, String> part = Map.of("type", "text", "text", "x".repeat(4000));
            try (RawWebSocket bob = connect(h, server, "bob"); RawWebSocket carol = connect(h, server, "carol")) {
                int sent = 0;
                while (server.connectionCount() > 0) {
                    assertTrue(sent < 4_000, "the readers were never cut");
                    String route = sent % 2 == 0 ? path(roomId) : path(roomId) + "/";
                    Http.Response r = h.bearer("POST", route, token,
                            Map.of("clientMessageId", "f" + sent, "parts", List.of(part)));
                    assertEquals(201, r.status());
                    assertEquals(++sent, r.json().get("seq").asInt());
                }
            }
        }
    }

    private static RawWebSocket connect(Http h, ReferenceServer on, String user) throws Exception {
        RawWebSocket socket = new RawWebSocket(on.port());
        assertTrue(socket.readText().startsWith("0{"));
        socket.sendText("40{\"token\":\"" + h.mint(on.apiKey(), user) + "\"}");
        assertTrue(socket.readText().startsWith("40{"));
        return socket;
    }

    @Test
    void otherMethodsAndFormsOfThePathStayJavalins() {
        for (String method : List.of("PUT", "DELETE", "HEAD")) {
            Http.Response r = http.bearer(method, path(room), alice, method.equals("PUT") ? Map.of() : null);
            assertEquals(404, r.status(), method);
        }
        assertEquals("not_found", http.bearer("PUT", path(room), alice, Map.of()).errorCode());
        assertEquals(200, http.bearer("GET", path(room), alice, null).status());
        // An encoded room id is Javalin's to decode: an unknown room either way, never a 500.
        Http.Response encoded = http.bearer("POST", path("%41bc"), alice,
                Map.of("clientMessageId", "e1", "parts", List.of(Map.of("type", "text", "text", "x"))));
        assertEquals(404, encoded.status());
        assertEquals("not_found", encoded.errorCode());
        assertEquals(404, http.bearer("POST", "/v1/chat/rooms//messages", alice, Map.of()).status());
    }

    @Test
    void theAccessLogHasTheSendsLineAndNoToken() throws Exception {
        Object logger = LoggerFactory.getLogger(AccessLog.LOGGER_NAME);
        Field level = logger.getClass().getDeclaredField("currentLogLevel");
        level.setAccessible(true);
        Object was = level.get(logger);
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
        try {
            level.set(logger, 20); // INFO: the tests' logging is at WARN
            System.setErr(capture);
            assertEquals(201, http.sendText(alice, room, "log1", "x").status());
            assertEquals(401, http.sendText("nope", room, "log2", "x").status());
            String fast = "POST " + path(room) + " 201 ";
            String refused = "POST " + path(room) + " 401 ";
            // The line is written once the answer is sent.
            Conditions.until("the access log's lines", () -> log(captured).contains(fast)
                    && log(captured).contains(refused));
        } finally {
            System.setErr(err);
            level.set(logger, was);
        }
        String lines = log(captured);
        assertTrue(lines.matches("(?s).*INFO " + AccessLog.LOGGER_NAME + " - POST " + path(room)
                + " 201 \\d+ ms.*"), lines);
        assertTrue(lines.contains("POST " + path(room) + " 401 "), lines);
        assertFalse(lines.contains(alice), "a token in the access log");
        assertFalse(lines.contains("log1"), "a body in the access log");
    }

    private static String log(ByteArrayOutputStream captured) {
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static Http.Response send(Case c, String path) {
        return send(http, c, path);
    }

    private static Http.Response send(Http h, Case c, String path) {
        return c.chunked() ? h.sendChunked("POST", path, c.body(), c.headers())
                : h.send("POST", path, c.body(), c.headers());
    }

    /** The answer's headers but its date (and its length, unless {@code withLength}), names in lower case. */
    private static Map<String, List<String>> headers(Http.Response r, boolean withLength) {
        Map<String, List<String>> out = new TreeMap<>();
        r.raw().headers().map().forEach((name, values) -> {
            String lower = name.toLowerCase(java.util.Locale.ROOT);
            if (!lower.equals("date") && (withLength || !lower.equals("content-length"))) {
                out.put(lower, values);
            }
        });
        assertNotEquals(null, out.get("content-type"));
        return out;
    }

    /** The fields of {@code node} in order, each with its JSON type. */
    private static Map<String, Object> fieldTypes(JsonNode node) {
        Map<String, Object> types = new LinkedHashMap<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            types.put(name, node.get(name).getNodeType());
        }
        return types;
    }
}
