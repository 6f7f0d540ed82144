package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.svc.chat.internal.util.ClientLoggers;
import dev.svc.chat.testing.FakeChatClient;
import dev.svc.chat.testing.LockProbe;
import dev.svc.chat.testing.RecordingLogger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TenantPresenceTrackerTest {
  private final FakeChatClient client = new FakeChatClient();
  private final List<Set<String>> changes = new ArrayList<>();
  private final TenantPresenceListener listener = new TenantPresenceListener() {
    @Override
    public void onChange(Set<String> online) {
      changes.add(online);
    }
  };

  static Set<String> set(String... ids) {
    return new HashSet<>(Arrays.asList(ids));
  }

  @Test
  void snapshotThenLiveEvents() {
    TenantPresenceTracker tracker = Svc.createTenantPresenceTracker(client, listener);
    assertFalse(tracker.isReady());
    client.presenceResults.poll().complete(Arrays.asList("a", "b"));
    assertTrue(tracker.isReady());
    assertEquals(set("a", "b"), tracker.online());
    client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("c", true, 1));
    client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("a", false, 2));
    assertEquals(set("b", "c"), tracker.online());
    assertTrue(tracker.isOnline("c"));
    assertEquals(Arrays.asList(set("a", "b"), set("a", "b", "c"), set("b", "c")), changes);
  }

  @Test
  void eventsRacingTheSnapshotAreAppliedOnTopOfIt() {
    TenantPresenceTracker tracker = Svc.createTenantPresenceTracker(client, listener);
    // the snapshot was taken before "b" went offline and "c" came online, but arrives after both events
    client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("b", false, 1));
    client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("c", true, 2));
    assertTrue(changes.isEmpty());
    client.presenceResults.poll().complete(Arrays.asList("a", "b"));
    assertEquals(set("a", "c"), tracker.online());
    assertEquals(Collections.singletonList(set("a", "c")), changes);
  }

  @Test
  void anEventTheSnapshotAlreadyHoldsChangesNothing() {
    TenantPresenceTracker tracker = Svc.createTenantPresenceTracker(client, listener);
    client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("c", true, 1));
    client.presenceResults.poll().complete(Arrays.asList("a", "c"));
    assertEquals(set("a", "c"), tracker.online());
    client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("c", true, 1)); // a repeat
    assertEquals(1, changes.size());
  }

  @Test
  void waitsForTheConnectionAndTakesANewSnapshotAfterAReconnect() {
    client.setState(ConnectionState.CONNECTING);
    TenantPresenceTracker tracker = Svc.createTenantPresenceTracker(client, listener);
    assertTrue(client.presenceResults.isEmpty());
    client.moveTo(ConnectionState.CONNECTED);
    client.presenceResults.poll().complete(Arrays.asList("a", "b"));
    client.moveTo(ConnectionState.RECONNECTING);
    client.moveTo(ConnectionState.CONNECTED);
    // while disconnected "b" left unnoticed; the new snapshot says so
    client.presenceResults.poll().complete(Collections.singletonList("a"));
    assertEquals(set("a"), tracker.online());
  }

  @Test
  void aStaleSnapshotIsIgnored() {
    TenantPresenceTracker tracker = Svc.createTenantPresenceTracker(client, listener);
    client.moveTo(ConnectionState.RECONNECTING);
    client.moveTo(ConnectionState.CONNECTED);
    client.presenceResults.pollLast().complete(Collections.singletonList("new"));
    client.presenceResults.poll().complete(Collections.singletonList("old"));
    assertEquals(set("new"), tracker.online());
  }

  @Test
  void aFailedSnapshotIsReportedAndLiveEventsStillApply() {
    final List<Throwable> errors = new ArrayList<>();
    TenantPresenceTracker tracker = Svc.createTenantPresenceTracker(client, new TenantPresenceListener() {
      @Override
      public void onError(Throwable error) {
        errors.add(error);
      }
    });
    client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("c", true, 1));
    client.presenceResults.poll().completeExceptionally(new TransportException("down"));
    assertEquals(1, errors.size());
    assertEquals(set("c"), tracker.online());
  }

  @Test
  void destroyRemovesItsHandlers() {
    int before = client.handlerCount();
    TenantPresenceTracker tracker = Svc.createTenantPresenceTracker(client, listener);
    tracker.destroy();
    assertEquals(before, client.handlerCount());
    client.presenceResults.poll().complete(Collections.singletonList("a"));
    assertTrue(changes.isEmpty());
  }

  @Test
  void theListenerIsNeverCalledUnderTheTrackersLock() {
    LockProbe probe = new LockProbe();
    AtomicReference<TenantPresenceTracker> ref = new AtomicReference<>();
    Runnable intoTracker = () -> ref.get().isOnline("x");
    List<String> calls = new ArrayList<>();
    TenantPresenceTracker tracker = Svc.createTenantPresenceTracker(client, new TenantPresenceListener() {
      @Override
      public void onChange(Set<String> online) {
        calls.add("change " + new java.util.TreeSet<>(online));
        probe.check("onChange", ref.get(), intoTracker);
      }

      @Override
      public void onError(Throwable error) {
        calls.add("error " + error.getMessage());
        probe.check("onError", ref.get(), intoTracker);
      }
    });
    ref.set(tracker);

    client.presenceResults.poll().complete(Arrays.asList("a")); // from the snapshot
    client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("b", true, 1)); // from a live event
    client.moveTo(ConnectionState.RECONNECTING);
    client.moveTo(ConnectionState.CONNECTED);
    client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("c", true, 2)); // held during the snapshot
    client.presenceResults.poll().completeExceptionally(new TransportException("down")); // a failed snapshot

    assertEquals(List.of("change [a]", "change [a, b]", "change [a, b, c]", "error down"), calls);
    assertEquals(List.of(), probe.violations);
  }

  @Test
  void changesMadeFromInsideTheListenerAreReportedInOrderAfterTheCurrentOne() {
    List<Set<String>> seen = new ArrayList<>();
    Svc.createTenantPresenceTracker(client, new TenantPresenceListener() {
      @Override
      public void onChange(Set<String> online) {
        seen.add(online);
        // an event delivered synchronously while the listener runs (a fake client does that)
        if (seen.size() == 1) client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("b", true, 1));
      }
    });
    client.presenceResults.poll().complete(Arrays.asList("a"));
    assertEquals(List.of(set("a"), set("a", "b")), seen);
  }

  @Test
  void anExceptionFromTheListenerIsLoggedThroughTheClientsLoggerAndTrackingGoesOn() {
    RecordingLogger logger = new RecordingLogger();
    ClientLoggers.register(client, logger);
    TenantPresenceTracker tracker = Svc.createTenantPresenceTracker(client, new TenantPresenceListener() {
      @Override
      public void onChange(Set<String> online) {
        throw new IllegalStateException("app bug " + online.size());
      }

      @Override
      public void onError(Throwable error) {
        throw new IllegalStateException("app bug in onError");
      }
    });
    client.presenceResults.poll().complete(Arrays.asList("a"));
    client.emit(EventType.TENANT_PRESENCE, PresenceEvent.of("b", true, 1));
    assertEquals(set("a", "b"), tracker.online());
    client.moveTo(ConnectionState.CONNECTED);
    client.presenceResults.poll().completeExceptionally(new TransportException("down"));

    assertEquals(3, logger.lines.size(), logger.lines.toString());
    assertTrue(logger.lines.get(0).startsWith("WARN a TenantPresenceListener threw"), logger.lines.toString());
    assertTrue(logger.lines.get(0).contains("app bug 1"), logger.lines.toString());
    assertTrue(logger.lines.get(1).contains("app bug 2"), logger.lines.toString());
    assertTrue(logger.lines.get(2).contains("app bug in onError"), logger.lines.toString());
  }
}
