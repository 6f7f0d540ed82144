package dev.svc.chat.it;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ClientError;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.Message;
import dev.svc.chat.RoomList;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One user of {@link StoreChaosTest}: a primary client on the user's SQLite store, closed and made again on the
 * same store (an incarnation each time), and a second device without a store. It records every
 * {@code NEW_MESSAGE} each incarnation handed to the app, the latest room list of both devices, and the
 * {@code CLIENT_ERROR}s. Thread-safe: the handlers run on the clients' callback threads.
 */
final class StoreChaosUser {
  /** One {@code NEW_MESSAGE} handed to the app by the primary client's incarnation {@code incarnation}. */
  record Delivery(int incarnation, long seq) {
  }

  final String userId;
  final Set<String> rooms;
  final File storeDir;
  final SqliteChatStore provider;
  /** What the primary's incarnations saw (pick and newest for the workload): they never overlap. */
  final ChaosView view;
  /** What the second device saw. */
  final ChaosView secondView;

  volatile ChatClient primary;
  volatile ChatClient second;
  volatile ConnectionState primaryState = ConnectionState.DISCONNECTED;
  volatile ConnectionState secondState = ConnectionState.DISCONNECTED;
  volatile RoomList primaryList;
  volatile RoomList secondList;

  // guarded by this
  private int incarnation;
  private final Map<String, List<Delivery>> deliveries = new LinkedHashMap<>();
  private final List<String> errors = new ArrayList<>();
  private final Map<String, Integer> errorKinds = new TreeMap<>();

  StoreChaosUser(String userId, Set<String> rooms, File storeDir) {
    this.userId = userId;
    this.rooms = Set.copyOf(rooms);
    this.storeDir = storeDir;
    this.provider = SqliteChatStore.provider(storeDir);
    this.view = new ChaosView(userId, rooms);
    this.secondView = new ChaosView(userId + "#2", rooms);
    for (String r : rooms) deliveries.put(r, new ArrayList<>());
  }

  /** Starts the next incarnation of the primary client; returns its number (1 for the first). */
  synchronized int nextIncarnation() {
    return ++incarnation;
  }

  synchronized int incarnations() {
    return incarnation;
  }

  /** Records a NEW_MESSAGE of {@code incarnation}. */
  void delivered(int incarnation, Message m) {
    synchronized (this) {
      List<Delivery> list = deliveries.get(m.roomId());
      if (list == null) {
        errors.add("incarnation " + incarnation + ": NEW_MESSAGE of a room the user is not in: " + m.roomId());
      } else {
        list.add(new Delivery(incarnation, m.seq()));
      }
    }
    view.onNew(m);
  }

  /**
   * Records a {@code CLIENT_ERROR}: counted by kind; one of the store, the outbox or the wire is a problem
   * (recovery's retries and failed sends are what cuts and closes cause).
   */
  synchronized void error(int incarnation, ClientError e) {
    errorKinds.merge(e.kind().name(), 1, Integer::sum);
    if (e.kind() == ClientError.Kind.RECOVERY_RETRY || e.kind() == ClientError.Kind.SEND_FAILED) return;
    errors.add((incarnation == 0 ? "second device" : "incarnation " + incarnation) + ": " + e.kind() + " "
        + e.message());
  }

  synchronized Map<String, Integer> errorKinds() {
    return new TreeMap<>(errorKinds);
  }

  synchronized List<Delivery> deliveries(String roomId) {
    return new ArrayList<>(deliveries.get(roomId));
  }

  synchronized List<String> errors() {
    return new ArrayList<>(errors);
  }

  synchronized int deliveryCount() {
    int n = 0;
    for (List<Delivery> l : deliveries.values()) n += l.size();
    return n;
  }
}
