package dev.svc.chat.reference.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flywaydb.core.Flyway;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The settings of the data directory's SQLite file, applied to each connection as it opens: write-ahead log
 * ({@code journal_mode=WAL}), {@code synchronous=NORMAL} (a commit is in the log before it returns, so a killed
 * process loses nothing it acknowledged; a power loss or an OS crash can lose the last commits before the log's
 * last checkpoint, never the file's consistency), foreign keys enforced as on PostgreSQL, a busy timeout for
 * another process holding the write lock, and a limit on the size the log keeps after a checkpoint.
 */
final class SqliteFile {

    /** How long a transaction waits for the write lock that another connection holds, in milliseconds. */
    static final int BUSY_TIMEOUT_MILLIS = 10_000;
    /**
     * How many pages (4 KiB) the write-ahead log takes before a commit copies them into the file (SQLite's
     * default is 1,000): the log is a fixed overhead beside the live data, kept small so that a small directory
     * too stays within three times its live data ({@code DataDirSizeTest}).
     */
    static final int WAL_AUTOCHECKPOINT_PAGES = 128;
    /** The size the write-ahead log is truncated to when it starts again after a checkpoint, in bytes. */
    static final int JOURNAL_SIZE_LIMIT = WAL_AUTOCHECKPOINT_PAGES * 4096;

    private SqliteFile() {
    }

    /** Returns a data source whose connections open {@code file} with these settings. */
    static SQLiteDataSource dataSource(Path file) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.enforceForeignKeys(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        config.setJournalSizeLimit(JOURNAL_SIZE_LIMIT);
        config.setPragma(SQLiteConfig.Pragma.WAL_AUTOCHECKPOINT, Integer.toString(WAL_AUTOCHECKPOINT_PAGES));
        SQLiteDataSource source = new SQLiteDataSource(config);
        source.setUrl("jdbc:sqlite:" + file);
        return source;
    }

    /**
     * Creates {@code file} owner-only when absent, and migrates it to the current schema ({@code db/sqlite/}) on
     * a connection of its own.
     */
    static void migrate(Path file) {
        try {
            if (!Files.exists(file)) {
                Files.createFile(file, OwnerOnlyFiles.fileAttributes()); // an empty file is an empty database
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file, e);
        }
        Flyway.configure().dataSource(dataSource(file)).locations("classpath:db/sqlite").load().migrate();
    }
}
