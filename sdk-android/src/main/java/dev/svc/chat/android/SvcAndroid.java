package dev.svc.chat.android;

import android.app.Application;
import android.content.Context;
import android.net.ConnectivityManager;
import android.os.Handler;
import android.os.Looper;
import org.jspecify.annotations.Nullable;
import dev.svc.chat.ChatClient;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.session.SessionFetcher;
import dev.svc.chat.session.SessionManager;
import dev.svc.chat.session.SessionStateListener;
import java.io.File;

/**
 * Binds the chat SDK to an Android app: install it once in {@code Application.onCreate}.
 *
 * <pre>{@code
 * public final class App extends Application {
 *   SvcAndroid chat;
 *
 *   public void onCreate() {
 *     super.onCreate();
 *     chat = SvcAndroid.install(this, SessionFetcher.http(SESSION_URL, appHttpClient), this::render);
 *   }
 * }
 * }</pre>
 *
 * <p>While installed it drives the bound {@link SessionManager}:
 * <ul>
 *   <li>the app becoming visible (its first activity started) calls {@link SessionManager#start()}, and the
 *       app leaving the screen (its last activity stopped, and none started within
 *       {@link #VISIBILITY_GRACE_MILLIS}, so a rotation does not count) calls {@link SessionManager#stop()},
 *       which disconnects: the "page hide" of the JS SDK;</li>
 *   <li>the default network being lost calls {@link SessionManager#networkLost()} (the session goes
 *       {@code OFFLINE} at once), and a network becoming available calls
 *       {@link SessionManager#networkAvailable()}, which reconnects at once instead of after the backoff;</li>
 *   <li>the app leaving the screen with sends still pending ({@code ChatClient.pendingSends()}) schedules
 *       {@link SvcOutboxJobService}, a JobScheduler job that waits for a network, starts the session in the
 *       background until nothing is pending, and stops it again; the app's return cancels the job. The app
 *       declares the service in its manifest (see there); without it the sends leave when the app returns.</li>
 * </ul>
 * Managers made by {@link #install(Application, SessionFetcher, SessionStateListener)} and
 * {@link #sessionManagerBuilder} call back on the main thread, the client's event handlers and futures too.
 *
 * <p>The app needs the {@code android.permission.INTERNET} and {@code android.permission.ACCESS_NETWORK_STATE}
 * permissions. {@link #close()} undoes everything.
 */
public final class SvcAndroid implements AutoCloseable {
  /**
   * How long after the last activity stopped the app counts as hidden: 700 ms, as AndroidX's
   * {@code ProcessLifecycleOwner}, long enough for an activity to be recreated after a configuration change.
   */
  public static final long VISIBILITY_GRACE_MILLIS = 700;

  /**
   * The name of the directory, in the app's {@linkplain Context#getFilesDir() files directory}, reserved for
   * the SDK's file-backed outbox of messages not yet sent (see {@link #outboxDirectory(Context)}).
   */
  public static final String OUTBOX_DIRECTORY = "svc-chat-outbox";

  /** The latest installed and not closed, which {@link SvcOutboxJobService} flushes. */
  private static volatile @Nullable SvcAndroid current;

  private final Application application;
  private final AppVisibility visibility;
  private final NetworkWatcher network;
  private final ConnectivityManager connectivity;

  // guarded by this
  private @Nullable SessionManager bound;
  private boolean ownsBound;
  private boolean visible;
  private boolean closed;
  /** A background flush runs: it started the manager and stops it when it ends, not the app's hiding. */
  private boolean flushing;

  private SvcAndroid(Application application) {
    this.application = application;
    this.visibility = new AppVisibility(new Handler(Looper.getMainLooper()), VISIBILITY_GRACE_MILLIS,
        new AppVisibility.Listener() {
          @Override
          public void onVisible() {
            setVisible(true);
          }

          @Override
          public void onHidden() {
            setVisible(false);
          }
        });
    this.network = new NetworkWatcher(new NetworkWatcher.Listener() {
      @Override
      public void onNetworkAvailable() {
        synchronized (SvcAndroid.this) {
          if (bound != null) bound.networkAvailable();
        }
      }

      @Override
      public void onNetworkLost() {
        synchronized (SvcAndroid.this) {
          if (bound != null) bound.networkLost();
        }
      }
    });
    this.connectivity = (ConnectivityManager) application.getSystemService(Context.CONNECTIVITY_SERVICE);
  }

  /**
   * Starts following the app's visibility and the device's network, with no session manager bound yet:
   * {@link #bind(SessionManager)} one when the user has signed in. Call it in {@code Application.onCreate},
   * before any activity starts, so that the started activities are counted from the first.
   *
   * @param application the app
   * @return the installed bindings; {@link #close()} them to undo
   * @throws IllegalStateException if the app lacks the {@code ACCESS_NETWORK_STATE} permission
   */
  public static SvcAndroid install(Application application) {
    if (application == null) throw new NullPointerException("application == null");
    SvcAndroid installed = new SvcAndroid(application);
    application.registerActivityLifecycleCallbacks(installed.visibility);
    try {
      installed.connectivity.registerDefaultNetworkCallback(installed.network);
    } catch (SecurityException e) {
      application.unregisterActivityLifecycleCallbacks(installed.visibility);
      throw new IllegalStateException("the app needs <uses-permission android:name="
          + "\"android.permission.ACCESS_NETWORK_STATE\"/> in its manifest", e);
    }
    current = installed;
    return installed;
  }

  /**
   * Installs (see {@link #install(Application)}) and binds a new session manager with the default options
   * and callbacks on the main thread. The manager starts with the first activity, so a user not signed in
   * yet makes it {@code ERROR}; call {@code sessionManager().start()} after the sign-in to try again.
   *
   * @param application the app
   * @param fetchSession fetches the session, such as {@link SessionFetcher#http(String, okhttp3.OkHttpClient)}
   *     with the app's cookies
   * @param onStateChange receives every new state, on the main thread
   * @return the installed bindings, which own the manager: {@link #close()} closes it
   */
  public static SvcAndroid install(Application application, SessionFetcher fetchSession,
      SessionStateListener onStateChange) {
    SessionManager sessions = sessionManagerBuilder(fetchSession, onStateChange)
        .outboxDirectory(outboxDirectory(application)).build();
    SvcAndroid installed = install(application);
    installed.bind(sessions, true);
    return installed;
  }

  /**
   * Returns a session manager builder whose state callbacks, client event handlers and client futures run on
   * the main thread ({@link MainThreadExecutor}): the default of this module.
   *
   * @param fetchSession fetches the session
   * @param onStateChange receives every new state, on the main thread
   * @return a new builder
   */
  public static SessionManager.Builder sessionManagerBuilder(SessionFetcher fetchSession,
      SessionStateListener onStateChange) {
    return SessionManager.builder(fetchSession, onStateChange).callbackExecutor(MainThreadExecutor.get());
  }

  /**
   * Returns client options whose event handlers and futures run on the main thread, for an app that uses a
   * {@code ChatClient} without a session manager.
   *
   * @param apiUrl the API base, {@code https://host/v1}
   * @return a new builder
   * @throws IllegalArgumentException if the URL is not valid
   */
  public static SvcOptions.Builder options(String apiUrl) {
    return SvcOptions.builder(apiUrl).callbackExecutor(MainThreadExecutor.get());
  }

  /**
   * Returns the directory reserved for the SDK's file-backed outbox: {@value #OUTBOX_DIRECTORY} in the
   * app's files directory (private to the app, kept across restarts, removed with the app's data), where
   * the SDK's file-backed outbox keeps the sends not yet made, so that they survive the process being
   * killed. {@link #install(Application, SessionFetcher, SessionStateListener)} uses it; an app with a bare
   * {@code ChatClient} passes it to {@code SvcOptions.Builder.outboxDirectory}. The outbox creates it.
   *
   * @param context any context of the app
   * @return the directory, which may not exist
   */
  public static File outboxDirectory(Context context) {
    return new File(context.getFilesDir(), OUTBOX_DIRECTORY);
  }

  /**
   * Returns {@link #outboxDirectory(Context)} of the installed app.
   *
   * @return the directory, which may not exist
   */
  public File outboxDirectory() {
    return outboxDirectory(application);
  }

  /**
   * Hands a session manager to these bindings: it starts now if the app is visible, and from now on stops
   * and starts with the app's visibility and hears of the network. The caller keeps owning it:
   * {@link #close()} stops it but does not close it.
   *
   * @param sessions the manager, such as one from {@link #sessionManagerBuilder}
   * @throws IllegalStateException if a manager is bound already ({@link #unbind()} it first), or after
   *     {@link #close()}
   */
  public void bind(SessionManager sessions) {
    bind(sessions, false);
  }

  /** Binds {@code sessions}; {@code owned}: {@link #close()} closes it (package-private for tests). */
  synchronized void bind(SessionManager sessions, boolean owned) {
    if (sessions == null) throw new NullPointerException("sessions == null");
    if (closed) throw new IllegalStateException("SvcAndroid is closed");
    if (bound != null) throw new IllegalStateException("a session manager is bound already; unbind() it first");
    bound = sessions;
    ownsBound = owned;
    if (visible) sessions.start();
  }

  /**
   * Stops driving the bound session manager and hands it back, as it is (for a sign-out: close it, then bind
   * the next user's). The caller owns it from now on, also one that {@code install} created.
   *
   * @return the manager that was bound, or null
   */
  public synchronized @Nullable SessionManager unbind() {
    SessionManager previous = bound;
    bound = null;
    ownsBound = false;
    return previous;
  }

  /**
   * Returns the bound session manager.
   *
   * @return the manager, or null when none is bound
   */
  public synchronized @Nullable SessionManager sessionManager() {
    return bound;
  }

  /**
   * Returns whether the app counts as visible: an activity is started, or the last one stopped less than
   * {@link #VISIBILITY_GRACE_MILLIS} ago.
   *
   * @return true while visible
   */
  public synchronized boolean isVisible() {
    return visible;
  }

  /**
   * Undoes {@link #install}: unregisters the activity and network callbacks, stops the bound session
   * manager and, if {@code install} created it, closes it on a short-lived background thread (closing the
   * client may wait for up to a second for its WebSocket, which the main thread must not). Calling it again
   * does nothing.
   */
  @Override
  public void close() {
    final SessionManager sessions;
    final boolean owned;
    synchronized (this) {
      if (closed) return;
      closed = true;
      sessions = bound;
      owned = ownsBound;
      bound = null;
      visible = false;
      flushing = false;
    }
    if (current == this) current = null;
    application.unregisterActivityLifecycleCallbacks(visibility);
    visibility.cancel();
    try {
      connectivity.unregisterNetworkCallback(network);
    } catch (IllegalArgumentException ignored) {
      // never registered: install failed half way
    }
    if (sessions == null) return;
    sessions.stop();
    if (owned) {
      Thread closer = new Thread(new Runnable() {
        @Override
        public void run() {
          sessions.close();
        }
      }, "svc-chat-close");
      closer.setDaemon(true);
      closer.start();
    }
  }

  private void setVisible(boolean now) {
    boolean schedule;
    boolean cancel;
    synchronized (this) {
      if (closed) return;
      visible = now;
      if (bound == null || flushing) return; // a flush under way keeps the session, and ends it if hidden
      if (now) {
        bound.start();
      } else {
        bound.stop();
      }
      ChatClient client = now ? null : bound.state().client();
      schedule = client != null && !client.pendingSends().isEmpty();
      cancel = now;
    }
    // outside the lock: calls into the system
    if (schedule) OutboxJob.schedule(application);
    if (cancel) OutboxJob.cancel(application);
  }

  /** Returns the installed bindings that are not closed, the latest if several: those the flush job uses. */
  static @Nullable SvcAndroid current() {
    return current;
  }

  /**
   * Starts the bound manager for a background flush (it does nothing if the app is visible and it runs).
   *
   * @return the manager, or null when none is bound (or it is closed, or these bindings are)
   */
  synchronized @Nullable SessionManager beginFlush() {
    if (closed || bound == null) return null;
    try {
      bound.start();
    } catch (IllegalStateException closedManager) {
      return null;
    }
    flushing = true;
    return bound;
  }

  /** Ends a background flush: stops the bound manager if the app is in the background. */
  synchronized void endFlush() {
    if (!flushing) return;
    flushing = false;
    if (!visible && bound != null) bound.stop();
  }
}
