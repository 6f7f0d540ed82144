package dev.svc.chat.android;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import android.app.Application;
import android.net.Uri;
import android.os.Looper;
import android.os.StrictMode;
import dev.svc.chat.FileSource;
import dev.svc.chat.MessagePart;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowContentResolver;

/** A content Uri as a file source: made on the main thread without touching anything, read again on each open. */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {24, 34})
public class ContentUriSourceTest {
  private final Application app = RuntimeEnvironment.getApplication();

  @Test
  public void aSourceIsMadeOnTheMainThreadWithoutIoAndReopensTheUriEachTime() throws Exception {
    Uri uri = Uri.parse("content://media.example/images/media/photo%3A42.jpg");
    byte[] bytes = {1, 2, 3, 4, 5};
    AtomicInteger opens = new AtomicInteger();
    ShadowContentResolver resolver = org.robolectric.Shadows.shadowOf(app.getContentResolver());
    resolver.registerInputStreamSupplier(uri, () -> {
      opens.incrementAndGet();
      return new ByteArrayInputStream(bytes);
    });
    assertTrue(Looper.getMainLooper().getThread() == Thread.currentThread());
    StrictMode.ThreadPolicy before = StrictMode.getThreadPolicy();
    StrictMode.setThreadPolicy(new StrictMode.ThreadPolicy.Builder().detectAll().penaltyDeath().build());
    FileSource source;
    MessagePart part;
    try {
      source = ContentUriSource.of(app, uri);
      part = MessagePart.file(source);
    } finally {
      StrictMode.setThreadPolicy(before);
    }
    assertEquals(0, opens.get());
    assertEquals("42.jpg", source.name()); // the segment "photo:42.jpg", after its last colon
    assertEquals("image/jpeg", source.contentType());
    assertEquals(-1, source.length());
    assertEquals(source, part.upload());
    assertArrayEquals(bytes, read(source.open()));
    assertArrayEquals(bytes, read(source.open()));
    assertEquals(2, opens.get());
  }

  @Test
  public void theBuilderTakesThePickersNameAndType() {
    FileSource source = ContentUriSource.builder(app, Uri.parse("content://docs.example/document/1234"))
        .name("Q3 report.pdf").contentType("application/pdf").build();
    assertEquals("Q3 report.pdf", source.name());
    assertEquals("application/pdf", source.contentType());
    assertEquals("1234", ContentUriSource.of(app, Uri.parse("content://docs.example/document/1234")).name());
  }

  private static byte[] read(InputStream in) throws Exception {
    try (InputStream stream = in) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[16];
      for (int n; (n = stream.read(buffer)) >= 0; ) out.write(buffer, 0, n);
      return out.toByteArray();
    }
  }
}
