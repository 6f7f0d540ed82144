package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.H2Directory;
import dev.svc.chat.reference.store.JdbcStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Secrets at rest (issue 22, item 5): the data directory owner-only (the SQLite file, its log, the search index),
 * an H2 directory of an earlier server (no password, files 0644) imported owner-only, and credentials never in
 * the log, Jetty's DEBUG lines included.
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
    void theDataDirectoryIsOwnerOnly() throws Exception {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
        Path dir = root.resolve("data");
        String key;
        try (ReferenceServer server = ReferenceServer.builder().dataDir(dir).build().start()) {
            key = server.apiKey();
            assertTrue(Files.exists(dir.resolve(Database.SQLITE_FILE + "-wal")), "the log is there to check");
            assertEquals(List.of(), notOwnerOnly(dir), "while running");
        }
        assertEquals(List.of(), notOwnerOnly(dir), "after close");
        try (ReferenceServer again = ReferenceServer.builder().dataDir(dir).build().start()) {
            assertEquals(key, again.apiKey());
        }
    }

    @Test
    void anH2DirectoryMadeWithoutAPasswordIsImportedOwnerOnly() throws Exception {
        Path dir = root.resolve("old");
        // As an earlier server left it: 0755, 0644 files, sa with an empty password, a tenant in it.
        Files.createDirectories(dir);
        String key = "sk_test_" + "o".repeat(32);
        try (Database h2 = H2Directory.open(dir)) {
            new JdbcStore(h2).createTenant(new TenantRecord(ReferenceServer.DEV_TENANT_ID, key, new byte[32]),
                    TenantSettings.defaults(true));
        }
        String password = Files.readString(dir.resolve(PASSWORD_FILE), StandardCharsets.UTF_8).trim();
        try (Connection c = DriverManager.getConnection(H2Directory.url(dir), "sa", password)) {
            c.createStatement().execute("SET PASSWORD ''");
        }
        Files.delete(dir.resolve(PASSWORD_FILE));
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        if (posix) {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
                }
            }
        }

        try (ReferenceServer imported = ReferenceServer.builder().dataDir(dir).build().start()) {
            assertEquals(key, imported.apiKey(), "the same tenant, its key kept");
            if (posix) {
                assertEquals(List.of(), notOwnerOnly(dir));
            }
        }
        assertTrue(Files.exists(dir.resolve("svc-chat.mv.db.imported")));
        if (posix) {
            assertEquals(List.of(), notOwnerOnly(dir), "the H2 file kept aside too");
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
