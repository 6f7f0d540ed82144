package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jar's flags: parsing, refusals with a message naming the flag, and their effect on a started server. */
class CommandLineTest {

    @Test
    void parsesEveryFlag() {
        CommandLine line = CommandLine.parse(new String[] {
            "--port", "0", "--host", "127.0.0.1", "--tenant", "acme:sk_test_acme_key", "--tenant", "b-2:sk_live_bbbbbb",
            "--ping-interval", "500ms", "--ping-timeout", "2s", "--connect-timeout", "3",
            "--call-ring-timeout", "1m", "--send-rate", "2.5", "--send-burst", "7", "--ws-compression"});
        assertEquals(0, line.port);
        assertEquals("127.0.0.1", line.host);
        assertEquals(List.of("acme", "b-2"), line.tenants.stream().map(TenantConfig::id).toList());
        assertEquals("sk_test_acme_key", line.tenants.get(0).apiKey());
        assertEquals(Duration.ofMillis(500), line.pingInterval);
        assertEquals(Duration.ofSeconds(2), line.pingTimeout);
        assertEquals(Duration.ofSeconds(3), line.connectTimeout);
        assertEquals(Duration.ofMinutes(1), line.callRingTimeout);
        assertEquals(2.5, line.sendRate);
        assertEquals(7, line.sendBurst);
        assertTrue(line.webSocketCompression);
        assertFalse(CommandLine.parse(new String[0]).webSocketCompression);
        assertFalse(line.help);
        assertTrue(CommandLine.parse(new String[] {"--port", "1", "--help"}).help);
    }

    @Test
    void refusesBadValuesNamingTheFlag() {
        Map<List<String>, String> cases = Map.ofEntries(
                Map.entry(List.of("--ping-interval", "0s"), "--ping-interval"),
                Map.entry(List.of("--ping-timeout", "5h"), "--ping-timeout"),
                Map.entry(List.of("--connect-timeout", "-1"), "--connect-timeout"),
                Map.entry(List.of("--call-ring-timeout"), "missing value for --call-ring-timeout"),
                Map.entry(List.of("--send-rate", "0"), "--send-rate"),
                Map.entry(List.of("--send-rate", "fast"), "--send-rate"),
                Map.entry(List.of("--send-burst", "0"), "--send-burst"),
                Map.entry(List.of("--tenant", "acme"), "--tenant must be ID:KEY"),
                Map.entry(List.of("--tenant", "acme:key"), "must start with sk_"),
                Map.entry(List.of("--tenant", "dev:sk_test_devdev"), "SVC_API_KEY"),
                Map.entry(List.of("--tenant", "a b:sk_test_abcdef"), "tenant id"),
                Map.entry(List.of("--port", "x"), "--port"),
                Map.entry(List.of("--verbose"), "unknown argument: --verbose"));
        cases.forEach((args, message) -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CommandLine.parse(args.toArray(String[]::new)), args.toString());
            assertTrue(e.getMessage().contains(message), args + ": " + e.getMessage());
        });
    }

    @Test
    void devApiConsoleAndSeedFlags() {
        CommandLine line = CommandLine.parse(new String[] {"--dev-api", "off", "--console", "on", "--seed",
            "seed.json"});
        assertEquals(Boolean.FALSE, line.devApi);
        assertEquals(Boolean.TRUE, line.console);
        assertEquals(Path.of("seed.json"), line.seed);
        assertNull(CommandLine.parse(new String[0]).devApi);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"--console", "yes"}));
        assertTrue(e.getMessage().contains("--console must be on or off"), e.getMessage());
    }

    @Test
    void mainPrintsTheConsoleAddressAndLoadsTheSeed() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReferenceServer server = Main.start(new String[] {"--port", "0", "--seed",
            Path.of("..", "samples", "seed.json").toString()}, null, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        assertNotNull(server);
        try {
            String printed = out.toString(StandardCharsets.UTF_8);
            assertTrue(printed.contains("console: " + server.consoleUrl().orElseThrow()), printed);
            assertEquals(2, new Http(server).apiKey("GET", "/v1/dev/state", server.apiKey(), null).json()
                    .path("rooms").size());
        } finally {
            server.close();
        }
        ByteArrayOutputStream off = new ByteArrayOutputStream();
        ReferenceServer quiet = Main.start(new String[] {"--port", "0", "--console", "off"}, null,
                new PrintStream(off, true, StandardCharsets.UTF_8), System.err);
        try {
            assertFalse(off.toString(StandardCharsets.UTF_8).contains("console:"), off.toString(StandardCharsets.UTF_8));
        } finally {
            quiet.close();
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertNull(Main.start(new String[] {"--port", "0", "--seed", "no-such-seed.json"}, null, System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("cannot read the seed file"),
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void duplicateTenantsAreRefusedWhenBuilding() {
        String[] sameId = {"--tenant", "a:sk_test_111111", "--tenant", "a:sk_test_222222"};
        String[] sameKey = {"--tenant", "a:sk_test_111111", "--tenant", "b:sk_test_111111"};
        for (String[] args : List.of(sameId, sameKey)) {
            assertThrows(IllegalArgumentException.class,
                    () -> CommandLine.parse(args).applyTo(ReferenceServer.builder()));
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertNull(Main.start(new String[] {"--port", "0", "--tenant", "a:sk_test_same_key"}, "sk_test_same_key",
                System.out, new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("dev tenant's API key"));
    }

    @Test
    void tenantsFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("tenants.json");
        Files.writeString(file, "{\"tenants\": [{\"id\": \"acme\", \"apiKey\": \"sk_test_acme_file\","
                + " \"autoCreateUsers\": false, \"callsEnabled\": false,"
                + " \"webhookUrl\": \"http://127.0.0.1:9/hook\"}, {\"id\": \"globex\", \"apiKey\": \"sk_test_globex\"}]}");
        CommandLine line = CommandLine.parse(new String[] {"--tenants-file", file.toString()});
        assertEquals(2, line.tenants.size());
        try (ReferenceServer server = line.applyTo(ReferenceServer.builder()).port(0).build().start()) {
            Http http = new Http(server);
            JsonNode acme = http.apiKey("GET", "/v1/tenant/settings", "sk_test_acme_file", null).json();
            assertFalse(acme.get("autoCreateUsers").asBoolean());
            assertFalse(acme.get("callsEnabled").asBoolean());
            assertEquals("http://127.0.0.1:9/hook", acme.get("webhookUrl").asText());
            assertEquals(404, http.apiKey("POST", "/v1/auth/token", "sk_test_acme_file", Map.of("userId", "u"))
                    .status(), "autoCreateUsers false: the mint needs the user first");
            assertTrue(http.apiKey("GET", "/v1/tenant/settings", "sk_test_globex", null).json()
                    .get("autoCreateUsers").asBoolean());
            assertEquals("globex", server.tenant("globex").id());
        }
        Files.writeString(file, "{\"tenants\": [{\"id\": \"acme\"}]}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"--tenants-file", file.toString()}));
        assertTrue(e.getMessage().contains("lacks apiKey"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"--tenants-file", dir.resolve("none.json").toString()}));
    }

    @Test
    void storageFlagsAreCheckedAndADataDirIsUsed(@org.junit.jupiter.api.io.TempDir Path dir) {
        for (String[] bad : List.of(
                new String[] {"--data-dir", "x", "--database-url", "jdbc:postgresql://127.0.0.1/db"},
                new String[] {"--database-schema", "s"},
                new String[] {"--database-url", "http://127.0.0.1/db"})) {
            assertThrows(IllegalArgumentException.class, () -> CommandLine.parse(bad), List.of(bad).toString());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReferenceServer server = Main.start(new String[] {"--port", "0", "--data-dir", dir.toString()}, null,
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertNotNull(server);
        try {
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("storage: sqlite:" + dir.toAbsolutePath()),
                    out.toString(StandardCharsets.UTF_8));
            // Another process on the same directory is refused with a message, not a stack trace.
            AssertionError refused = assertThrows(AssertionError.class,
                    () -> ServerProcess.start("sk_test_second_0123456789", "--data-dir", dir.toString()).close());
            assertTrue(refused.getMessage().contains("error: cannot open the storage:"), refused.getMessage());
        } finally {
            server.close();
        }
    }

    @Test
    void helpListsEveryFlag() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertNull(Main.start(new String[] {"--help"}, null, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err));
        String help = out.toString(StandardCharsets.UTF_8);
        for (String flag : List.of("--port", "--host", "--tenant", "--tenants-file", "--ping-interval",
                "--ping-timeout", "--connect-timeout", "--send-rate", "--send-burst", "--call-ring-timeout",
                "--data-dir", "--database-url", "--database-schema", "--ws-compression")) {
            assertTrue(help.contains(flag), flag);
        }
    }

    @Test
    void flagsReachTheRunningServer() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReferenceServer server = Main.start(new String[] {"--port", "0", "--tenant", "acme:sk_test_acme_flag",
            "--ping-interval", "400ms", "--ping-timeout", "300ms", "--connect-timeout", "300ms",
            "--send-rate", "1", "--send-burst", "1", "--call-ring-timeout", "1s"}, null,
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertNotNull(server);
        try {
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("tenant \"acme\" API key: as configured"));
            assertFalse(out.toString(StandardCharsets.UTF_8).contains("sk_test_acme_flag"));
            Http http = new Http(server);
            String key = "sk_test_acme_flag";
            String roomId = http.createRoom(key, "alice", "bob");
            String alice = http.mint(key, "alice");
            try (SocketClient client = SocketClient.open(server)) {
                JsonNode open = client.expectOpen();
                assertEquals(400, open.get("pingInterval").asInt());
                assertEquals(300, open.get("pingTimeout").asInt());
                assertTrue(client.awaitClose() > 0, "closed without a CONNECT");
            }
            assertEquals(201, http.sendText(alice, roomId, "c1", "one").status());
            Http.Response limited = http.sendText(alice, roomId, "c2", "two");
            assertEquals(429, limited.status());
            assertEquals("rate_limited", limited.errorCode());
            assertEquals(201, http.bearer("POST", "/v1/chat/rooms/" + roomId + "/calls", alice,
                    Map.of("kind", "audio")).status());
            int active = Conditions.lastRead(
                    () -> http.bearer("GET", "/v1/chat/rooms/" + roomId + "/calls/active", alice, null).status(),
                    status -> status != 200, SocketClient.EXPECTED_FRAME_DEADLINE, Duration.ofMillis(20));
            assertEquals(404, active, "the call rang out after 1 s");
        } finally {
            server.close();
        }
    }
}
