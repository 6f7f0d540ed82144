import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

/**
 * The package-cycle check of the build: reads a module's compiled classes with the JDK's {@code jdeps} and fails
 * when the module's own packages depend on each other in a cycle, naming each cycle and the class references
 * that make it.
 *
 * <p>Usage: {@code java PackageCycles.java CLASSES_DIR PREFIX [VOCABULARY [FACADE]]}
 * <ul>
 *   <li>{@code PREFIX}: the packages checked ({@code dev.svc.chat});
 *   <li>{@code VOCABULARY}: a package whose types every layer speaks (the SDK's public model: {@code Message},
 *       {@code Room}, the events and exceptions); references into it are set aside, references out of it count;
 *   <li>{@code FACADE}: comma-separated simple names of the vocabulary package's classes that are not vocabulary but
 *       entry points built on the layers below ({@code Svc}, the helpers); each is a node of its own, so a layer
 *       that reached back up into one of them is a cycle.
 * </ul>
 * Exits 0 when the graph has no cycle (or there are no classes), 1 with a report otherwise.
 */
public final class PackageCycles {
  private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s+.*$");

  public static void main(String[] args) throws Exception {
    Path classes = Paths.get(args[0]);
    String prefix = args[1];
    String vocabulary = args.length > 2 && !args[2].trim().isEmpty() ? args[2].trim() : null;
    Set<String> facade = new HashSet<>();
    if (args.length > 3 && !args[3].trim().isEmpty()) facade.addAll(Arrays.asList(args[3].trim().split("\\s*,\\s*")));
    if (!Files.isDirectory(classes)) return;

    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new IllegalStateException("no jdeps"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:class", "-filter:none",
        "-e", Pattern.quote(prefix) + "\\..*", classes.toString());
    if (rc != 0) throw new IllegalStateException("jdeps failed: " + err);

    // node -> node -> example class references
    Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
    for (String line : out.toString().split("\n")) {
      Matcher m = EDGE.matcher(line);
      if (!m.matches()) continue;
      String from = m.group(1);
      String to = m.group(2);
      if (!to.startsWith(prefix + ".")) continue;
      String a = node(from, vocabulary, facade);
      String b = node(to, vocabulary, facade);
      if (a.equals(b)) continue;
      if (vocabulary != null && b.equals(vocabulary)) continue; // every layer speaks the vocabulary
      graph.computeIfAbsent(a, k -> new TreeMap<>()).computeIfAbsent(b, k -> new TreeSet<>())
          .add(simple(from) + " -> " + simple(to));
      graph.computeIfAbsent(b, k -> new TreeMap<>());
    }

    List<List<String>> cycles = stronglyConnected(graph);
    if (cycles.isEmpty()) return;
    StringBuilder report = new StringBuilder("package cycles in " + classes + ":\n");
    for (List<String> cycle : cycles) {
      report.append("  cycle: ").append(String.join(", ", cycle)).append('\n');
      Set<String> members = new HashSet<>(cycle);
      for (String a : cycle) {
        for (Map.Entry<String, Set<String>> e : graph.get(a).entrySet()) {
          if (!members.contains(e.getKey())) continue;
          List<String> refs = new ArrayList<>(e.getValue());
          report.append("    ").append(a).append(" -> ").append(e.getKey()).append(": ")
              .append(String.join("; ", refs.subList(0, Math.min(3, refs.size()))))
              .append(refs.size() > 3 ? "; ..." : "").append('\n');
        }
      }
    }
    System.err.print(report);
    System.exit(1);
  }

  /** The graph node of a class: its package, or a node of its own for a facade class of the vocabulary package. */
  private static String node(String className, String vocabulary, Set<String> facade) {
    String outer = className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
    int dot = outer.lastIndexOf('.');
    String pkg = outer.substring(0, dot);
    if (pkg.equals(vocabulary) && facade.contains(outer.substring(dot + 1))) return outer;
    return pkg;
  }

  private static String simple(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  /** Tarjan's algorithm, iterative; returns the components of more than one node, each sorted. */
  private static List<List<String>> stronglyConnected(Map<String, Map<String, Set<String>>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new HashSet<>();
    List<List<String>> result = new ArrayList<>();
    int[] counter = {0};
    for (String start : graph.keySet()) {
      if (index.containsKey(start)) continue;
      Deque<Object[]> work = new ArrayDeque<>();
      work.push(new Object[] {start, new ArrayList<>(graph.get(start).keySet()).iterator()});
      index.put(start, counter[0]);
      low.put(start, counter[0]++);
      stack.push(start);
      onStack.add(start);
      while (!work.isEmpty()) {
        Object[] frame = work.peek();
        String v = (String) frame[0];
        @SuppressWarnings("unchecked")
        java.util.Iterator<String> it = (java.util.Iterator<String>) frame[1];
        if (it.hasNext()) {
          String w = it.next();
          if (!index.containsKey(w)) {
            index.put(w, counter[0]);
            low.put(w, counter[0]++);
            stack.push(w);
            onStack.add(w);
            work.push(new Object[] {w, new ArrayList<>(graph.get(w).keySet()).iterator()});
          } else if (onStack.contains(w)) {
            low.put(v, Math.min(low.get(v), index.get(w)));
          }
        } else {
          work.pop();
          if (!work.isEmpty()) {
            String parent = (String) work.peek()[0];
            low.put(parent, Math.min(low.get(parent), low.get(v)));
          }
          if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
              w = stack.pop();
              onStack.remove(w);
              component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
              Collections.sort(component);
              result.add(component);
            }
          }
        }
      }
    }
    return result;
  }
}
