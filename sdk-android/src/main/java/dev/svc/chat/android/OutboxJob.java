package dev.svc.chat.android;

import android.Manifest;
import android.app.job.JobInfo;
import android.app.job.JobScheduler;
import android.content.ComponentName;
import android.content.Context;
import android.content.pm.PackageManager;
import android.content.pm.ServiceInfo;
import android.util.Log;

/**
 * Schedules the job that flushes the outbox in the background ({@link SvcOutboxJobService}): when a network
 * is available, once, and across a reboot only when the app holds {@code RECEIVE_BOOT_COMPLETED} (which
 * JobScheduler requires of persisted jobs). A job scheduled again replaces the one waiting.
 */
final class OutboxJob {
  private OutboxJob() {}

  /** Returns the job: {@link SvcOutboxJobService#JOB_ID}, any network, persisted when the app may be. */
  static JobInfo jobInfo(Context context) {
    JobInfo.Builder b = new JobInfo.Builder(SvcOutboxJobService.JOB_ID, component(context))
        .setRequiredNetworkType(JobInfo.NETWORK_TYPE_ANY);
    if (context.checkSelfPermission(Manifest.permission.RECEIVE_BOOT_COMPLETED)
        == PackageManager.PERMISSION_GRANTED) {
      b.setPersisted(true);
    }
    return b.build();
  }

  /**
   * Schedules the job, unless the app's manifest does not declare the service (JobScheduler would throw):
   * then it logs a warning and the pending sends wait for the app to return.
   *
   * @return whether the job was scheduled
   */
  static boolean schedule(Context context) {
    if (!declared(context)) {
      Log.w(AndroidChatLogger.DEFAULT_TAG, "sends are pending but the app's manifest does not declare <service "
          + "android:name=\"" + SvcOutboxJobService.class.getName() + "\" android:permission=\""
          + "android.permission.BIND_JOB_SERVICE\" android:exported=\"false\"/>: they leave when the app returns");
      return false;
    }
    try {
      return scheduler(context).schedule(jobInfo(context)) == JobScheduler.RESULT_SUCCESS;
    } catch (RuntimeException e) {
      // the system refused it (too many jobs scheduled by the app): the sends wait for the app to return
      Log.w(AndroidChatLogger.DEFAULT_TAG, "the background flush of pending sends could not be scheduled", e);
      return false;
    }
  }

  /** Cancels the job if it waits (or stops it if it runs). */
  static void cancel(Context context) {
    scheduler(context).cancel(SvcOutboxJobService.JOB_ID);
  }

  /** Returns whether the manifest declares the service with the permission JobScheduler requires. */
  static boolean declared(Context context) {
    try {
      ServiceInfo info = context.getPackageManager().getServiceInfo(component(context), 0);
      return "android.permission.BIND_JOB_SERVICE".equals(info.permission);
    } catch (PackageManager.NameNotFoundException e) {
      return false;
    }
  }

  private static ComponentName component(Context context) {
    return new ComponentName(context, SvcOutboxJobService.class);
  }

  private static JobScheduler scheduler(Context context) {
    return (JobScheduler) context.getSystemService(Context.JOB_SCHEDULER_SERVICE);
  }
}
