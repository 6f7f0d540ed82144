package dev.svc.chat.internal.outbox;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import com.squareup.moshi.JsonDataException;
import dev.svc.chat.ClientError;
import dev.svc.chat.internal.util.Log;
import okio.BufferedSource;
import okio.Okio;

/**
 * The outbox's directory: one file per pending send, named {@code <user key>-<sequence>-<id key>.json}, where
 * the keys are short hashes of the user id and the client message id (user ids may hold characters some file
 * systems refuse, and a name must stay short). A file is written whole to {@code <name>.tmp}, synced to the
 * disk, then renamed, so a reader never sees half an entry: a kill leaves at most a stale temp file, deleted at
 * the next load. ({@code java.nio.file} and its atomic move need Android API 26; {@link File#renameTo} is an
 * atomic rename(2) on POSIX systems.) The directory itself is not synced, which Java 8 cannot do without
 * {@code java.nio.file}: a process kill loses nothing, a power cut may lose the latest rename.
 */
final class FileOutboxStore implements OutboxPersistence {
  /** An entry file larger than this is not read (a send is at most 64 KiB on the wire). */
  static final long MAX_ENTRY_BYTES = 1 << 20;
  private static final Charset UTF_8 = Charset.forName("UTF-8");
  private static final String SUFFIX = ".json";
  private static final String TEMP_SUFFIX = ".json.tmp";
  private static final String CORRUPT_SUFFIX = ".corrupt";

  /** A step between writing the temp file and renaming it: a seam for tests that stop a write half way. */
  interface RenameStep {
    /** Renames {@code from} to {@code to}; returns false when it could not. */
    boolean rename(File from, File to) throws IOException;
  }

  private final File directory;
  private final Log log;
  private final RenameStep renameStep;

  FileOutboxStore(File directory, Log log) {
    this(directory, log, File::renameTo);
  }

  FileOutboxStore(File directory, Log log, RenameStep renameStep) {
    this.directory = directory;
    this.log = log;
    this.renameStep = renameStep;
  }

  File directory() {
    return directory;
  }

  /** Writes {@code entry} atomically; returns its file. */
  @Override
  public File write(OutboxEntry entry) throws IOException {
    ensureDirectory();
    String name = userKey(entry.senderId) + "-" + String.format(Locale.ROOT, "%019d", entry.sequence) + "-"
        + key(entry.clientMessageId) + SUFFIX;
    File target = new File(directory, name);
    File temp = new File(directory, name + ".tmp");
    byte[] bytes = OutboxEntryJson.write(entry);
    boolean renamed = false;
    try {
      FileOutputStream out = new FileOutputStream(temp);
      try {
        out.write(bytes);
        out.getFD().sync(); // the bytes are on the disk before the name says the entry exists
      } finally {
        out.close();
      }
      renamed = renameStep.rename(temp, target);
      if (!renamed) throw new IOException("could not rename " + temp.getName() + " to " + target.getName());
      return target;
    } finally {
      if (!renamed && temp.exists() && !temp.delete()) log.warn("could not delete " + temp, null);
    }
  }

  @Override
  public void delete(Object handle) throws IOException {
    delete((File) handle);
  }

  @Override
  public String where() {
    return directory.toString();
  }

  /** Deletes an entry's file; a file already gone is not an error. */
  void delete(File file) throws IOException {
    if (!file.delete() && file.exists()) throw new IOException("could not delete " + file);
  }

  /**
   * Returns the entries of {@code userId} left in the directory, in sequence order. Files of other users are
   * not touched. A file that cannot be read is renamed to {@code <name>.corrupt} and reported; a stale temp
   * file of the user (a write cut short) is deleted.
   */
  @Override
  public List<OutboxEntry> load(String userId, long nowMillis, Reporter reporter) {
    List<OutboxEntry> entries = new ArrayList<>();
    if (!directory.exists()) return entries;
    File[] files = directory.listFiles();
    if (files == null) {
      reporter.report(ClientError.Kind.OUTBOX_IO, "could not list the outbox directory " + directory, null);
      return entries;
    }
    String prefix = userKey(userId) + "-";
    for (File f : files) {
      String name = f.getName();
      if (!name.startsWith(prefix)) continue;
      if (name.endsWith(TEMP_SUFFIX)) {
        if (!f.delete()) log.warn("could not delete the stale outbox temp file " + f, null);
        continue;
      }
      if (!name.endsWith(SUFFIX)) continue;
      OutboxEntry e;
      try {
        e = read(f, nowMillis);
      } catch (IOException | JsonDataException | IllegalArgumentException | IllegalStateException ex) {
        setAside(f, ex, reporter);
        continue;
      }
      if (!e.senderId.equals(userId)) continue; // another user whose key collides: not ours to touch
      e.handle = f;
      entries.add(e);
    }
    Collections.sort(entries, new Comparator<OutboxEntry>() {
      @Override
      public int compare(OutboxEntry a, OutboxEntry b) {
        int c = Long.compare(a.sequence, b.sequence);
        return c != 0 ? c : ((File) a.handle).getName().compareTo(((File) b.handle).getName());
      }
    });
    return entries;
  }

  private static OutboxEntry read(File f, long nowMillis) throws IOException {
    if (f.length() > MAX_ENTRY_BYTES) throw new IOException("larger than " + MAX_ENTRY_BYTES + " bytes");
    try (BufferedSource source = Okio.buffer(Okio.source(new FileInputStream(f)))) {
      return OutboxEntryJson.read(source, nowMillis);
    }
  }

  private void setAside(File f, Exception cause, Reporter reporter) {
    File aside = new File(f.getPath() + CORRUPT_SUFFIX);
    boolean moved = f.renameTo(aside);
    reporter.report(ClientError.Kind.OUTBOX_CORRUPT, "the outbox entry " + f.getName() + " could not be read ("
        + cause.getMessage() + ") and was not sent; "
        + (moved ? "it was set aside as " + aside.getName() : "it could not be set aside"), cause);
  }

  private void ensureDirectory() throws IOException {
    if (!directory.isDirectory() && !directory.mkdirs() && !directory.isDirectory()) {
      throw new IOException("could not create the outbox directory " + directory);
    }
  }

  /** Returns the key of a user in file names: 16 hex digits of the SHA-256 of the id. */
  static String userKey(String userId) {
    return key(userId);
  }

  private static String key(String value) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(UTF_8));
      StringBuilder sb = new StringBuilder(16);
      for (int i = 0; i < 8; i++) sb.append(String.format(Locale.ROOT, "%02x", digest[i] & 0xff));
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e); // every Java platform has SHA-256
    }
  }

  /** Receives the problems met while loading. */
  interface Reporter {
    void report(ClientError.Kind kind, String message, Throwable cause);
  }
}
