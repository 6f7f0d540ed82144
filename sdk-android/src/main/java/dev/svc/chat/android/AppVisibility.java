package dev.svc.chat.android;

import android.app.Activity;
import android.app.Application;
import android.os.Bundle;
import android.os.Handler;

/**
 * Tells whether the app is visible, from the activities it has started: visible while at least one is
 * started, hidden {@link #graceMillis} after the last one stopped. The delay covers a configuration change
 * (a rotation stops the activity and starts its new instance a moment later), which must not look like the
 * app going to the background. All its methods run on the main thread, where Android calls
 * {@link Application.ActivityLifecycleCallbacks}.
 */
final class AppVisibility implements Application.ActivityLifecycleCallbacks {
  /** Receives the changes, on the main thread. */
  interface Listener {
    /** Invoked when the first activity started, unless within the grace delay of the last one stopping. */
    void onVisible();

    /** Invoked the grace delay after the last started activity stopped, if none started meanwhile. */
    void onHidden();
  }

  private final Handler mainHandler;
  private final long graceMillis;
  private final Listener listener;
  private final Runnable hide = new Runnable() {
    @Override
    public void run() {
      hidePending = false;
      visible = false;
      listener.onHidden();
    }
  };

  private int startedActivities;
  private boolean visible;
  private boolean hidePending;

  AppVisibility(Handler mainHandler, long graceMillis, Listener listener) {
    this.mainHandler = mainHandler;
    this.graceMillis = graceMillis;
    this.listener = listener;
  }

  /** Forgets a pending hide, so that nothing runs after the callbacks were unregistered. */
  void cancel() {
    mainHandler.removeCallbacks(hide);
    hidePending = false;
  }

  @Override
  public void onActivityStarted(Activity activity) {
    startedActivities++;
    if (hidePending) {
      cancel(); // back within the grace delay: a configuration change or a quick switch, still visible
      return;
    }
    if (!visible) {
      visible = true;
      listener.onVisible();
    }
  }

  @Override
  public void onActivityStopped(Activity activity) {
    // never below zero: activities started before the callbacks were registered stop without being counted
    if (startedActivities == 0) return;
    if (--startedActivities == 0 && visible) {
      hidePending = true;
      mainHandler.postDelayed(hide, graceMillis);
    }
  }

  @Override
  public void onActivityCreated(Activity activity, Bundle savedInstanceState) {}

  @Override
  public void onActivityResumed(Activity activity) {}

  @Override
  public void onActivityPaused(Activity activity) {}

  @Override
  public void onActivitySaveInstanceState(Activity activity, Bundle outState) {}

  @Override
  public void onActivityDestroyed(Activity activity) {}
}
