package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The server's packages form a graph without cycles: read from the compiled classes by the JDK's {@code jdeps}
 * (every class a class refers to, signatures and constants included), each cycle is named with the classes
 * that make its edges. {@code model} is shared by every layer, so it depends on no other package of the server.
 */
class PackageCyclesTest {

    private static final String ROOT = "dev.svc.chat.reference";
    private static final Pattern EDGE = Pattern.compile("^\\s+(" + Pattern.quote(ROOT) + "\\S*)\\s+->\\s+("
            + Pattern.quote(ROOT) + "\\S*)\\s");

    @Test
    void theServersPackagesFormAGraphWithoutCycles() throws Exception {
        Map<String, Map<String, Set<String>>> edges = packageEdges();
        List<List<String>> cycles = stronglyConnected(edges);
        StringBuilder report = new StringBuilder();
        for (List<String> cycle : cycles) {
            report.append("\ncycle among ").append(cycle).append(':');
            for (String from : cycle) {
                for (String to : cycle) {
                    Set<String> classes = edges.getOrDefault(from, Map.of()).get(to);
                    if (classes != null) {
                        report.append("\n  ").append(from).append(" -> ").append(to).append(" by ").append(classes);
                    }
                }
            }
        }
        assertTrue(cycles.isEmpty(), report.toString());
        assertTrue(edges.size() > 5, "jdeps saw the server's packages: " + edges.keySet());
    }

    @Test
    void modelDependsOnNoOtherPackageOfTheServer() throws Exception {
        assertEquals(Map.of(), packageEdges().getOrDefault(ROOT + ".model", Map.of()));
    }

    /** Returns package -> package it uses -> the class edges ("A -> B") that make it, other packages only. */
    private static Map<String, Map<String, Set<String>>> packageEdges() throws Exception {
        Path classes = Path.of(ReferenceServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isDirectory(classes), "compiled classes in a directory: " + classes);
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new AssertionError("this JDK has no jdeps"));
        StringWriter out = new StringWriter();
        int status = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none",
                classes.toString());
        assertEquals(0, status, out.toString());
        Map<String, Map<String, Set<String>>> edges = new TreeMap<>();
        for (String line : out.toString().split("\\R")) {
            Matcher m = EDGE.matcher(line);
            if (!m.find()) {
                continue;
            }
            String from = packageOf(m.group(1));
            String to = packageOf(m.group(2));
            if (!from.equals(to)) {
                edges.computeIfAbsent(from, k -> new TreeMap<>()).computeIfAbsent(to, k -> new TreeSet<>())
                        .add(simpleName(m.group(1)) + " -> " + simpleName(m.group(2)));
            }
        }
        return edges;
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    /** Tarjan's algorithm: returns every strongly connected component of more than one package, sorted. */
    private static List<List<String>> stronglyConnected(Map<String, Map<String, Set<String>>> edges) {
        Set<String> nodes = new TreeSet<>(edges.keySet());
        edges.values().forEach(to -> nodes.addAll(to.keySet()));
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> components = new ArrayList<>();
        int[] counter = {0};
        for (String node : nodes) {
            if (!index.containsKey(node)) {
                connect(node, edges, index, low, stack, onStack, components, counter);
            }
        }
        return components;
    }

    private static void connect(String v, Map<String, Map<String, Set<String>>> edges, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                                List<List<String>> components, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]);
        counter[0]++;
        stack.push(v);
        onStack.add(v);
        for (String w : edges.getOrDefault(v, Map.of()).keySet()) {
            if (!index.containsKey(w)) {
                connect(w, edges, index, low, stack, onStack, components, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
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
                component.sort(null);
                components.add(component);
            }
        }
    }
}
