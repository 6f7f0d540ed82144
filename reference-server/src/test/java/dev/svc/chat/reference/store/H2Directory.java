package dev.svc.chat.reference.store;

import com.zaxxer.hikari.HikariConfig;
import java.nio.file.Path;

/** Writes a data directory in H2 as the servers before SQLite did, for the import's tests. */
public final class H2Directory {

    private H2Directory() {
    }

    /**
     * Opens (creating when absent) the H2 database of {@code dataDir} as those servers did: PostgreSQL mode, each
     * commit written through, the password kept beside it, migrated with {@code db/migration/}.
     */
    public static Database open(Path dataDir) {
        String url = H2Import.url(dataDir);
        HikariConfig config = Database.baseConfig("h2-directory");
        config.setJdbcUrl(url + ";WRITE_DELAY=0");
        config.setUsername("sa");
        config.setPassword(H2Password.open(dataDir, url));
        return new Database(config, null);
    }

    /** Returns the JDBC URL those servers opened it with (user {@code sa}, the kept password). */
    public static String url(Path dataDir) {
        return H2Import.url(dataDir);
    }
}
