package dev.svc.chat.it;

import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.RoomList;
import dev.svc.chat.RoomSummary;
import dev.svc.chat.ThreadSummary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The chaos test's verdict: every client's view of every room of its user against the server's state, with the
 * counts the test prints and, for each client and room, exactly which seqs are missing, duplicated or out of
 * order and which messages, receipts, thread summaries or unread mentions differ.
 */
final class ChaosReport {
  /** The server's state: per room its history (ascending seq) and its receipts (null: not readable yet). */
  record Truth(Map<String, List<Message>> messages, Map<String, List<Receipt>> receipts) {
  }

  /** One send the workload made: who, where, with which clientMessageId. */
  record Send(String userId, String roomId, String clientMessageId) {
  }

  private static final int DETAIL = 5;

  long sendsAttempted;
  long sendsStored;
  long acknowledged;
  long acknowledgedLost;
  long expectedDeliveries;
  long deliveredDistinct;
  long newEvents;
  long lost;
  long duplicated;
  long outOfOrder;
  long unexpected;
  long stale;
  long receiptMismatches;
  long duplicateUpdates;
  long foreignEvents;
  long recovered;
  long live;
  boolean receiptsCompared;
  long roots;
  long replies;
  long repliesDeleted;
  long rootMismatches;
  long unreadMentions;
  long mentionMismatches;
  private final List<String> problems = new ArrayList<>();

  static ChaosReport compare(List<ChaosView> views, Map<String, String> roomNames, Truth truth, List<Send> sends,
      List<Message> acknowledged) {
    ChaosReport r = new ChaosReport();
    r.checkSends(sends, truth);
    r.checkAcknowledged(acknowledged, truth);
    r.receiptsCompared = truth.receipts().values().stream().allMatch(v -> v != null);
    r.checkSummaries(truth);
    for (ChaosView v : views) {
      Map<String, Long> c = v.counters();
      r.duplicateUpdates += c.get("duplicateUpdates");
      r.foreignEvents += c.get("foreignEvents");
      r.recovered += c.get("recovered");
      r.live += c.get("live");
      if (c.get("duplicateUpdates") > 0) {
        r.problems.add(v.userId + ": " + c.get("duplicateUpdates") + " MESSAGE_UPDATED delivered twice for the same rev");
      }
      if (c.get("foreignEvents") > 0) {
        r.problems.add(v.userId + ": " + c.get("foreignEvents") + " events of rooms the user is not a member of");
      }
      for (String room : new TreeSet<>(v.rooms)) {
        r.compareRoom(v, room, roomNames.get(room), truth);
      }
    }
    return r;
  }

  private void checkSends(List<Send> sends, Truth truth) {
    sendsAttempted = sends.size();
    Map<String, Integer> stored = new HashMap<>();
    for (List<Message> history : truth.messages().values()) {
      for (Message m : history) stored.merge(m.roomId() + "/" + m.clientMessageId(), 1, Integer::sum);
    }
    Map<String, List<String>> notStored = new TreeMap<>();
    for (Send s : sends) {
      Integer n = stored.get(s.roomId() + "/" + s.clientMessageId());
      if (n == null) {
        notStored.computeIfAbsent(s.userId(), k -> new ArrayList<>()).add(s.clientMessageId());
      } else {
        sendsStored++;
        if (n > 1) problems.add("the server stored " + s.clientMessageId() + " " + n + " times");
      }
    }
    notStored.forEach((user, ids) -> problems.add(user + ": " + ids.size() + " sends never stored (their futures "
        + "failed; no retry in the app, the SDK must retry): " + first(ids)));
  }

  /** Every send the server acknowledged is stored with the id and seq it was acknowledged with. */
  private void checkAcknowledged(List<Message> acked, Truth truth) {
    acknowledged = acked.size();
    Map<String, Message> bySeq = new HashMap<>();
    for (List<Message> history : truth.messages().values()) {
      for (Message m : history) bySeq.put(m.roomId() + "/" + m.seq(), m);
    }
    List<String> wrong = new ArrayList<>();
    for (Message a : acked) {
      Message stored = bySeq.get(a.roomId() + "/" + a.seq());
      if (stored == null || !stored.id().equals(a.id())
          || !java.util.Objects.equals(stored.clientMessageId(), a.clientMessageId())) {
        wrong.add(a.clientMessageId() + " acknowledged as seq " + a.seq() + " id " + a.id() + ", stored "
            + (stored == null ? "nothing there" : "seq " + stored.seq() + " id " + stored.id() + " " + stored.clientMessageId()));
      }
    }
    acknowledgedLost = wrong.size();
    if (!wrong.isEmpty()) problems.add("the server lost or moved " + wrong.size() + " acknowledged sends: " + first(wrong));
  }

  /** The server's roots carry the summary their replies in the history make (contract section 10). */
  private void checkSummaries(Truth truth) {
    for (List<Message> history : truth.messages().values()) {
      Map<String, ThreadSummary> expected = ChaosTruth.summariesFromReplies(history);
      List<String> wrong = new ArrayList<>();
      for (Message m : history) {
        if (m.threadId() != null) {
          replies++;
          if (m.isDeleted()) repliesDeleted++;
        }
        if (m.thread() != null) roots++;
        if (!Objects.equals(m.thread(), expected.get(m.id()))) {
          wrong.add("seq " + m.seq() + " " + m.thread() + ", its replies make " + expected.get(m.id()));
        }
      }
      if (!wrong.isEmpty()) problems.add("server: roots whose summary is not their replies': " + first(wrong));
    }
  }

  private void compareRoom(ChaosView v, String room, String roomName, Truth truth) {
    String where = v.userId + " in " + roomName + " (" + room + ")";
    List<Message> history = truth.messages().get(room);
    Map<Long, Message> bySeq = new TreeMap<>();
    for (Message m : history) bySeq.put(m.seq(), m);

    List<Long> seqs = v.seqs(room);
    newEvents += seqs.size();
    expectedDeliveries += history.size();
    Map<Long, Integer> times = new TreeMap<>();
    List<String> disorder = new ArrayList<>();
    long highest = 0;
    for (int i = 0; i < seqs.size(); i++) {
      long s = seqs.get(i);
      int n = times.merge(s, 1, Integer::sum);
      if (n > 1) continue; // counted as a duplicate, not as disorder
      if (s < highest) disorder.add(s + " after " + highest + " (event #" + (i + 1) + ")");
      highest = Math.max(highest, s);
    }
    Set<Long> missing = new TreeSet<>(bySeq.keySet());
    missing.removeAll(times.keySet());
    Set<Long> extra = new TreeSet<>(times.keySet());
    extra.removeAll(bySeq.keySet());
    List<Long> dups = new ArrayList<>();
    long dupCount = 0;
    for (Map.Entry<Long, Integer> e : times.entrySet()) {
      if (e.getValue() > 1) {
        dups.add(e.getKey());
        dupCount += e.getValue() - 1;
      }
    }
    deliveredDistinct += times.size() - extra.size();
    lost += missing.size();
    duplicated += dupCount;
    outOfOrder += disorder.size();
    unexpected += extra.size();
    if (!missing.isEmpty()) {
      problems.add(where + ": missing " + missing.size() + " of " + history.size() + " seqs: " + ranges(missing));
    }
    if (!dups.isEmpty()) problems.add(where + ": " + dupCount + " duplicated NEW_MESSAGE, seqs " + ranges(dups));
    if (!disorder.isEmpty()) problems.add(where + ": out of order: " + first(disorder));
    if (!extra.isEmpty()) problems.add(where + ": seqs the server does not have: " + ranges(extra));

    List<String> diffs = new ArrayList<>();
    for (Message truthMessage : history) {
      Message seen = v.latest(truthMessage.id());
      if (seen == null || seen.equals(truthMessage)) continue;
      stale++;
      diffs.add("seq " + truthMessage.seq() + " saw " + describe(seen) + " server " + describe(truthMessage)
          + " at rev " + ChaosTruth.rev(truthMessage) + ", its events " + v.trail(truthMessage.id()));
    }
    if (!diffs.isEmpty()) {
      problems.add(where + ": " + diffs.size() + " messages not in their latest state: " + first(diffs));
      List<String> drops = v.drops(room);
      problems.add("   what the SDK dropped in that room, latest last: "
          + drops.subList(Math.max(0, drops.size() - 12), drops.size()));
    }

    compareThreads(v, room, where, history);
    List<Receipt> truthReceipts = truth.receipts().get(room);
    if (truthReceipts != null) {
      compareMentions(v, room, where, history, truthReceipts);
      Map<String, Receipt> seenReceipts = v.receipts(room);
      List<String> receiptDiffs = new ArrayList<>();
      Set<String> users = new HashSet<>(seenReceipts.keySet());
      for (Receipt t : truthReceipts) {
        users.remove(t.userId());
        Receipt s = seenReceipts.get(t.userId());
        if (!t.equals(s)) receiptDiffs.add(t.userId() + " saw " + (s == null ? "none" : "seq " + s.seq()) + " server seq " + t.seq());
      }
      for (String u : users) receiptDiffs.add(u + " saw seq " + seenReceipts.get(u).seq() + " server none");
      receiptMismatches += receiptDiffs.size();
      if (!receiptDiffs.isEmpty()) problems.add(where + ": receipts differ: " + first(receiptDiffs));
    }
  }

  /** Every root the client holds carries the server's thread summary; a root it does not hold is one too. */
  private void compareThreads(ChaosView v, String room, String where, List<Message> history) {
    List<String> diffs = new ArrayList<>();
    for (Message t : history) {
      Message seen = v.latest(t.id());
      if (t.thread() == null && (seen == null || seen.thread() == null)) continue;
      if (seen == null || !Objects.equals(seen.thread(), t.thread())) {
        diffs.add("root seq " + t.seq() + " saw " + (seen == null ? "no root" : seen.thread()) + " server " + t.thread());
      }
    }
    rootMismatches += diffs.size();
    if (!diffs.isEmpty()) problems.add(where + ": " + diffs.size() + " thread summaries differ: " + first(diffs));
  }

  /** The room list's {@code unreadMentions} is the contract's rule on the server's messages and receipts. */
  private void compareMentions(ChaosView v, String room, String where, List<Message> history, List<Receipt> receipts) {
    int expected = ChaosTruth.unreadMentions(v.userId, history, receipts);
    unreadMentions += expected;
    RoomList list = v.roomList();
    RoomSummary s = list == null ? null : list.room(room);
    if (s == null || s.unreadMentions() != expected) {
      mentionMismatches++;
      problems.add(where + ": unreadMentions " + (s == null ? "(no room list row)" : s.unreadMentions() + " (unread "
          + s.unreadCount() + ")") + ", server " + expected);
    }
  }

  boolean clean() {
    return problems.isEmpty();
  }

  List<String> problems() {
    return problems;
  }

  /** The counts line the test prints. */
  String counts() {
    return "sent=" + sendsAttempted + " stored=" + sendsStored + " notStored=" + (sendsAttempted - sendsStored)
        + " acknowledged=" + acknowledged + " acknowledgedLost=" + acknowledgedLost
        + " | expected=" + expectedDeliveries + " delivered=" + deliveredDistinct + " (NEW_MESSAGE events " + newEvents
        + ") lost=" + lost + " duplicated=" + duplicated + " outOfOrder=" + outOfOrder + " unexpected=" + unexpected
        + " | stale=" + stale + " duplicatedUpdates=" + duplicateUpdates
        + " | receipts " + (receiptsCompared ? "mismatched=" + receiptMismatches : "not compared (no getReceipts yet)")
        + " | threads roots=" + roots + " replies=" + replies + " (deleted " + repliesDeleted + ") rootsMismatched="
        + rootMismatches + " | unreadMentions=" + unreadMentions + " mismatched=" + mentionMismatches
        + " | recovered=" + recovered + " live=" + live
        + " | foreign=" + foreignEvents;
  }

  private static String describe(Message m) {
    return "{text='" + m.text() + "'" + (m.editedAt() != null ? " edited" : "") + (m.isDeleted() ? " deleted" : "")
        + (m.reactions().isEmpty() ? "" : " reactions=" + m.reactions()) + "}";
  }

  private static String first(List<String> items) {
    List<String> head = items.subList(0, Math.min(DETAIL, items.size()));
    return String.join("; ", head) + (items.size() > DETAIL ? "; ... " + (items.size() - DETAIL) + " more" : "");
  }

  /** "3, 7-9, 12" */
  static String ranges(Iterable<Long> sorted) {
    StringBuilder sb = new StringBuilder();
    long start = -1;
    long prev = -1;
    for (long s : sorted) {
      if (start >= 0 && s == prev + 1) {
        prev = s;
        continue;
      }
      if (start >= 0) append(sb, start, prev);
      start = s;
      prev = s;
    }
    if (start >= 0) append(sb, start, prev);
    return sb.toString();
  }

  private static void append(StringBuilder sb, long start, long end) {
    if (sb.length() > 0) sb.append(", ");
    sb.append(start);
    if (end > start) sb.append('-').append(end);
  }
}
