package dev.svc.chat.samples.desktop;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * The API URL each user's last session used, in a properties file of the app's data directory, so that the next
 * start can open that user's store before any session is fetched ({@link DesktopApp}). It holds no token: tokens
 * are never written to disk.
 */
final class LastSession {
  private final File file;

  LastSession(File file) {
    this.file = file;
  }

  /** Returns the API URL of {@code user}'s last session, or null when the user never had one here. */
  synchronized String apiUrl(String user) {
    return read().getProperty("apiUrl." + user);
  }

  /** Remembers the API URL of {@code user}'s session (written to a temporary file, then moved over the old one). */
  synchronized void remember(String user, String apiUrl) {
    Properties p = read();
    if (apiUrl.equals(p.getProperty("apiUrl." + user))) return;
    p.setProperty("apiUrl." + user, apiUrl);
    try {
      Files.createDirectories(file.getAbsoluteFile().getParentFile().toPath());
      File tmp = new File(file.getPath() + ".tmp");
      try (OutputStream out = Files.newOutputStream(tmp.toPath())) {
        p.store(out, "svc chat desktop: each user's last API URL (no tokens)");
      }
      Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private Properties read() {
    Properties p = new Properties();
    if (!file.isFile()) return p;
    try (InputStream in = Files.newInputStream(file.toPath())) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return p;
  }
}
