package dev.svc.chat.android;

import android.app.job.JobParameters;
import android.app.job.JobService;
import android.os.Handler;
import android.os.Looper;
import org.jspecify.annotations.Nullable;

/**
 * Sends the messages still pending when the app went to the background, once a network is available, even if
 * the app is not reopened: {@link SvcAndroid} schedules it with JobScheduler when the app leaves the screen
 * with sends pending. It starts the session that {@link SvcAndroid#install} bound (in the app's
 * {@code Application.onCreate}, which runs again when the system starts the process for the job), waits until
 * the client is connected with nothing pending, and stops the session again if the app is still in the
 * background. Declare it in the app's manifest:
 *
 * <pre>{@code
 * <service android:name="dev.svc.chat.android.SvcOutboxJobService"
 *          android:permission="android.permission.BIND_JOB_SERVICE"
 *          android:exported="false" />
 * }</pre>
 *
 * Without the declaration nothing is scheduled and the sends leave when the app returns. The job survives a
 * reboot only if the app holds {@code android.permission.RECEIVE_BOOT_COMPLETED}.
 */
public final class SvcOutboxJobService extends JobService {
  /** The JobScheduler id of the flush: the app must not use it for a job of its own. */
  public static final int JOB_ID = 0x53564301;

  // main thread only: JobService calls back on it
  private @Nullable OutboxFlush flush;

  /** Creates the service; the system does. */
  public SvcOutboxJobService() {}

  /**
   * Starts the flush, unless no session is installed and bound.
   *
   * @param params the job
   * @return true while the flush runs ({@code jobFinished} is called when it ends)
   */
  @Override
  public boolean onStartJob(final JobParameters params) {
    SvcAndroid chat = SvcAndroid.current();
    if (chat == null) return false; // the app did not install SvcAndroid in Application.onCreate
    OutboxFlush run = new OutboxFlush(chat, new Handler(Looper.getMainLooper()), new OutboxFlush.Finish() {
      @Override
      public void finished(boolean reschedule) {
        flush = null;
        jobFinished(params, reschedule);
      }
    });
    if (!run.start()) return false;
    flush = run;
    return true;
  }

  /**
   * Ends the flush when the system stops the job (its network was lost, or its time is up).
   *
   * @param params the job
   * @return whether sends are left, so that the job runs again when its network is back
   */
  @Override
  public boolean onStopJob(JobParameters params) {
    OutboxFlush run = flush;
    flush = null;
    return run != null && run.stop();
  }
}
