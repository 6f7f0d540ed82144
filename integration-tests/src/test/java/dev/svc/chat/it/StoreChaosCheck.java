package dev.svc.chat.it;

import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.RoomList;
import dev.svc.chat.RoomSummary;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@link StoreChaosTest}'s verdicts against the server's state: the deliveries of a user's incarnations (each
 * message of each room once across all of them, in seq order within each), the unread counts and mentions of both
 * devices' room lists, the roots' thread summaries both devices hold, and the user's store (every message it keeps
 * at its latest rev, the receipts, the watermarks).
 */
final class StoreChaosCheck {
  /** The server's state of the test's rooms: history (ascending seq), receipts and the rooms themselves. */
  record Truth(Map<String, List<Message>> messages, Map<String, List<Receipt>> receipts, Map<String, Room> rooms) {
  }

  private static final int DETAIL = 5;

  private StoreChaosCheck() {
  }

  /** Each message of each room of the user delivered once across the incarnations, in seq order within each. */
  static List<String> deliveries(StoreChaosUser user, Truth truth) {
    List<String> problems = new ArrayList<>();
    for (String room : new TreeSet<>(user.rooms)) {
      String where = user.userId + " in " + room;
      Map<Long, List<Integer>> byIncarnation = new TreeMap<>();
      Map<Integer, Long> highest = new HashMap<>();
      List<String> disorder = new ArrayList<>();
      for (StoreChaosUser.Delivery d : user.deliveries(room)) {
        byIncarnation.computeIfAbsent(d.seq(), k -> new ArrayList<>()).add(d.incarnation());
        long top = highest.getOrDefault(d.incarnation(), 0L);
        if (d.seq() <= top) disorder.add("seq " + d.seq() + " after " + top + " in incarnation " + d.incarnation());
        highest.put(d.incarnation(), Math.max(top, d.seq()));
      }
      TreeSet<Long> missing = new TreeSet<>();
      for (Message m : truth.messages().get(room)) {
        if (!byIncarnation.containsKey(m.seq())) missing.add(m.seq());
      }
      List<String> dups = new ArrayList<>();
      TreeSet<Long> extra = new TreeSet<>();
      for (Map.Entry<Long, List<Integer>> e : byIncarnation.entrySet()) {
        if (e.getValue().size() > 1) dups.add("seq " + e.getKey() + " by incarnations " + e.getValue());
        if (e.getKey() > truth.rooms().get(room).lastMessageSeq()) extra.add(e.getKey());
      }
      if (!missing.isEmpty()) problems.add(where + ": never delivered, seqs " + ChaosReport.ranges(missing));
      if (!dups.isEmpty()) problems.add(where + ": delivered twice: " + first(dups));
      if (!disorder.isEmpty()) problems.add(where + ": out of order: " + first(disorder));
      if (!extra.isEmpty()) problems.add(where + ": seqs the server does not have: " + ChaosReport.ranges(extra));
    }
    return problems;
  }

  /** The unread rule on the server's state: others' messages above the user's receipt, not deleted. */
  static int unread(String userId, String roomId, Truth truth) {
    long read = 0;
    for (Receipt r : truth.receipts().get(roomId)) {
      if (r.userId().equals(userId)) read = r.seq();
    }
    int n = 0;
    for (Message m : truth.messages().get(roomId)) {
      if (!m.senderId().equals(userId) && m.seq() > read && !m.isDeleted()) n++;
    }
    return n;
  }

  /**
   * The device's latest room list against the counts computed from the server, the unread count and the unread
   * mentions (contract section 10); empty when they agree.
   */
  static List<String> unreadCounts(String device, String userId, Iterable<String> rooms, RoomList list, Truth truth) {
    List<String> diffs = new ArrayList<>();
    if (list == null) {
      diffs.add(device + ": no room list snapshot");
      return diffs;
    }
    for (String room : rooms) {
      int expected = unread(userId, room, truth);
      RoomSummary s = list.room(room);
      if (s == null) {
        diffs.add(device + " in " + room + ": not in the room list (server unread " + expected + ")");
      } else if (s.unreadCount() != expected || s.unreadCapped()) {
        diffs.add(device + " in " + room + ": unread " + s.unreadCount() + (s.unreadCapped() ? "+" : "")
            + ", server " + expected);
      } else {
        int mentions = ChaosTruth.unreadMentions(userId, truth.messages().get(room), truth.receipts().get(room));
        if (s.unreadMentions() != mentions) {
          diffs.add(device + " in " + room + ": unreadMentions " + s.unreadMentions() + ", server " + mentions);
        }
      }
    }
    return diffs;
  }

  /**
   * Every message the device's events handed over carries the server's thread summary in its latest copy (none for
   * a message that is no root); empty when they agree. A message the device never got is the deliveries' problem.
   */
  static List<String> threadSummaries(String device, ChaosView view, Truth truth) {
    List<String> problems = new ArrayList<>();
    for (String room : new TreeSet<>(view.rooms)) {
      List<String> diffs = new ArrayList<>();
      for (Message t : truth.messages().get(room)) {
        Message seen = view.latest(t.id());
        if (seen != null && !java.util.Objects.equals(seen.thread(), t.thread())) {
          diffs.add("root seq " + t.seq() + " saw " + seen.thread() + " server " + t.thread());
        }
      }
      if (!diffs.isEmpty()) problems.add(device + " in " + room + ": thread summaries differ: " + first(diffs));
    }
    return problems;
  }

  /**
   * The user's store, read after its last client closed: each room's watermarks are the room's
   * {@code lastMessageSeq} and {@code rev}; its receipts are the server's; every message from the oldest it keeps
   * up to the watermark is there, at its latest rev.
   */
  static List<String> store(StoreChaosUser user, ChatStore store, Truth truth) throws Exception {
    List<String> problems = new ArrayList<>();
    StoredState state = store.load();
    Map<String, StoredRoom> stored = new HashMap<>();
    for (StoredRoom r : state.rooms()) stored.put(r.room().id(), r);
    Map<String, Map<String, Receipt>> receipts = new HashMap<>();
    for (Receipt r : state.receipts()) receipts.computeIfAbsent(r.roomId(), k -> new HashMap<>()).put(r.userId(), r);
    for (String room : new TreeSet<>(user.rooms)) {
      String where = user.userId + "'s store, " + room;
      Room truthRoom = truth.rooms().get(room);
      StoredRoom s = stored.get(room);
      if (s == null) {
        problems.add(where + ": not stored");
        continue;
      }
      if (s.seq() != truthRoom.lastMessageSeq() || s.rev() != truthRoom.rev()) {
        problems.add(where + ": watermarks seq=" + s.seq() + " rev=" + s.rev() + ", server lastMessageSeq="
            + truthRoom.lastMessageSeq() + " rev=" + truthRoom.rev());
      }
      Map<String, Receipt> kept = receipts.getOrDefault(room, Map.of());
      List<String> receiptDiffs = new ArrayList<>();
      for (Receipt t : truth.receipts().get(room)) {
        Receipt k = kept.get(t.userId());
        if (k == null || k.seq() != t.seq() || !k.messageId().equals(t.messageId())) {
          receiptDiffs.add(t.userId() + " stored " + (k == null ? "none" : "seq " + k.seq()) + " server seq "
              + t.seq());
        }
      }
      if (kept.size() > truth.receipts().get(room).size()) receiptDiffs.add("stored " + kept.keySet());
      if (!receiptDiffs.isEmpty()) problems.add(where + ": receipts differ: " + first(receiptDiffs));
      problems.addAll(messages(where, store, room, s.seq(), truth.messages().get(room)));
    }
    return problems;
  }

  /** Reads the room's stored history forward from its oldest kept message and compares it with the server's. */
  private static List<String> messages(String where, ChatStore store, String room, long watermark,
      List<Message> history) throws Exception {
    List<String> problems = new ArrayList<>();
    Map<Long, Message> bySeq = new TreeMap<>();
    for (Message m : history) bySeq.put(m.seq(), m);
    // the oldest kept message: the store answers a page going back from above the newest
    MessagePage newest = store.messages(room, MessageQuery.latest(1));
    if (newest == null || newest.messages().isEmpty()) {
      if (!history.isEmpty()) problems.add(where + ": the store answers no latest page");
      return problems;
    }
    long low = newest.messages().get(0).seq();
    while (true) {
      MessagePage back = store.messages(room, MessageQuery.before(low, MessageQuery.MAX_LIMIT));
      if (back == null || back.messages().isEmpty()) break;
      low = back.messages().get(0).seq();
    }
    List<String> stale = new ArrayList<>();
    TreeSet<Long> missing = new TreeSet<>();
    long after = low - 1;
    long expectedNext = low;
    while (after < watermark) {
      // an after page is answered only when it ends at or below the watermark
      int limit = (int) Math.min(MessageQuery.MAX_LIMIT, watermark - after);
      MessagePage page = store.messages(room, MessageQuery.after(after, limit));
      if (page == null) {
        problems.add(where + ": the store does not hold the page after seq " + after);
        break;
      }
      for (Message m : page.messages()) {
        for (long s = expectedNext; s < m.seq(); s++) if (bySeq.containsKey(s)) missing.add(s);
        expectedNext = m.seq() + 1;
        if (!m.equals(bySeq.get(m.seq()))) stale.add("seq " + m.seq() + " rev " + m.rev() + " server rev "
            + (bySeq.containsKey(m.seq()) ? bySeq.get(m.seq()).rev() : "none"));
      }
      after += limit;
    }
    for (long s : bySeq.keySet()) if (s >= expectedNext) missing.add(s);
    if (!missing.isEmpty()) {
      problems.add(where + ": missing from the kept range " + low + "..: " + ChaosReport.ranges(missing));
    }
    if (!stale.isEmpty()) {
      problems.add(where + ": " + stale.size() + " messages not at their latest rev: " + first(stale));
    }
    return problems;
  }

  static String first(List<String> items) {
    List<String> head = items.subList(0, Math.min(DETAIL, items.size()));
    return String.join("; ", head) + (items.size() > DETAIL ? "; ... " + (items.size() - DETAIL) + " more" : "");
  }
}
