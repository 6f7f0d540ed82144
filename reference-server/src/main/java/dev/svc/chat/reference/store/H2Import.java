package dev.svc.chat.reference.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Imports a data directory that an earlier server kept in H2 ({@value #H2_DB}, no SQLite file yet) into the
 * SQLite file, once, at start: the H2 database is migrated to the last H2 schema, every table is copied in
 * one transaction into a new SQLite file under a temporary name ({@value #TEMP}), each table's row count is
 * checked, then the new file is renamed to {@link Database#SQLITE_FILE} and the H2 file aside to
 * {@value #IMPORTED}. A kill before the first rename leaves the H2 file as it was and the next start imports
 * again; a kill between the renames leaves both files, and the next start renames the H2 file aside.
 */
final class H2Import {

    /** The H2 file of an earlier server. */
    static final String H2_DB = "svc-chat.mv.db";
    /** The H2 file once imported. */
    static final String IMPORTED = H2_DB + ".imported";
    /** The SQLite file while it is being written. */
    static final String TEMP = Database.SQLITE_FILE + ".importing";

    private static final Logger LOG = LoggerFactory.getLogger(H2Import.class);

    private H2Import() {
    }

    /** Returns the JDBC URL that earlier servers opened the H2 database of {@code dataDir} with. */
    static String url(Path dataDir) {
        return "jdbc:h2:file:" + dataDir.toAbsolutePath().resolve("svc-chat") + ";MODE=PostgreSQL"
                + ";DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";
    }

    /** Imports the H2 database in {@code dataDir} if there is one and no SQLite file; the caller holds the lock. */
    static void importIfPresent(Path dataDir) {
        Path h2 = dataDir.resolve(H2_DB);
        Path sqlite = dataDir.resolve(Database.SQLITE_FILE);
        if (!Files.exists(h2)) {
            return;
        }
        try {
            if (Files.exists(sqlite)) { // imported before a kill that came before this rename
                Files.move(h2, dataDir.resolve(IMPORTED), StandardCopyOption.ATOMIC_MOVE);
                return;
            }
            Path temp = dataDir.resolve(TEMP);
            for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
                Files.deleteIfExists(temp.resolveSibling(TEMP + suffix)); // a killed import's
            }
            long started = System.nanoTime();
            long rows = copy(dataDir, temp);
            if (Files.exists(temp.resolveSibling(TEMP + "-wal"))) {
                throw new IllegalStateException("the imported file's write-ahead log was not checkpointed");
            }
            Files.move(temp, sqlite, StandardCopyOption.ATOMIC_MOVE);
            Files.move(h2, dataDir.resolve(IMPORTED), StandardCopyOption.ATOMIC_MOVE);
            LOG.info("imported the H2 database {} into {}: {} rows in {} ms; the H2 file is kept as {}", h2,
                    sqlite.getFileName(), rows, (System.nanoTime() - started) / 1_000_000, IMPORTED);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot import the H2 database " + h2, e);
        }
    }

    /** Copies every table of the H2 database in {@code dataDir} into a new SQLite file; returns the rows copied. */
    private static long copy(Path dataDir, Path temp) {
        String url = url(dataDir);
        String password = H2Password.open(dataDir, url);
        // the H2 file may have been written by a server of an earlier schema version
        Flyway.configure().dataSource(url, "sa", password).locations("classpath:db/migration").load().migrate();
        SqliteFile.migrate(temp);
        try (Connection from = DriverManager.getConnection(url, "sa", password);
             Connection to = SqliteFile.dataSource(temp).getConnection()) {
            from.setReadOnly(true);
            List<String> tables = tables(to);
            long rows = 0;
            try (Statement st = to.createStatement()) {
                st.execute("BEGIN IMMEDIATE");
                st.execute("PRAGMA defer_foreign_keys = ON"); // tables in any order; checked at the commit
            }
            try {
                for (String table : tables) {
                    rows += copyTable(from, to, table);
                }
                try (Statement st = to.createStatement()) {
                    st.execute("COMMIT");
                }
            } catch (SQLException | RuntimeException e) {
                try (Statement st = to.createStatement()) {
                    st.execute("ROLLBACK");
                }
                throw e;
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot import the H2 database: " + e.getMessage(), e);
        }
    }

    private static List<String> tables(Connection sqlite) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Statement st = sqlite.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'"
                     + " AND name NOT LIKE 'sqlite%' AND name <> 'flyway_schema_history' ORDER BY name")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        return tables;
    }

    private static long copyTable(Connection from, Connection to, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (Statement st = to.createStatement(); ResultSet rs = st.executeQuery("PRAGMA table_info(" + table + ")")) {
            while (rs.next()) {
                columns.add(rs.getString("name"));
            }
        }
        String list = String.join(", ", columns);
        long copied = 0;
        try (Statement read = from.createStatement();
             ResultSet rs = read.executeQuery("SELECT " + list + " FROM " + table);
             PreparedStatement write = to.prepareStatement("INSERT INTO " + table + " (" + list + ") VALUES ("
                     + "?, ".repeat(columns.size() - 1) + "?)")) {
            while (rs.next()) {
                for (int i = 1; i <= columns.size(); i++) {
                    write.setObject(i, rs.getObject(i));
                }
                write.addBatch();
                if (++copied % 1000 == 0) {
                    write.executeBatch();
                }
            }
            write.executeBatch();
        }
        long inH2 = count(from, table);
        long inSqlite = count(to, table);
        if (inH2 != copied || inSqlite != copied) {
            throw new IllegalStateException("table " + table + ": " + inH2 + " rows in H2, " + copied + " read, "
                    + inSqlite + " in SQLite");
        }
        return copied;
    }

    private static long count(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
