package dev.svc.chat.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.robolectric.Shadows.shadowOf;

import android.os.Looper;
import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.EventType;
import dev.svc.chat.Svc;
import dev.svc.chat.TransportException;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowPausedLooper;

/** Callbacks on the main looper: the executor itself, and a real client's events and futures through it. */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = {24, 34})
public class MainThreadExecutorTest {
  private final List<String> ran = new CopyOnWriteArrayList<>();

  @Test
  public void runsOnTheMainLooperInOrderAfterWhatIsQueued() throws Exception {
    MainThreadExecutor.get().execute(() -> ran.add("queued first"));
    Thread background = new Thread(() -> MainThreadExecutor.get().execute(() -> ran.add(
        Looper.myLooper() == Looper.getMainLooper() ? "from a background thread, on main" : "off main")));
    background.start();
    background.join();
    assertEquals(List.of(), ran); // posted, never run inline
    shadowOf(Looper.getMainLooper()).idle();
    assertEquals(List.of("queued first", "from a background thread, on main"), ran);
  }

  @Test
  public void aClientMadeWithTheAndroidOptionsCallsBackOnTheMainThread() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort(); // nothing listens once closed: the connect fails fast
    }
    ChatClient client = Svc.init(SvcAndroid.options("http://127.0.0.1:" + closedPort + "/v1").build());
    try {
      List<Boolean> eventsOnMain = new CopyOnWriteArrayList<>();
      client.on(EventType.CONNECTION_STATE,
          (ConnectionStateChange change) -> eventsOnMain.add(Looper.myLooper() == Looper.getMainLooper()));
      CompletableFuture<Void> connected = client.connect("alice", "jwt-not-checked");
      idleMainUntil(connected::isDone);
      try {
        connected.get();
        fail("connected to a closed port");
      } catch (ExecutionException e) {
        assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof TransportException);
      }
      assertFalse(eventsOnMain.isEmpty());
      assertFalse("an event handler ran off the main thread: " + eventsOnMain, eventsOnMain.contains(false));
    } finally {
      client.close();
    }
  }

  /**
   * Runs the main looper's tasks until {@code done}: the client's threads post to the main looper, whose
   * {@link ShadowPausedLooper#poll} blocks until they did (the future completes on the main thread only).
   */
  private static void idleMainUntil(BooleanSupplier done) {
    ShadowPausedLooper main = Shadow.extract(Looper.getMainLooper()); // the paused looper, the default mode
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) throw new AssertionError("nothing was posted to the main looper in 60 s");
      main.poll(100);
      main.idle();
    }
  }
}
