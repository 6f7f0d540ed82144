package dev.svc.chat.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.app.Activity;
import android.app.Application;
import android.app.job.JobInfo;
import android.app.job.JobScheduler;
import android.content.ComponentName;
import android.content.Context;
import android.content.pm.ServiceInfo;
import android.os.Build;
import android.os.Looper;
import dev.svc.chat.MessagePart;
import dev.svc.chat.PendingSend;
import dev.svc.chat.session.Session;
import dev.svc.chat.session.SessionManager;
import dev.svc.chat.session.SessionStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.annotation.Config;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowJobService;

/**
 * The background flush: the job is scheduled when the app leaves the screen with sends pending (and only then,
 * and only when the manifest declares its service), with a network constraint; running it starts the bound
 * session as if the process had just been started for it, finishes when the outbox is empty and stops the
 * session again, or asks to be rescheduled when its time is up or the system stops it. Time moves on
 * Robolectric's paused main looper.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {24, 34})
public class SvcOutboxJobServiceTest {
  private static final Duration GRACE = Duration.ofMillis(SvcAndroid.VISIBILITY_GRACE_MILLIS);
  private static final Duration POLL = Duration.ofMillis(OutboxFlush.POLL_MILLIS);
  private static final List<PendingSend> ONE_SEND = List.of(new PendingSend("room-1", "c-1", "alice",
      List.of(MessagePart.text("typed in a tunnel")), 1L, 1, null));

  private final List<RecordingChatClient> clients = new CopyOnWriteArrayList<>();
  private Application app;
  private JobScheduler jobs;
  private SvcAndroid chat;
  private SessionManager sessions;

  @Before
  public void setUp() {
    app = RuntimeEnvironment.getApplication();
    jobs = (JobScheduler) app.getSystemService(Context.JOB_SCHEDULER_SERVICE);
    chat = SvcAndroid.install(app);
    sessions = SvcAndroid.sessionManagerBuilder(() -> CompletableFuture.completedFuture(
        Session.builder("jwt", "http://127.0.0.1:1/v1", "alice",
            System.currentTimeMillis() + TimeUnit.HOURS.toMillis(1)).build()), state -> { })
        .clientFactory(options -> {
          RecordingChatClient c = new RecordingChatClient();
          clients.add(c);
          return c;
        }).build();
    chat.bind(sessions);
  }

  @After
  public void tearDown() {
    chat.close();
    sessions.close();
  }

  /** Declares the service as the app's manifest does. */
  private void declareService(String permission) {
    ServiceInfo info = new ServiceInfo();
    info.packageName = app.getPackageName();
    info.name = SvcOutboxJobService.class.getName();
    info.permission = permission;
    info.applicationInfo = app.getApplicationInfo();
    shadowOf(app.getPackageManager()).addOrUpdateService(info);
  }

  private static void idleMainFor(Duration d) {
    shadowOf(Looper.getMainLooper()).idleFor(d);
  }

  private SessionStatus status() {
    return sessions.state().status();
  }

  /** Shows an activity, lets {@code pending} be the client's pending sends, and sends the app to the background. */
  private ActivityController<Activity> visitAndLeave(List<PendingSend> pending) {
    ActivityController<Activity> activity = Robolectric.buildActivity(Activity.class).setup();
    shadowOf(Looper.getMainLooper()).idle();
    assertEquals(SessionStatus.READY, status());
    clients.get(0).pending = pending;
    activity.pause().stop();
    idleMainFor(GRACE);
    assertEquals(SessionStatus.IDLE, status());
    return activity;
  }

  @Test
  public void leavingWithSendsPendingSchedulesAJobThatWaitsForANetwork() {
    declareService("android.permission.BIND_JOB_SERVICE");
    ActivityController<Activity> activity = visitAndLeave(ONE_SEND);

    JobInfo job = jobs.getPendingJob(SvcOutboxJobService.JOB_ID);
    assertNotNull("no job scheduled", job);
    assertEquals(new ComponentName(app, SvcOutboxJobService.class), job.getService());
    assertEquals(JobInfo.NETWORK_TYPE_ANY, job.getNetworkType());
    if (Build.VERSION.SDK_INT >= 28) assertNotNull(job.getRequiredNetwork());
    assertFalse("persisted jobs need RECEIVE_BOOT_COMPLETED", job.isPersisted());
    assertFalse(job.isPeriodic());

    activity.start(); // back before the network returned: the foreground sends them
    shadowOf(Looper.getMainLooper()).idle();
    assertNull(jobs.getPendingJob(SvcOutboxJobService.JOB_ID));
  }

  @Test
  public void leavingWithNothingPendingSchedulesNothing() {
    declareService("android.permission.BIND_JOB_SERVICE");
    visitAndLeave(List.of());
    assertTrue(jobs.getAllPendingJobs().isEmpty());
  }

  @Test
  public void theJobSurvivesARebootWhenTheAppMayStartAtBoot() {
    declareService("android.permission.BIND_JOB_SERVICE");
    shadowOf(app).grantPermissions(Manifest.permission.RECEIVE_BOOT_COMPLETED);
    visitAndLeave(ONE_SEND);
    assertTrue(jobs.getPendingJob(SvcOutboxJobService.JOB_ID).isPersisted());
  }

  @Test
  public void withoutTheServiceInTheManifestNothingIsScheduled() {
    visitAndLeave(ONE_SEND);
    assertTrue(jobs.getAllPendingJobs().isEmpty());
    declareService(null); // declared without the permission JobScheduler requires
    Robolectric.buildActivity(Activity.class).setup().pause().stop();
    idleMainFor(GRACE);
    assertTrue(jobs.getAllPendingJobs().isEmpty());
  }

  @Test
  public void theJobConnectsInTheBackgroundAndFinishesWhenTheOutboxIsEmpty() {
    // the process was started for the job: Application.onCreate installed and bound, no activity started
    SvcOutboxJobService service = Robolectric.setupService(SvcOutboxJobService.class);
    ShadowJobService shadow = Shadow.extract(service);
    assertEquals(SessionStatus.IDLE, status());

    assertTrue(service.onStartJob(null));
    assertEquals(SessionStatus.READY, status());
    RecordingChatClient client = clients.get(0);
    assertEquals(1, client.connects);
    client.pending = ONE_SEND; // the stored sends, loaded at connect, on their way

    idleMainFor(POLL.multipliedBy(5));
    assertFalse(shadow.getIsJobFinished());
    assertEquals(SessionStatus.READY, status());

    client.pending = List.of(); // sent
    idleMainFor(POLL);
    assertTrue(shadow.getIsJobFinished());
    assertFalse(shadow.getIsRescheduleNeeded());
    assertEquals("still in the background: stopped again", SessionStatus.IDLE, status());
    assertEquals(1, client.disconnects);
  }

  @Test
  public void aJobThatRunsOutOfTimeStopsAndAsksToRunAgain() {
    SvcOutboxJobService service = Robolectric.setupService(SvcOutboxJobService.class);
    ShadowJobService shadow = Shadow.extract(service);
    assertTrue(service.onStartJob(null));
    clients.get(0).pending = ONE_SEND; // the service keeps answering 5xx, say

    idleMainFor(Duration.ofMillis(OutboxFlush.BUDGET_MILLIS).minus(POLL));
    assertFalse(shadow.getIsJobFinished());
    idleMainFor(POLL.multipliedBy(2));
    assertTrue(shadow.getIsJobFinished());
    assertTrue(shadow.getIsRescheduleNeeded());
    assertEquals(SessionStatus.IDLE, status());
  }

  @Test
  public void aJobStoppedByTheSystemStopsTheSessionAndAsksToRunAgainWhileSendsArePending() {
    SvcOutboxJobService service = Robolectric.setupService(SvcOutboxJobService.class);
    ShadowJobService shadow = Shadow.extract(service);
    assertTrue(service.onStartJob(null));
    clients.get(0).pending = ONE_SEND;
    assertTrue(service.onStopJob(null)); // the network went again
    assertEquals(SessionStatus.IDLE, status());
    idleMainFor(POLL.multipliedBy(5));
    assertFalse("a stopped job does not call jobFinished", shadow.getIsJobFinished());

    assertTrue(service.onStartJob(null)); // the network is back
    assertEquals(SessionStatus.READY, status());
    clients.get(0).pending = List.of();
    assertFalse(service.onStopJob(null)); // nothing pending any more
  }

  @Test
  public void theAppShownOrHiddenDuringTheJobKeepsTheSessionUntilTheJobEnds() {
    declareService("android.permission.BIND_JOB_SERVICE");
    SvcOutboxJobService service = Robolectric.setupService(SvcOutboxJobService.class);
    ShadowJobService shadow = Shadow.extract(service);
    assertTrue(service.onStartJob(null));
    RecordingChatClient client = clients.get(0);
    client.pending = ONE_SEND;

    ActivityController<Activity> activity = Robolectric.buildActivity(Activity.class).setup();
    idleMainFor(POLL);
    activity.pause().stop(); // hidden again while the job runs: the job keeps the session
    idleMainFor(GRACE.plus(POLL));
    assertEquals(SessionStatus.READY, status());
    assertEquals(0, client.disconnects);
    assertNull("the running job is not replaced", jobs.getPendingJob(SvcOutboxJobService.JOB_ID));

    // shown when the job ends: the session stays (a new activity: Robolectric restarts a stopped one only
    // through restart())
    activity = Robolectric.buildActivity(Activity.class).setup();
    client.pending = List.of();
    idleMainFor(POLL);
    assertTrue(shadow.getIsJobFinished());
    assertEquals(SessionStatus.READY, status());
    assertEquals(0, client.disconnects);

    activity.pause().stop(); // and hiding now stops it as usual
    idleMainFor(GRACE);
    assertEquals(SessionStatus.IDLE, status());
  }

  @Test
  public void theJobUsesTheLatestInstallAndDoesNothingWithoutOne() {
    assertSame(chat, SvcAndroid.current());
    SvcOutboxJobService service = Robolectric.setupService(SvcOutboxJobService.class);
    chat.unbind();
    assertFalse("nothing bound: nothing to flush", service.onStartJob(null));
    chat.close();
    assertNull(SvcAndroid.current());
    assertFalse(service.onStartJob(null));

    chat = SvcAndroid.install(app); // the app's process started again: Application.onCreate
    chat.bind(sessions);
    assertSame(chat, SvcAndroid.current());
    assertTrue(service.onStartJob(null));
    assertEquals(SessionStatus.READY, status());
  }

  @Test
  public void aSessionThatCannotSignInEndsTheJobWithoutRetry() {
    List<SessionStatus> statuses = new CopyOnWriteArrayList<>();
    SessionManager failing = SvcAndroid.sessionManagerBuilder(() -> {
      CompletableFuture<Session> f = new CompletableFuture<>();
      f.completeExceptionally(new IllegalStateException("signed out"));
      return f;
    }, state -> statuses.add(state.status())).clientFactory(options -> new RecordingChatClient()).build();
    try {
      chat.unbind();
      chat.bind(failing);
      SvcOutboxJobService service = Robolectric.setupService(SvcOutboxJobService.class);
      ShadowJobService shadow = Shadow.extract(service);
      assertTrue(service.onStartJob(null));
      idleMainFor(POLL);
      assertTrue(shadow.getIsJobFinished());
      assertFalse(shadow.getIsRescheduleNeeded());
      assertEquals(List.of(SessionStatus.LOADING, SessionStatus.ERROR, SessionStatus.IDLE), statuses);
    } finally {
      chat.unbind();
      failing.close();
    }
  }
}
