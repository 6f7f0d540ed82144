package dev.svc.chat.store.sqlite;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.ChatStoreProvider;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.sql.SqlChatStore;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The offline store on SQLite for the JVM (sqlite-jdbc): one database file per user under a directory the app
 * chooses, named from a hash of the user id. Turn it on with
 * {@code SvcOptions.builder(url).store(SqliteChatStore.provider(directory))}.
 *
 * <p>Each database runs in WAL mode with {@code synchronous=NORMAL}: a killed process loses nothing that was
 * committed, and a power loss may lose the last commits but never corrupts the file. On POSIX file systems the
 * directory, when the store creates it, is readable by its owner only (0700), and every database file with
 * its WAL and shared-memory files is 0600.
 */
public final class SqliteChatStore implements ChatStoreProvider {
  /** How long a statement waits for another connection's lock (another process of the same user) to go. */
  private static final int BUSY_TIMEOUT_MILLIS = 5000;
  private static final String PREFIX = "svc-chat-";
  private static final String SUFFIX = ".db";
  /** The files SQLite keeps beside a database: the write-ahead log, its shared-memory index, a rollback journal. */
  private static final String[] SIDE_FILES = {"-wal", "-shm", "-journal"};
  private static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

  private final File directory;
  private final int maxMessagesPerRoom;
  private final int maxRooms;

  private SqliteChatStore(Builder builder) {
    this.directory = builder.directory;
    this.maxMessagesPerRoom = builder.maxMessagesPerRoom;
    this.maxRooms = builder.maxRooms;
  }

  /**
   * Returns a provider of stores under {@code directory}, keeping 1,000 messages per room and 1,000 rooms.
   *
   * @param directory where the databases live; created on the first open if missing
   * @return the provider
   */
  public static SqliteChatStore provider(File directory) {
    return builder(directory).build();
  }

  /**
   * Returns a builder of a provider of stores under {@code directory}, for other bounds.
   *
   * @param directory where the databases live; created on the first open if missing
   * @return the builder
   */
  public static Builder builder(File directory) {
    return new Builder(directory);
  }

  @Override
  public ChatStore open(String userId) throws StoreException {
    File file = file(userId);
    prepare(file);
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    // NORMAL in WAL mode syncs at checkpoints, not at each commit: a power loss may lose the last commits
    // but never corrupts the database, and a killed process loses nothing committed (the WAL is in the OS).
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
    // sorts and temporary indexes in memory, not in temporary files outside the owner-only directory
    config.setTempStore(SQLiteConfig.TempStore.MEMORY);
    // the store never asks for generated keys: without this the driver runs a second statement
    // (last_insert_rowid) after every INSERT
    config.setGetGeneratedKeys(false);
    SQLiteDataSource source = new SQLiteDataSource(config);
    source.setUrl("jdbc:sqlite:" + file.getAbsolutePath());
    Connection connection;
    try {
      connection = source.getConnection(); // sets the journal mode: a file that is no database fails here
    } catch (SQLException e) {
      throw JdbcSqlDatabase.failure("opening the store", e);
    }
    try {
      restrict(file); // the WAL and shared-memory files exist now
    } catch (StoreException e) {
      closeQuietly(connection);
      throw e;
    }
    return new SqlChatStore(new JdbcSqlDatabase(connection), maxMessagesPerRoom, maxRooms);
  }

  @Override
  public void delete(String userId) throws StoreException {
    File file = file(userId);
    StoreException failed = null;
    for (String suffix : new String[] {"", SIDE_FILES[0], SIDE_FILES[1], SIDE_FILES[2]}) {
      File f = new File(file.getPath() + suffix);
      try {
        Files.deleteIfExists(f.toPath());
      } catch (IOException e) {
        if (failed == null) failed = new StoreException(StoreException.Kind.IO, "could not delete " + f, e);
      }
    }
    if (failed != null) throw failed;
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // the open failed already: that failure is the one reported
    }
  }

  /** Returns the database file of {@code userId}: its name is a hash, for user ids may hold any character. */
  File file(String userId) {
    return new File(directory, PREFIX + userKey(userId) + SUFFIX);
  }

  /** Creates the directory (owner only) and an empty database file (owner only) before SQLite opens it. */
  private void prepare(File file) throws StoreException {
    Path dir = directory.toPath();
    try {
      if (!Files.isDirectory(dir)) {
        if (posix(dir.getFileSystem().supportedFileAttributeViews())) {
          Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIRECTORY));
          Files.setPosixFilePermissions(dir, OWNER_DIRECTORY); // the umask may have taken bits away
        } else {
          Files.createDirectories(dir);
        }
      }
      Path path = file.toPath();
      if (!Files.exists(path)) {
        try {
          // SQLite creates the WAL and shared-memory files with the mode of the database file
          Files.createFile(path, ownerOnly(path));
        } catch (FileAlreadyExistsException e) {
          // made meanwhile by another process of the same app: SQLite's locks take it from here
        }
      }
      restrict(file);
    } catch (IOException | SecurityException e) {
      throw new StoreException(StoreException.Kind.IO, "cannot prepare the store's file " + file, e);
    }
  }

  /** Makes the database and its side files readable by their owner only, where the file system can say so. */
  private static void restrict(File file) throws StoreException {
    restrict(file, p -> Files.exists(p));
  }

  /**
   * As {@link #restrict(File)}, with {@code exists} as the check before each chmod. The check and the chmod are
   * not atomic: another connection's close may delete a side file between the two (a test's check does so).
   */
  static void restrict(File file, Predicate<Path> exists) throws StoreException {
    try {
      for (String suffix : new String[] {"", SIDE_FILES[0], SIDE_FILES[1]}) {
        Path p = new File(file.getPath() + suffix).toPath();
        if (!exists.test(p) || !posix(p.getFileSystem().supportedFileAttributeViews())) continue;
        try {
          if (!Files.getPosixFilePermissions(p).equals(OWNER_FILE)) Files.setPosixFilePermissions(p, OWNER_FILE);
        } catch (java.nio.file.NoSuchFileException gone) {
          // a side file the previous connection's close deleted meanwhile: nothing left to restrict
        }
      }
    } catch (IOException | SecurityException e) {
      throw new StoreException(StoreException.Kind.IO, "cannot restrict the store's file " + file, e);
    }
  }

  private static FileAttribute<?>[] ownerOnly(Path path) {
    if (!posix(path.getFileSystem().supportedFileAttributeViews())) return new FileAttribute<?>[0];
    return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_FILE)};
  }

  private static boolean posix(Set<String> views) {
    return views.contains("posix");
  }

  static String userKey(String userId) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(userId.getBytes(StandardCharsets.UTF_8));
      StringBuilder sb = new StringBuilder(32);
      for (int i = 0; i < 16; i++) sb.append(String.format(Locale.ROOT, "%02x", digest[i] & 0xff));
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e); // every Java platform has SHA-256
    }
  }

  /** Builds a {@link SqliteChatStore} provider with bounds other than the defaults. */
  public static final class Builder {
    private final File directory;
    private int maxMessagesPerRoom = SqlChatStore.DEFAULT_MAX_MESSAGES_PER_ROOM;
    private int maxRooms = SqlChatStore.DEFAULT_MAX_ROOMS;

    Builder(File directory) {
      if (directory == null) throw new NullPointerException("directory == null");
      this.directory = directory;
    }

    /**
     * Sets how many messages are kept per room: beyond it the oldest go (and are fetched again on demand).
     *
     * @param max at least 1; 1,000 by default
     * @return this
     */
    public Builder maxMessagesPerRoom(int max) {
      if (max < 1) throw new IllegalArgumentException("maxMessagesPerRoom < 1: " + max);
      this.maxMessagesPerRoom = max;
      return this;
    }

    /**
     * Sets how many rooms are kept: beyond it the least recently active go, with their messages and receipts.
     *
     * @param max at least 1; 1,000 by default
     * @return this
     */
    public Builder maxRooms(int max) {
      if (max < 1) throw new IllegalArgumentException("maxRooms < 1: " + max);
      this.maxRooms = max;
      return this;
    }

    /**
     * Returns the provider.
     *
     * @return a provider of stores under the directory
     */
    public SqliteChatStore build() {
      return new SqliteChatStore(this);
    }
  }
}
