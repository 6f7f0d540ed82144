package dev.svc.chat.it;

import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.LogLevel;
import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.RoomList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What one chaos-test client saw through its plain {@code on(...)} handlers: per room the {@code seq} of every
 * {@code NEW_MESSAGE} in delivery order, the latest state of every message, the latest receipt of every member;
 * and the latest room list ({@code roomList}) when the client subscribed to it.
 * Thread-safe: handlers run on the client's callback thread, the test reads from its own.
 */
final class ChaosView {
  final String userId;
  final Set<String> rooms;

  // guarded by this
  private final Map<String, List<Long>> newSeqs = new HashMap<>();
  private final Map<String, Message> latest = new LinkedHashMap<>();
  private final Set<String> updateKeys = new HashSet<>();
  private final Map<String, Map<String, Receipt>> receipts = new HashMap<>();
  private final ArrayDeque<String> log = new ArrayDeque<>();
  /** Per message id, the events it came in (kind, rev, live or recovered): why a stale message is stale. */
  private final Map<String, List<String>> trails = new HashMap<>();
  /** The SDK's debug lines about what it dropped (repeats, skips), the latest ones. */
  private final ArrayDeque<String> drops = new ArrayDeque<>();
  private long newEvents;
  private long updateEvents;
  private long duplicateUpdates;
  private long readEvents;
  private long foreignEvents;
  private long connects;
  private long recovered;
  private long live;
  private final Set<String> recovering = new HashSet<>();
  private long recoveries;
  private RoomList roomList;

  ChaosView(String userId, Set<String> rooms) {
    this.userId = userId;
    this.rooms = Set.copyOf(rooms);
    for (String r : rooms) {
      newSeqs.put(r, new ArrayList<>());
      receipts.put(r, new HashMap<>());
    }
  }

  synchronized void onNew(Message m) {
    newEvents++;
    List<Long> seqs = newSeqs.get(m.roomId());
    if (seqs == null) {
      foreignEvents++;
      return;
    }
    seqs.add(m.seq());
    // between a room's RecoveryEvent STARTED and FINISHED, its new messages are recovered ones
    boolean inRecovery = recovering.contains(m.roomId());
    if (inRecovery) {
      recovered++;
    } else {
      live++;
    }
    trail(m, "new", inRecovery);
    apply(m, false);
  }

  synchronized void onUpdated(Message m) {
    updateEvents++;
    if (!rooms.contains(m.roomId())) {
      foreignEvents++;
      return;
    }
    long rev = ChaosTruth.rev(m);
    if (rev > 0 && !updateKeys.add(m.id() + "@" + rev)) duplicateUpdates++;
    trail(m, "upd", recovering.contains(m.roomId()));
    apply(m, true);
  }

  /** Keeps the latest state: the higher rev, or (without revs) an update over a new-message and else the first. */
  private void apply(Message m, boolean update) {
    Message old = latest.get(m.id());
    long rev = ChaosTruth.rev(m);
    if (old == null || rev > ChaosTruth.rev(old) || (rev == ChaosTruth.rev(old) && update)) latest.put(m.id(), m);
  }

  synchronized void onRecovery(RecoveryEvent e) {
    if (e.roomId() == null) {
      if (e.phase() == RecoveryEvent.Phase.FINISHED) recoveries++;
      return;
    }
    if (e.phase() == RecoveryEvent.Phase.STARTED) {
      recovering.add(e.roomId());
    } else {
      recovering.remove(e.roomId());
    }
  }

  synchronized void onRead(Receipt r) {
    readEvents++;
    Map<String, Receipt> room = receipts.get(r.roomId());
    if (room == null) {
      foreignEvents++;
      return;
    }
    Receipt old = room.get(r.userId());
    if (old == null || r.seq() >= old.seq()) room.put(r.userId(), r);
  }

  synchronized void onRoomList(RoomList list) {
    roomList = list;
  }

  synchronized void onState(ConnectionStateChange change) {
    if (change.current() == ConnectionState.CONNECTED) connects++;
    note("state " + change.previous() + " -> " + change.current() + " (" + change.reason() + ")");
  }

  private void trail(Message m, String kind, boolean inRecovery) {
    trails.computeIfAbsent(m.id(), k -> new ArrayList<>())
        .add(kind + "@" + ChaosTruth.rev(m) + (inRecovery ? " recovered" : " live"));
  }

  /** A problem the client handled and reported: each goes to the log, a room's to its drops. */
  void onClientError(ClientError error) {
    note("CLIENT_ERROR " + error);
    if (error.roomId() != null) drop("client error " + error);
  }

  void log(LogLevel level, String message, Throwable error) {
    if (level == LogLevel.DEBUG) {
      if (message.startsWith("dropped") || message.contains("skipped")) drop(message);
      return;
    }
    note(level + " " + message + (error == null ? "" : ": " + error));
  }

  private synchronized void note(String line) {
    if (log.size() == 40) log.removeFirst();
    log.addLast(line);
  }

  // ---------------------------------------------------------------- for the workload

  /** A random message of {@code roomId} seen so far that matches, or null. */
  synchronized Message pick(String roomId, Random rnd, Predicate<Message> filter) {
    List<Message> candidates = new ArrayList<>();
    for (Message m : latest.values()) {
      if (m.roomId().equals(roomId) && !m.isDeleted() && filter.test(m)) candidates.add(m);
    }
    return candidates.isEmpty() ? null : candidates.get(rnd.nextInt(candidates.size()));
  }

  /** The message of {@code roomId} with the highest seq seen so far, or null. */
  synchronized Message newest(String roomId) {
    Message best = null;
    for (Message m : latest.values()) {
      if (m.roomId().equals(roomId) && (best == null || m.seq() > best.seq())) best = m;
    }
    return best;
  }

  // ---------------------------------------------------------------- for the report

  synchronized List<Long> seqs(String roomId) {
    return new ArrayList<>(newSeqs.get(roomId));
  }

  private synchronized void drop(String line) {
    if (drops.size() == 2_000) drops.removeFirst();
    drops.addLast(line);
  }

  /** The events message {@code messageId} came in, oldest first. */
  synchronized List<String> trail(String messageId) {
    return List.copyOf(trails.getOrDefault(messageId, List.of()));
  }

  /** The SDK's latest debug lines about what it dropped or skipped in room {@code roomId}. */
  synchronized List<String> drops(String roomId) {
    List<String> out = new ArrayList<>();
    for (String d : drops) {
      if (d.contains(roomId)) out.add(d);
    }
    return out;
  }

  synchronized Message latest(String messageId) {
    return latest.get(messageId);
  }

  /** The latest room list the client handed over, or null before the first. */
  synchronized RoomList roomList() {
    return roomList;
  }

  synchronized Map<String, Receipt> receipts(String roomId) {
    return new HashMap<>(receipts.get(roomId));
  }

  synchronized Map<String, Long> counters() {
    Map<String, Long> c = new LinkedHashMap<>();
    c.put("newEvents", newEvents);
    c.put("updateEvents", updateEvents);
    c.put("duplicateUpdates", duplicateUpdates);
    c.put("readEvents", readEvents);
    c.put("foreignEvents", foreignEvents);
    c.put("connects", connects);
    c.put("recovered", recovered);
    c.put("live", live);
    c.put("recoveries", recoveries);
    return c;
  }

  /** The last {@code n} log lines and state changes. */
  synchronized List<String> recentLog(int n) {
    List<String> all = new ArrayList<>(log);
    return all.subList(Math.max(0, all.size() - n), all.size());
  }
}
