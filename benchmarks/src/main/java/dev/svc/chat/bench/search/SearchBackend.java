package dev.svc.chat.bench.search;

import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.JdbcStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One backend of the server search benchmark, filled and then served: SQLite with its Lucene index in a data
 * directory, or PostgreSQL (a {@link LocalPostgres} cluster) with its full-text index. {@link #load} provisions
 * the dev tenant through a server once and fills the store ({@link SearchLoad}); the first {@link #start} builds
 * the index (the server's catch-up, as after a lost or new index) and serves the searches.
 */
abstract class SearchBackend implements AutoCloseable {
  static final String API_KEY = "sk_test_search_bench_key";

  final String name;
  /** The index's sizes in bytes, by what they are, measured after the load. */
  final Map<String, Long> sizes = new LinkedHashMap<>();
  SearchLoad.Layout layout;

  SearchBackend(String name) {
    this.name = name;
  }

  abstract ReferenceServer.Builder server();

  /** How long the server's first start took: mostly its catch-up, which wrote the whole index. */
  double indexSeconds;

  /** Opens the database the server would open on this data. */
  abstract Database openDatabase();

  /** Measures the index's sizes into {@link #sizes} (the server is closed). */
  abstract void measure() throws Exception;

  /** Brings the database to where it would be some time after the index was built (before the queries). */
  void settle() throws Exception {
  }

  /** Provisions the tenant, then fills the store (the server is closed after each step). */
  void load(SearchCorpus corpus, int rooms, int messages, int threads) throws Exception {
    server().apiKey(API_KEY).build().close();
    Database db = openDatabase();
    try (JdbcStore store = new JdbcStore(db)) {
      layout = SearchLoad.load(store, db, ReferenceServer.DEV_TENANT_ID, corpus, rooms, messages, threads);
    }
  }

  /** Starts the server on the data; the first start builds the index. */
  ReferenceServer start() {
    long t0 = System.nanoTime();
    ReferenceServer server = server().apiKey(API_KEY).build();
    if (indexSeconds == 0) indexSeconds = (System.nanoTime() - t0) / 1e9;
    return server.start();
  }

  /** SQLite and Lucene in a data directory (the server's {@code --data-dir}; the option keeps its name h2). */
  static final class H2 extends SearchBackend {
    private final Path dir;

    H2(Path work) {
      super("SQLite + Lucene (--data-dir)");
      this.dir = work.resolve("h2");
    }

    @Override
    ReferenceServer.Builder server() {
      return ReferenceServer.builder().dataDir(dir);
    }

    @Override
    Database openDatabase() {
      return Database.sqlite(dir);
    }

    @Override
    void measure() throws IOException {
      sizes.put("index", treeSize(dir.resolve("search-index")));
      sizes.put("database", Files.size(dir.resolve(Database.SQLITE_FILE)));
    }

    @Override
    public void close() {
      LocalPostgres.delete(dir.toFile());
    }
  }

  /** PostgreSQL (the server's {@code --database-url}: the cluster backend). */
  static final class Postgres extends SearchBackend {
    private final LocalPostgres pg;

    Postgres(LocalPostgres pg) {
      super("PostgreSQL (--database-url)");
      this.pg = pg;
    }

    @Override
    ReferenceServer.Builder server() {
      return ReferenceServer.builder().databaseUrl(pg.jdbcUrl(), "postgres", null);
    }

    @Override
    Database openDatabase() {
      return Database.postgres(pg.jdbcUrl(), "postgres", null, null);
    }

    /**
     * Vacuums and analyzes the tables: autovacuum would get there on its own; after a bulk load the planner needs the
     * statistics now, and so does the index, which reads the words' shares from them to tell a rare word.
     */
    @Override
    void settle() throws SQLException {
      try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), "postgres", "");
           Statement s = c.createStatement()) {
        s.execute("VACUUM ANALYZE");
      }
    }

    @Override
    void measure() throws SQLException {
      try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), "postgres", "");
           Statement s = c.createStatement()) {
        try (ResultSet rs = s.executeQuery("SELECT pg_relation_size('message_search_words'),"
            + " pg_table_size('message_search'), pg_indexes_size('message_search'),"
            + " pg_total_relation_size('messages')")) {
          rs.next();
          sizes.put("index", rs.getLong(1));
          sizes.put("table", rs.getLong(2));
          sizes.put("all indexes", rs.getLong(3));
          sizes.put("database", rs.getLong(4));
        }
      }
    }

    /**
     * Prints PostgreSQL's plans of the server's two statements for one word in {@code rooms} (at most 32) to standard
     * error: the walk of the rooms' newest rows, then the GIN index for the rows older than the walk's window (the
     * server runs the second only when the walk stops at its window without a full page).
     */
    void explain(String word, java.util.List<String> rooms) throws SQLException {
      String tsquery = "'" + dev.svc.chat.reference.search.Words.tokens(word).get(0).folded() + "'";
      StringBuilder walk = new StringBuilder("EXPLAIN (ANALYZE, BUFFERS) SELECT message_id, created_ms, seq, room_id,"
          + " hit, n FROM (SELECT message_id, created_ms, seq, room_id, words @@ ?::tsquery AS hit, row_number()"
          + " OVER (ORDER BY created_ms DESC, seq DESC, room_id DESC) AS n FROM (SELECT * FROM (");
      for (int i = 0; i < rooms.size(); i++) {
        walk.append(i == 0 ? "" : " UNION ALL ").append("(SELECT message_id, created_ms, seq, room_id, words FROM"
            + " message_search WHERE tenant_id = ? AND room_id = ? ORDER BY created_ms DESC, seq DESC)");
      }
      walk.append(") u ORDER BY created_ms DESC, seq DESC, room_id DESC LIMIT 2000) w) x WHERE hit OR n = 2000"
          + " LIMIT 22");
      try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), "postgres", "")) {
        try (java.sql.PreparedStatement ps = c.prepareStatement(walk.toString())) {
          int i = 1;
          ps.setString(i++, tsquery);
          for (String room : rooms) {
            ps.setString(i++, ReferenceServer.DEV_TENANT_ID);
            ps.setString(i++, room);
          }
          print("walk", ps);
        }
        try (java.sql.PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS) SELECT message_id,"
            + " created_ms, seq, room_id FROM message_search WHERE tenant_id = ? AND room_id = ANY(?) AND words @@"
            + " ?::tsquery ORDER BY created_ms DESC, seq DESC, room_id DESC LIMIT 22")) {
          ps.setString(1, ReferenceServer.DEV_TENANT_ID);
          ps.setArray(2, c.createArrayOf("varchar", rooms.toArray()));
          ps.setString(3, tsquery);
          print("GIN index (the whole history: the server starts after the walk's window)", ps);
        }
      }
    }

    private static void print(String what, java.sql.PreparedStatement ps) throws SQLException {
      System.err.println("   " + what + ":");
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) System.err.println("   " + rs.getString(1));
      }
    }

    @Override
    public void close() {
      pg.close();
    }
  }

  static long treeSize(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
