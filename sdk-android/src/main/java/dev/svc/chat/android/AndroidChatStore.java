package dev.svc.chat.android;

import android.content.Context;
import android.database.DatabaseErrorHandler;
import android.database.sqlite.SQLiteDatabase;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.ChatStoreProvider;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.sql.SqlChatStore;
import dev.svc.chat.store.sql.SqlDatabase;
import java.io.File;
import java.nio.charset.Charset;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

/**
 * The offline store on Android's framework SQLite ({@code android.database.sqlite}, no other dependency): one
 * database per user, {@code <key>.db} in {@value #DIRECTORY} of the app's
 * {@linkplain Context#getNoBackupFilesDir() no-backup files directory} (private to the app, kept across
 * restarts, left out of Auto Backup, removed with the app's data), where the key is 16 hex digits of the
 * SHA-256 of the user id. The databases use write-ahead logging.
 *
 * <pre>{@code
 * SvcOptions options = SvcAndroid.options(apiUrl).store(AndroidChatStore.provider(context)).build();
 * // or with other bounds than 1,000 messages per room and 1,000 rooms:
 * AndroidChatStore.builder(context).maxMessagesPerRoom(5000).maxRooms(200).build();
 * }</pre>
 *
 * <p>{@link #provider(Context)} touches no file: the client opens its user's database on its I/O queue, never on
 * the main thread. A database that is not SQLite or is damaged is reported as
 * {@link StoreException.Kind#CORRUPT} and left in place (Android's default handler would delete it silently),
 * so that the client reports it and rebuilds the store from the service.
 */
public final class AndroidChatStore implements ChatStoreProvider {
  /** The directory, in the app's no-backup files directory, that holds the databases. */
  public static final String DIRECTORY = "svc-chat-store";

  /** Keeps a corrupt database for the store to report, instead of deleting it as Android's default does. */
  private static final DatabaseErrorHandler KEEP_CORRUPT = new DatabaseErrorHandler() {
    @Override
    public void onCorruption(SQLiteDatabase db) {
      // the open or the statement fails with SQLiteDatabaseCorruptException, which the store maps to CORRUPT
    }
  };

  private static final Charset UTF_8 = Charset.forName("UTF-8");

  private final Context context;
  private final int maxMessagesPerRoom;
  private final int maxRooms;
  private final Schema schema;

  private AndroidChatStore(Context context, int maxMessagesPerRoom, int maxRooms, Schema schema) {
    this.context = context;
    this.maxMessagesPerRoom = maxMessagesPerRoom;
    this.maxRooms = maxRooms;
    this.schema = schema;
  }

  /**
   * Returns the provider of the app's stores, with the default bounds. Touches no file.
   *
   * @param context any context of the app (its application context is kept)
   * @return the provider, for {@code SvcOptions.Builder.store}
   */
  public static AndroidChatStore provider(Context context) {
    return builder(context).build();
  }

  /**
   * Returns a builder of a provider with other bounds than the defaults (1,000 messages per room, 1,000 rooms).
   *
   * @param context any context of the app (its application context is kept)
   * @return a new builder
   */
  public static Builder builder(Context context) {
    if (context == null) throw new NullPointerException("context == null");
    Context app = context.getApplicationContext();
    return new Builder(app != null ? app : context);
  }

  /** Returns a provider like this one whose stores are made by {@code other} (tests). */
  AndroidChatStore withSchema(Schema other) {
    return new AndroidChatStore(context, maxMessagesPerRoom, maxRooms, other);
  }

  /**
   * Returns the database file of {@code userId} (it may not exist). Asks the context for its no-backup
   * directory, which creates that directory: off the main thread.
   */
  File databaseFile(String userId) {
    if (userId == null) throw new NullPointerException("userId == null");
    return new File(new File(context.getNoBackupFilesDir(), DIRECTORY), userKey(userId) + ".db");
  }

  /**
   * Opens (creating or migrating it) the database of {@code userId}, in write-ahead logging mode. Called by the
   * client on its I/O queue.
   *
   * @throws StoreException {@link StoreException.Kind#CORRUPT} when the file is not a database or is damaged
   *     (the file is left for {@link #delete}), {@link StoreException.Kind#NEWER_SCHEMA} when a newer SDK wrote
   *     it, {@link StoreException.Kind#IO} when it cannot be created or read
   */
  @Override
  public ChatStore open(String userId) throws StoreException {
    File file = databaseFile(userId);
    File dir = file.getParentFile();
    if (!dir.isDirectory() && !dir.mkdirs() && !dir.isDirectory()) {
      throw new StoreException(StoreException.Kind.IO, "could not create the store directory " + dir, null);
    }
    SQLiteDatabase db;
    try {
      // NO_LOCALIZED_COLLATORS: Android would add its android_metadata table, and a new store must hold none
      db = SQLiteDatabase.openDatabase(file.getPath(), null,
          SQLiteDatabase.CREATE_IF_NECESSARY | SQLiteDatabase.ENABLE_WRITE_AHEAD_LOGGING
              | SQLiteDatabase.NO_LOCALIZED_COLLATORS, KEEP_CORRUPT);
    } catch (RuntimeException e) {
      throw AndroidSqlDatabase.failure("the store " + file.getName() + " could not be opened", e);
    }
    AndroidSqlDatabase sql = new AndroidSqlDatabase(db);
    try {
      return schema.open(sql, maxMessagesPerRoom, maxRooms);
    } catch (StoreException | RuntimeException e) {
      sql.close();
      throw e;
    }
  }

  /**
   * Deletes the database of {@code userId} and its side files (write-ahead log, shared memory, journal).
   *
   * @throws StoreException when a file stays
   */
  @Override
  public void delete(String userId) throws StoreException {
    File file = databaseFile(userId);
    SQLiteDatabase.deleteDatabase(file);
    if (file.exists() || new File(file.getPath() + "-wal").exists()) {
      throw new StoreException(StoreException.Kind.IO, "could not delete the store " + file.getName(), null);
    }
  }

  /** Returns the key of a user in file names: 16 hex digits of the SHA-256 of the id, as the file outbox's. */
  static String userKey(String userId) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(userId.getBytes(UTF_8));
      StringBuilder sb = new StringBuilder(16);
      for (int i = 0; i < 8; i++) sb.append(String.format(Locale.ROOT, "%02x", digest[i] & 0xff));
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e); // every Java platform has SHA-256
    }
  }

  @Override
  public String toString() {
    return "AndroidChatStore[maxMessagesPerRoom=" + maxMessagesPerRoom + ", maxRooms=" + maxRooms + "]";
  }

  /** Builds an {@link AndroidChatStore}. */
  public static final class Builder {
    private final Context context;
    private int maxMessagesPerRoom = SqlChatStore.DEFAULT_MAX_MESSAGES_PER_ROOM;
    private int maxRooms = SqlChatStore.DEFAULT_MAX_ROOMS;

    private Builder(Context context) {
      this.context = context;
    }

    /**
     * Sets how many messages are kept per room (default 1,000): after each write the oldest go, and a page of
     * them is fetched from the service again when asked for.
     *
     * @param max at least 1
     * @return this builder
     */
    public Builder maxMessagesPerRoom(int max) {
      if (max < 1) throw new IllegalArgumentException("maxMessagesPerRoom < 1: " + max);
      this.maxMessagesPerRoom = max;
      return this;
    }

    /**
     * Sets how many rooms are kept (default 1,000): the least recently active go first, with their messages.
     *
     * @param max at least 1
     * @return this builder
     */
    public Builder maxRooms(int max) {
      if (max < 1) throw new IllegalArgumentException("maxRooms < 1: " + max);
      this.maxRooms = max;
      return this;
    }

    /**
     * Returns the provider. Touches no file.
     *
     * @return the provider, for {@code SvcOptions.Builder.store}
     */
    public AndroidChatStore build() {
      return new AndroidChatStore(context, maxMessagesPerRoom, maxRooms, Schema.SHARED);
    }
  }

  /** Makes the store of an open database: the SDK's shared SQL store, or a test's. */
  interface Schema {
    Schema SHARED = new Schema() {
      @Override
      public ChatStore open(SqlDatabase db, int maxMessagesPerRoom, int maxRooms) throws StoreException {
        return new SqlChatStore(db, maxMessagesPerRoom, maxRooms); // owns db: closes it on failure
      }
    };

    ChatStore open(SqlDatabase db, int maxMessagesPerRoom, int maxRooms) throws StoreException;
  }
}
