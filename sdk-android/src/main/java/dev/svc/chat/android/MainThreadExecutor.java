package dev.svc.chat.android;

import android.os.Handler;
import android.os.Looper;
import java.util.concurrent.Executor;

/**
 * Runs the SDK's callbacks on Android's main thread. Give it to
 * {@code SvcOptions.Builder.callbackExecutor} so that event handlers and future continuations may
 * touch views directly.
 */
public final class MainThreadExecutor implements Executor {
  private static final MainThreadExecutor INSTANCE = new MainThreadExecutor();

  private final Handler handler = new Handler(Looper.getMainLooper());

  private MainThreadExecutor() {}

  /**
   * Returns the executor that posts to the main looper.
   *
   * @return the executor
   */
  public static MainThreadExecutor get() {
    return INSTANCE;
  }

  /** Posts {@code command} to the main thread's queue, after what is already queued there. */
  @Override
  public void execute(Runnable command) {
    if (command == null) throw new NullPointerException("command == null");
    handler.post(command);
  }
}
