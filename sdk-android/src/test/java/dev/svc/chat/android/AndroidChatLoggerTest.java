package dev.svc.chat.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import android.util.Log;
import dev.svc.chat.LogLevel;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLog;

/** The SDK's log messages in Android's log, each level at its priority, under the tag. */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = 34)
public class AndroidChatLoggerTest {
  @Test
  public void eachLevelIsWrittenAtItsPriorityWithTheErrorsStackTrace() {
    AndroidChatLogger logger = AndroidChatLogger.create();
    logger.log(LogLevel.DEBUG, "d", null);
    logger.log(LogLevel.INFO, "i", null);
    logger.log(LogLevel.WARN, "w", null);
    logger.log(LogLevel.ERROR, "e", new IllegalStateException("boom"));

    List<ShadowLog.LogItem> items = ShadowLog.getLogsForTag(AndroidChatLogger.DEFAULT_TAG);
    assertEquals(4, items.size());
    assertEquals(Log.DEBUG, items.get(0).type);
    assertEquals(Log.INFO, items.get(1).type);
    assertEquals(Log.WARN, items.get(2).type);
    assertEquals(Log.ERROR, items.get(3).type);
    assertTrue(items.get(3).msg, items.get(3).msg.startsWith("e\njava.lang.IllegalStateException: boom"));
  }

  @Test
  public void isLoggableFollowsTheTagsLevel() {
    ShadowLog.setLoggable("Quiet", Log.WARN);
    AndroidChatLogger logger = AndroidChatLogger.create("Quiet");
    assertFalse(logger.isLoggable(LogLevel.INFO));
    assertTrue(logger.isLoggable(LogLevel.WARN));
  }

  @Test(expected = IllegalArgumentException.class)
  public void aTagLongerThanAndroidAllowsIsRefused() {
    AndroidChatLogger.create("ThisTagIsLongerThan23Chars");
  }
}
