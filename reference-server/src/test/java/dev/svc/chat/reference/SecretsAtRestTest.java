package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Secrets at rest (issue 22, item 5): the H2 data directory owner-only, the database opened with a generated
 * password kept beside it, an old password-less database migrated, and credentials never in the log, Jetty's
 * DEBUG lines included.
 */
class SecretsAtRestTest {

    private static final String PASSWORD_FILE = "svc-chat.db-password";
    private Path root;

    @BeforeEach
    void makeRoot() throws Exception {
        Files.createDirectories(Path.of("target"));
        root = Files.createTempDirectory(Path.of("target"), "secrets-");
    }

    @AfterEach
    void deleteRoot() {
        Backends.deleteTree(root);
    }

    private static String url(Path dir) {
        return "jdbc:h2:file:" + dir.toAbsolutePath().resolve("svc-chat") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE"
                + ";DEFAULT_NULL_ORDERING=HIGH;WRITE_DELAY=0";
    }

    /** Returns "path perms" of the directory and every file in it, for the ones not owner-only. */
    private static List<String> notOwnerOnly(Path dir) throws Exception {
        List<String> wrong = new ArrayList<>();
        String dirPerms = PosixFilePermissions.toString(Files.getPosixFilePermissions(dir));
        if (!dirPerms.equals("rwx------")) {
            wrong.add(dir + " " + dirPerms);
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                // A directory (the search index's) must be owner-only; what it holds cannot be reached by others.
                String expected = Files.isDirectory(f) ? "rwx------" : "rw-------";
                String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(f));
                if (!perms.equals(expected)) {
                    wrong.add(f.getFileName() + " " + perms);
                }
            }
        }
        return wrong;
    }

    @Test
    void theDataDirectoryIsOwnerOnlyAndTheDatabaseHasAPassword() throws Exception {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
        Path dir = root.resolve("data");
        String key;
        try (ReferenceServer server = ReferenceServer.builder().dataDir(dir).build().start()) {
            key = server.apiKey();
            assertEquals(List.of(), notOwnerOnly(dir), "while running");
            assertTrue(Files.exists(dir.resolve(PASSWORD_FILE)));
        }
        assertEquals(List.of(), notOwnerOnly(dir), "after close");
        // H2's default login no longer opens it; the kept password does.
        SQLException refused = assertThrows(SQLException.class, () -> DriverManager.getConnection(url(dir), "sa", ""));
        assertEquals(28000, refused.getErrorCode());
        String password = Files.readString(dir.resolve(PASSWORD_FILE), StandardCharsets.UTF_8).trim();
        try (Connection c = DriverManager.getConnection(url(dir), "sa", password)) {
            assertTrue(c.isValid(5));
        }
        // A second start reads the same password and keeps the same key.
        try (ReferenceServer again = ReferenceServer.builder().dataDir(dir).build().start()) {
            assertEquals(key, again.apiKey());
        }
        assertEquals(password, Files.readString(dir.resolve(PASSWORD_FILE), StandardCharsets.UTF_8).trim());
    }

    @Test
    void aDatabaseMadeWithoutAPasswordIsMigratedOnItsFirstOpen() throws Exception {
        Path dir = root.resolve("old");
        // As an earlier server left it: 0755, 0644 files, sa with an empty password, data in it.
        Files.createDirectories(dir);
        try (ReferenceServer old = ReferenceServer.builder().dataDir(dir).build().start()) {
            assertTrue(old.apiKey().startsWith("sk_test_"));
        }
        String password = Files.readString(dir.resolve(PASSWORD_FILE), StandardCharsets.UTF_8).trim();
        try (Connection c = DriverManager.getConnection(url(dir), "sa", password)) {
            c.createStatement().execute("SET PASSWORD ''");
        }
        Files.delete(dir.resolve(PASSWORD_FILE));
        String key;
        try (Connection c = DriverManager.getConnection(url(dir), "sa", "");
             ResultSet r = c.createStatement().executeQuery("select api_key from tenants where id = 'dev'")) {
            assertTrue(r.next());
            key = r.getString(1);
        }
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        if (posix) {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(
                            Files.isDirectory(f) ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }

        try (ReferenceServer migrated = ReferenceServer.builder().dataDir(dir).build().start()) {
            assertEquals(key, migrated.apiKey(), "the same database, its data kept");
            if (posix) {
                assertEquals(List.of(), notOwnerOnly(dir));
            }
        }
        assertThrows(SQLException.class, () -> DriverManager.getConnection(url(dir), "sa", ""));
        String kept = Files.readString(dir.resolve(PASSWORD_FILE), StandardCharsets.UTF_8).trim();
        try (Connection c = DriverManager.getConnection(url(dir), "sa", kept)) {
            assertTrue(c.isValid(5));
        }
    }

    @Test
    void jettyAtDebugLogsNoTokenNoKey() throws Exception {
        String apiKey = "sk_test_" + "K".repeat(32);
        String token;
        List<String> output;
        try (ServerProcess server = ServerProcess.start(
                List.of("-Dorg.slf4j.simpleLogger.log.org.eclipse.jetty=debug",
                        "-Dorg.slf4j.simpleLogger.log.dev.svc.chat.reference.access=info"),
                Map.of("SVC_API_KEY", apiKey))) {
            Http http = new Http(server.port());
            token = http.mint(apiKey, "alice");
            assertEquals(200, http.bearer("GET", "/v1/chat/rooms", token, null).status());
            assertEquals(200, http.apiKey("GET", "/v1/tenant/settings", apiKey, null).status());
            try (SocketClient socket = SocketClient.connectToken("ws://127.0.0.1:" + server.port()
                    + "/socket.io/?EIO=4&transport=websocket", token)) {
                assertFalse(socket.isClosed());
            }
            output = server.output();
        }
        String all = String.join("\n", output);
        assertFalse(all.contains(token), "the token is in the log");
        assertFalse(all.contains(token.substring(token.lastIndexOf('.') + 1)), "the token's signature is in the log");
        assertFalse(all.contains("K".repeat(32)), "the API key is in the log");
        assertTrue(all.contains("[redacted]") && all.toLowerCase().contains("authorization"),
                "Jetty's DEBUG lines with the request headers are in the log");
    }
}
