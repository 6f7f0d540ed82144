package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Starting, stopping, the builder's checks, and the command line. */
class LifecycleTest {

    @Test
    void closeStopsEveryThreadTheServerStarted() throws Exception {
        ReferenceServer server = ReferenceServer.builder().build().start();
        Http http = new Http(server);
        try (SocketClient client = SocketClient.connectToken(server, http.mint(server.apiKey(), "a"))) {
            assertEquals(200, http.apiKey("GET", "/v1/tenant/settings", server.apiKey(), null).status());
            server.close();
            client.awaitClose();
        }
        server.close(); // idempotent
        for (Thread thread : serverThreads()) {
            thread.join(5_000);
            assertFalse(thread.isAlive(), "still running: " + thread.getName());
        }
    }

    @Test
    void lifecycleMisuseIsRefused() {
        ReferenceServer server = ReferenceServer.builder().build();
        assertThrows(IllegalStateException.class, server::port);
        server.start();
        try {
            assertTrue(server.port() > 0);
            assertEquals("http://127.0.0.1:" + server.port() + "/v1", server.apiUrl());
            assertThrows(IllegalStateException.class, server::start);
        } finally {
            server.close();
        }
        assertThrows(IllegalStateException.class, server::start);
    }

    @Test
    void builderChecksItsInputs() {
        ReferenceServer.Builder b = ReferenceServer.builder();
        assertThrows(IllegalArgumentException.class, () -> b.port(-1));
        assertThrows(IllegalArgumentException.class, () -> b.port(65536));
        assertThrows(IllegalArgumentException.class, () -> b.apiKey("pk_nope_123"));
        assertThrows(IllegalArgumentException.class, () -> b.pingInterval(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> b.sendRateLimit(0, 1));
        assertThrows(IllegalArgumentException.class, () -> b.sendRateLimit(1, 0));
        assertThrows(NullPointerException.class, () -> b.clock(null));
    }

    @Test
    void givenApiKeyIsUsed() {
        try (ReferenceServer server = ReferenceServer.builder().apiKey("sk_test_given_key").build().start()) {
            assertEquals("sk_test_given_key", server.apiKey());
            assertEquals(200, new Http(server).apiKey("GET", "/v1/tenant/settings", "sk_test_given_key", null)
                    .status());
        }
    }

    @Test
    void mainStartsAndPrintsTheUrl() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ReferenceServer server = Main.start(new String[] {"--port", "0", "--host", "127.0.0.1"}, null,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            String printed = out.toString(StandardCharsets.UTF_8);
            assertTrue(printed.contains("svc reference server listening on " + server.apiUrl()), printed);
            assertTrue(printed.contains(server.apiKey()), "a generated key is printed once");
        } finally {
            server.close();
        }
        ByteArrayOutputStream out2 = new ByteArrayOutputStream();
        ReferenceServer withEnv = Main.start(new String[] {"--port", "0"}, "sk_test_from_env",
                new PrintStream(out2, true, StandardCharsets.UTF_8), System.err);
        try {
            assertEquals("sk_test_from_env", withEnv.apiKey());
            assertFalse(out2.toString(StandardCharsets.UTF_8).contains("sk_test_from_env"));
        } finally {
            withEnv.close();
        }
    }

    @Test
    void mainRefusesBadArguments() {
        for (String[] args : List.of(new String[] {"--port"}, new String[] {"--port", "x"},
                new String[] {"--port", "70000"}, new String[] {"--what"})) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertNull(Main.start(args, null, System.out, new PrintStream(err, true, StandardCharsets.UTF_8)));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage:"));
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertNull(Main.start(new String[0], "not_a_key", System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("SVC_API_KEY"));
    }

    private static List<Thread> serverThreads() {
        List<Thread> threads = new ArrayList<>();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            String name = e.getKey().getName();
            if (name.startsWith("svc-ref-") || name.startsWith("JettyServerThreadPool")) {
                threads.add(e.getKey());
            }
        }
        return threads;
    }
}
