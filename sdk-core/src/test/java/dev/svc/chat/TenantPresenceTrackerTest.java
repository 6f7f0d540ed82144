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

import dev.svc.chat.testing.FakeChatClient;
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
}
