package dev.svc.chat.it;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The live threads of this JVM counted by group: a thread's name with its numbers and URLs folded
 * ({@code svc-chat-engine-3} and {@code svc-chat-engine-7} are one group, {@code svc-chat-engine-#}), so a
 * soak can say which kind of thread a growth was, and count the kinds apart.
 */
record ThreadCensus(Map<String, Integer> groups) {
  /**
   * The groups a soak does not count as the clients' threads, and why. OkHttp's two pools are shared by every
   * OkHttpClient of the JVM and keep an idle thread for 60 s: under churn their sizes follow the calls and
   * sockets of the last minute (a burst of reconnects, a stall of the proxy), not what is alive, so they breathe
   * with the load and their growth says nothing about a leak; what they serve is counted elsewhere (a socket's
   * reader thread, {@code OkHttp <url>}, and its descriptor). The fault proxy's threads, two per proxied
   * connection, are the test's, not the SDK's. Everything else counts, so a thread the SDK (or anything new)
   * starts and never ends, named or not, still shows as growth.
   */
  static final java.util.Set<String> NOT_THE_CLIENTS = java.util.Set.of(
      "OkHttp TaskRunner", "OkHttp Dispatcher", "fault-proxy-#-#");

  /** Counts the live threads of this JVM now. */
  static ThreadCensus now() {
    List<String> names = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive()) names.add(t.getName());
    }
    return of(names);
  }

  /** Counts threads of these names. */
  static ThreadCensus of(Collection<String> threadNames) {
    Map<String, Integer> groups = new TreeMap<>();
    for (String name : threadNames) groups.merge(group(name), 1, Integer::sum);
    return new ThreadCensus(groups);
  }

  /** A thread name's group: URLs become {@code <url>}, runs of digits {@code #}. */
  static String group(String name) {
    return name.replaceAll("(https?|wss?)://\\S*", "<url>").replaceAll("[0-9]+", "#");
  }

  /** All threads. */
  int total() {
    return groups.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** The threads but those of {@link #NOT_THE_CLIENTS}. */
  int clients() {
    int n = 0;
    for (Map.Entry<String, Integer> g : groups.entrySet()) {
      if (!NOT_THE_CLIENTS.contains(g.getKey())) n += g.getValue();
    }
    return n;
  }

  /** The groups whose count changed from {@code before} to this census ("OkHttp TaskRunner 13->23"). */
  String changesSince(ThreadCensus before) {
    java.util.Set<String> names = new java.util.TreeSet<>(groups.keySet());
    names.addAll(before.groups.keySet());
    StringBuilder b = new StringBuilder();
    for (String name : names) {
      int was = before.groups.getOrDefault(name, 0);
      int is = groups.getOrDefault(name, 0);
      if (was != is) b.append(b.length() == 0 ? "" : ", ").append(name).append(' ').append(was).append("->").append(is);
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return groups.toString();
  }
}
