package dev.svc.chat.reference.store;

import java.io.IOException;
import java.security.SecureRandom;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The password of the H2 database's {@code sa} user: generated on the first start and kept beside the
 * database in {@value #FILE} (owner-only), read on later starts. A database made before it existed (user
 * {@code sa}, empty password) is migrated on its first open: it is opened with the empty password and given
 * the kept one. The password protects the file against another process opening it through H2 with the
 * default login; the file permissions protect both.
 */
final class H2Password {

    /** The password file's name in the data directory. */
    static final String FILE = "svc-chat.db-password";
    /** H2's error code for a wrong user name or password. */
    private static final int WRONG_USER_OR_PASSWORD = 28000;

    private H2Password() {
    }

    /**
     * Returns the password of the database at {@code url} in {@code dataDir}, creating the password file if
     * absent and setting the password on a database that has none yet.
     */
    static String open(Path dataDir, String url) {
        String password = readOrCreate(dataDir.resolve(FILE));
        try (Connection c = DriverManager.getConnection(url, "sa", password)) {
            return password; // a new database (created now with it) or one that has it already
        } catch (SQLException e) {
            if (e.getErrorCode() != WRONG_USER_OR_PASSWORD) {
                throw new IllegalStateException("database: " + e.getMessage(), e);
            }
        }
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             Statement s = c.createStatement()) {
            // The password is base62: nothing in it needs escaping in an SQL literal.
            s.execute("SET PASSWORD '" + password + "'");
            return password;
        } catch (SQLException e) {
            throw new IllegalStateException("database: the password in " + FILE + " does not open it", e);
        }
    }

    private static String readOrCreate(Path file) {
        try {
            if (Files.exists(file)) {
                String password = Files.readString(file, StandardCharsets.UTF_8).trim();
                if (!password.matches("[A-Za-z0-9]{16,128}")) {
                    throw new IllegalStateException(file + " does not hold a password");
                }
                return password;
            }
            String password = base62(32); // about 190 bits, as unguessable as the tenants' secrets it guards
            // Written whole or not at all (temp file, then a rename): a kill during the first start leaves no
            // empty file that would keep the server from starting again.
            Path temp = file.resolveSibling(FILE + ".tmp");
            Files.deleteIfExists(temp);
            Files.write(Files.createFile(temp, OwnerOnlyFiles.fileAttributes()),
                    password.getBytes(StandardCharsets.UTF_8), StandardOpenOption.WRITE, StandardOpenOption.SYNC);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
            return password;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create " + file, e);
        }
    }

    private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

    /** Returns {@code length} random base62 characters: nothing in them needs escaping in an SQL literal. */
    private static String base62(int length) {
        SecureRandom random = new SecureRandom();
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = BASE62[random.nextInt(BASE62.length)];
        }
        return new String(out);
    }
}
