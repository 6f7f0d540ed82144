package dev.svc.chat.it;

import dev.svc.chat.Message;
import dev.svc.chat.SendOptions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The threads part of the chaos workloads (contract section 10), shared by every user of one run: which sends go
 * into a thread and to which root, whom a send mentions, which message a delete may take, and the figures.
 *
 * <p>A root that a reply was sent to is never deleted, and a message a delete was sent for never becomes a root:
 * a reply to a deleted root is refused (409), and every send of the chaos runs must be stored. The choice is made
 * for the run, under one lock, before the calls go out, so the two cannot cross in any order the network delivers
 * them in. Deleted roots (which keep their summary) are covered by {@code ThreadsEndToEndTest}.
 */
final class ChaosThreads {
  /** The share of sends that are thread replies. */
  private static final double REPLY = 0.2;
  /** The share of sends that mention other members of the room. */
  private static final double MENTION = 0.2;

  private final Map<String, List<String>> members;
  private final Set<String> roots = new HashSet<>();
  private final Set<String> deleted = new HashSet<>();
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  /** {@code members}: each room's member ids (the mentions are chosen among them). */
  ChaosThreads(Map<String, List<String>> members) {
    this.members = Map.copyOf(members);
  }

  /**
   * The options of {@code user}'s next send to {@code room}: sometimes a reply in a thread (to a root {@code view}
   * saw in the room), sometimes mentions of one or two other members, always {@code clientMessageId}.
   */
  SendOptions nextSend(String user, String room, ChaosView view, Random rnd, String clientMessageId) {
    SendOptions.Builder options = SendOptions.builder().clientMessageId(clientMessageId);
    if (rnd.nextDouble() < REPLY) {
      Message root = view.pick(room, rnd, m -> m.threadId() == null);
      if (root != null && claimRoot(root.id())) {
        options.threadId(root.id());
        count("reply");
      }
    }
    if (rnd.nextDouble() < MENTION) {
      List<String> mentioned = mentions(user, room, rnd);
      if (!mentioned.isEmpty()) {
        options.mentions(mentioned);
        count("mention");
      }
    }
    return options.build();
  }

  /** One or two other members of {@code room}, at random; empty when {@code user} is alone there. */
  List<String> mentions(String user, String room, Random rnd) {
    List<String> others = new ArrayList<>(members.get(room));
    others.remove(user);
    List<String> chosen = new ArrayList<>();
    int n = Math.min(others.size(), 1 + rnd.nextInt(2));
    for (int i = 0; i < n; i++) chosen.add(others.remove(rnd.nextInt(others.size())));
    return chosen;
  }

  /** A message of {@code user}'s in {@code room} that {@code view} saw, to delete: a thread reply when {@code reply}. */
  Message toDelete(String user, String room, ChaosView view, Random rnd, boolean reply) {
    Message m = view.pick(room, rnd,
        c -> c.senderId().equals(user) && (c.threadId() != null) == reply && !isRoot(c.id()));
    if (m == null || !claimDelete(m.id())) return null;
    if (reply) count("replyDelete");
    return m;
  }

  private synchronized boolean isRoot(String id) {
    return roots.contains(id);
  }

  private synchronized boolean claimRoot(String id) {
    if (deleted.contains(id)) return false;
    roots.add(id);
    return true;
  }

  private synchronized boolean claimDelete(String id) {
    if (roots.contains(id)) return false;
    deleted.add(id);
    return true;
  }

  private void count(String kind) {
    counts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
  }

  /** The figures for the counts line: replies, reply deletes and mentioning sends the workload made. */
  String figures() {
    Map<String, Long> c = new TreeMap<>();
    for (String k : List.of("reply", "replyDelete", "mention")) {
      c.put(k, counts.getOrDefault(k, new AtomicLong()).get());
    }
    return "replies=" + c.get("reply") + " replyDeletes=" + c.get("replyDelete") + " mentions=" + c.get("mention");
  }
}
