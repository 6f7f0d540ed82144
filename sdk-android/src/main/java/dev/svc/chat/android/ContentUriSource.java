package dev.svc.chat.android;

import android.content.ContentResolver;
import android.content.Context;
import android.net.Uri;
import dev.svc.chat.FileSource;
import java.io.FileNotFoundException;
import java.io.InputStream;

/**
 * A {@link FileSource} reading a content {@code Uri} (a photo picked from the gallery, a document from the
 * system picker) through the app's {@link ContentResolver}. Making one touches nothing: the bytes are opened, and
 * their length measured, on the SDK's I/O thread when the send is attempted, never on the main thread; after a cut
 * they are opened again. The source lives in this process: a send of it left when the process ends fails at the
 * next start with {@code FileException.Kind.SOURCE_VANISHED}, since the grant to read the {@code Uri} does not
 * outlive the process. For a send that must survive the process, copy the bytes into the app's files first (off
 * the main thread) and send {@code FileSource.of(copy)}.
 */
public final class ContentUriSource {
  private ContentUriSource() {}

  /**
   * Returns a source reading {@code uri}, named after its last path segment, its content type guessed from
   * that name.
   *
   * @param context any context of the app (its application context is kept)
   * @param uri a {@code content:} (or {@code file:}) Uri the app may read
   * @return a new source
   */
  public static FileSource of(Context context, Uri uri) {
    return builder(context, uri).build();
  }

  /**
   * Returns a builder for a source reading {@code uri}, so that its name and content type can be set (for
   * example from the picker's result).
   *
   * @param context any context of the app (its application context is kept)
   * @param uri a {@code content:} (or {@code file:}) Uri the app may read
   * @return a new builder, named after the Uri's last path segment
   */
  public static FileSource.Builder builder(Context context, final Uri uri) {
    if (context == null) throw new NullPointerException("context == null");
    if (uri == null) throw new NullPointerException("uri == null");
    final ContentResolver resolver = context.getApplicationContext().getContentResolver();
    FileSource.Builder b = FileSource.builder(() -> {
      InputStream in = resolver.openInputStream(uri);
      if (in == null) throw new FileNotFoundException("the provider gave no stream for " + uri);
      return in;
    });
    return b.name(nameOf(uri));
  }

  /** Returns a file name from the Uri's last segment: what follows its last {@code /} or {@code :}, cleaned. */
  static String nameOf(Uri uri) {
    String segment = uri.getLastPathSegment();
    if (segment == null) return "file";
    String name = segment.substring(Math.max(segment.lastIndexOf('/'), segment.lastIndexOf(':')) + 1);
    StringBuilder clean = new StringBuilder();
    for (int i = 0; i < name.length() && clean.length() < 255; i++) {
      char c = name.charAt(i);
      clean.append(c == '\\' || Character.isISOControl(c) ? '_' : c);
    }
    return clean.length() == 0 ? "file" : clean.toString();
  }
}
