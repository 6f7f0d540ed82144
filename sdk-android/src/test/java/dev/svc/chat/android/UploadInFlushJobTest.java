package dev.svc.chat.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.app.Application;
import android.app.job.JobInfo;
import android.app.job.JobScheduler;
import android.content.Context;
import android.content.pm.ServiceInfo;
import android.net.Uri;
import android.os.Looper;
import android.os.StrictMode;
import dev.svc.chat.ChatClient;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.session.Session;
import dev.svc.chat.session.SessionManager;
import dev.svc.chat.session.SessionStatus;
import dev.svc.chat.testing.FakeGateway;
import dev.svc.chat.testing.FakeTus;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import okhttp3.OkHttpClient;
import okio.ByteString;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.SQLiteMode;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowJobService;

/**
 * A file send (a content {@code Uri}) still uploading when the app leaves the screen is finished by the flush job:
 * the app's leaving schedules {@link SvcOutboxJobService} with its network constraint; the network goes, cutting
 * the PATCH on its way (the disconnected client tries again only once connected); the job's run resumes the upload
 * from the service's offset, sends the message once and ends. Against {@link FakeTus} on loopback, with a real client on the Android
 * store. The main thread (the test's, under Robolectric) runs under StrictMode's every check with the death penalty
 * throughout; since Robolectric's JVM sockets and streams do not report to StrictMode, the content provider and the
 * HTTP client note any use on the main thread too, and there is none.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {24, 34})
@SQLiteMode(SQLiteMode.Mode.LEGACY)
public class UploadInFlushJobTest {
  private static final int CHUNK = 1024 * 1024; // the SDK's PATCH size
  private static final int SIZE = 5 * CHUNK / 2 + 3;
  /** What the service kept of the PATCH the network cut. */
  private static final int KEPT = 3 * CHUNK / 2;
  private static final Duration GRACE = Duration.ofMillis(SvcAndroid.VISIBILITY_GRACE_MILLIS);
  private static final Duration WAIT = Duration.ofSeconds(FakeGateway.TIMEOUT_SECONDS);
  private static final Uri PHOTO = Uri.parse("content://media.example/images/media/photo%3A7.jpg");

  private final List<String> onMain = new CopyOnWriteArrayList<>();
  private final FakeTus tus = new FakeTus();
  private final byte[] bytes = new byte[SIZE];
  private FakeGateway gateway;
  private Application app;
  private SvcAndroid chat;
  private SessionManager sessions;
  private StrictMode.ThreadPolicy before;

  @Before
  public void setUp() throws Exception {
    assertTrue(Looper.getMainLooper().getThread() == Thread.currentThread());
    before = StrictMode.getThreadPolicy();
    gateway = new FakeGateway();
    gateway.rest = tus;
    app = RuntimeEnvironment.getApplication();
    new Random(11).nextBytes(bytes);
    shadowOf(app.getContentResolver()).registerInputStreamSupplier(PHOTO, () -> {
      note("open " + PHOTO);
      return new ByteArrayInputStream(bytes);
    });
    ServiceInfo info = new ServiceInfo(); // the service as the app's manifest declares it
    info.packageName = app.getPackageName();
    info.name = SvcOutboxJobService.class.getName();
    info.permission = "android.permission.BIND_JOB_SERVICE";
    info.applicationInfo = app.getApplicationInfo();
    shadowOf(app.getPackageManager()).addOrUpdateService(info);
    OkHttpClient http = new OkHttpClient.Builder().addInterceptor(chain -> {
      note(chain.request().method() + " " + chain.request().url().encodedPath());
      return chain.proceed(chain.request());
    }).build();

    // Application.onCreate
    chat = SvcAndroid.install(app);
    sessions = SvcAndroid.sessionManagerBuilder(() -> CompletableFuture.completedFuture(
        Session.builder("jwt", gateway.apiUrl(), "alice", System.currentTimeMillis() + TimeUnit.HOURS.toMillis(1))
            .build()), state -> { })
        .okHttpClient(http)
        .clientOptions(o -> o.recoverMissedEvents(false).store(AndroidChatStore.provider(app)))
        .build();
    chat.bind(sessions);
  }

  @After
  public void tearDown() throws Exception {
    StrictMode.setThreadPolicy(before);
    CountDownLatch gate = tus.hold;
    if (gate != null) gate.countDown();
    chat.close();
    sessions.close();
    gateway.close();
  }

  private void note(String what) {
    if (Looper.myLooper() == Looper.getMainLooper()) onMain.add(what);
  }

  private SessionStatus status() {
    return sessions.state().status();
  }

  /** Runs the main looper, its clock going with the real one, until {@code done} or the deadline. */
  private static void awaitOnMain(String what, BooleanSupplier done) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      shadowOf(Looper.getMainLooper()).idleFor(Duration.ofMillis(10));
      if (done.getAsBoolean()) return;
      if (System.nanoTime() > deadline) throw new AssertionError(what + ": not within " + WAIT);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }

  @Test
  public void aFileSendUploadingWhenTheAppLeavesIsFinishedByTheFlushJobOffTheMainThread() throws Exception {
    StrictMode.setThreadPolicy(new StrictMode.ThreadPolicy.Builder().detectAll().penaltyDeath().build());
    ActivityController<Activity> activity = Robolectric.buildActivity(Activity.class).setup();
    awaitOnMain("the session is ready", () -> status() == SessionStatus.READY);
    ChatClient client = sessions.state().client();
    tus.hold = new CountDownLatch(1);
    tus.holdPatch = 1; // the file's PATCH reaches the service and waits there

    CompletableFuture<Message> sent = client.sendMessage("room-1",
        List.of(MessagePart.file(ContentUriSource.of(app, PHOTO))), "c-1");
    awaitOnMain("the PATCH is on its way", () -> tus.held.getCount() == 0);
    activity.pause().stop();
    shadowOf(Looper.getMainLooper()).idleFor(GRACE);
    assertEquals(SessionStatus.IDLE, status());
    JobScheduler jobs = (JobScheduler) app.getSystemService(Context.JOB_SCHEDULER_SERVICE);
    JobInfo job = jobs.getPendingJob(SvcOutboxJobService.JOB_ID);
    assertNotNull("the app left with an upload pending: the flush job is scheduled", job);
    assertEquals(JobInfo.NETWORK_TYPE_ANY, job.getNetworkType());
    // the network goes too: the PATCH on its way is cut inside its second chunk; a disconnected client tries no
    // send again
    tus.cutNextPatchAfter.set(KEPT);
    tus.hold.countDown();
    awaitOnMain("the attempt failed", () -> !client.pendingSends().isEmpty()
        && client.pendingSends().get(0).lastError() != null);
    int headsBefore = tus.heads.get();
    assertFalse(sent.isDone());

    // the system runs the job once a network is there (the process still lives: the source is readable)
    SvcOutboxJobService service = Robolectric.setupService(SvcOutboxJobService.class);
    ShadowJobService shadow = Shadow.extract(service);
    assertTrue(service.onStartJob(null));
    awaitOnMain("the job finished", shadow::getIsJobFinished);
    assertFalse(shadow.getIsRescheduleNeeded());
    assertEquals("the app is still in the background: stopped again", SessionStatus.IDLE, status());
    awaitOnMain("the send's future completed", sent::isDone);
    StrictMode.setThreadPolicy(before);

    Message message = sent.get();
    assertEquals("c-1", message.clientMessageId());
    assertEquals(ByteString.of(bytes).sha256().hex(), message.files().get(0).sha256());
    assertEquals(1, tus.sendsOf("c-1"));
    assertEquals(1, tus.uploads.size());
    FakeTus.Upload upload = tus.uploads.values().iterator().next();
    assertTrue(upload.complete());
    assertEquals(ByteString.of(bytes).sha256().hex(), upload.sha256());
    assertTrue("the job's run resumed the upload (HEAD)", tus.heads.get() > headsBefore);
    // what arrived of the cut PATCH was kept (as tus says): only the rest went again
    assertEquals(SIZE + SIZE - KEPT, tus.patchBytes.get());
    assertEquals("nothing read or sent on the main thread", List.of(), onMain);
  }
}
