package dev.svc.chat.bench.fleet;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.bench.support.Report;

/**
 * Bot fleets: how many clients one JVM holds against the reference server (in a JVM of its own), what each
 * costs in heap and threads, and how long connecting them all takes. Ours on one shared {@code OkHttpClient},
 * ours with an {@code OkHttpClient} each, and the peer: raw OkHttp WebSockets doing only the Socket.IO
 * handshake and CONNECT. Each kind runs in a fresh JVM ({@link FleetProbe}).
 *
 * <p>Arguments: {@code --clients N} (default 1,000; 10,000 needs {@code ulimit -n} of about 25,000 in the
 * shell, see docs/fleets.md), {@code --kinds shared,own,jdk,raw}. With {@code -Dfleet.histo=DIR} each probe writes
 * its heap's class histogram, once connected and idle, to {@code DIR/KIND.histo} (to see what a client costs).
 */
public final class FleetBench {
    private FleetBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(Report.option(args, "--clients", "1000"));
        String[] kinds = Report.option(args, "--kinds", "shared,own,jdk,raw").split(",");
        Map<String, Map<String, String>> results = new HashMap<>();
        try (ServerProcess server = ServerProcess.start()) {
            List<String> users = new ArrayList<>();
            for (int i = 0; i < n; i++) users.add("bot-" + i);
            List<String> tokens = server.mint(users, 32);
            Path tokenFile = Files.createTempFile("fleet-tokens", ".txt");
            try {
                Files.write(tokenFile, tokens, StandardCharsets.UTF_8);
                for (String kind : kinds) {
                    results.put(kind, probe(kind, server.apiUrl, tokenFile, n));
                    System.err.println("fleet " + kind + ": " + results.get(kind));
                }
            } finally {
                Files.deleteIfExists(tokenFile);
            }
        }
        Report report = new Report("Bot fleets: " + String.format("%,d", n) + " clients in one JVM");
        report.paragraph("N clients of N users connect at once from one JVM to the reference server (a JVM of its own, "
                + "loopback); each kind in a fresh JVM (-Xss512k). Heap: used heap after GC once all are connected and "
                + "3 s idle, minus before, per connected client. Threads: live threads minus before, per client; "
                + "OkHttp's task-runner threads (writers and pool cleanup, shared by every OkHttpClient, ending after "
                + "a minute idle) are counted, and shown apart. `shared`: our clients on one `new OkHttpClient()` "
                + "(default Dispatcher, as a fleet writes it); `own`: a `new OkHttpClient()` each; `jdk`: our clients on "
                + "the JDK transport (`JdkTransport.shared()`, svc-chat-sdk-transport-jdk), REST on one `new OkHttpClient()`; peer `raw`: raw OkHttp "
                + "WebSockets on one client with the Dispatcher's limits lifted, doing only the Engine.IO handshake, the "
                + "Socket.IO CONNECT with the token and pongs (no REST, no recovery, no state). Our clients also "
                + "run recovery's room listing (a REST call) at connect, and retry a failed first attempt with backoff "
                + "(`connected` counts those up by the deadline of max(60 s, N/25 s)). One run, on a machine others may be loading: "
                + "read the ratios, not the absolute figures.");
        Report.Table t = report.table("kind", "connected", "first attempts failed", "connect all (ms)", "heap per client (KiB)",
                "ratio to raw", "threads per client", "of which task runners (threads)");
        Map<String, String> raw = results.get("raw");
        for (String kind : kinds) {
            Map<String, String> r = results.get(kind);
            double heap = Double.parseDouble(r.getOrDefault("heapPerClient", "NaN")) / 1024;
            String ratio = raw == null || kind.equals("raw") ? "1.00"
                    : String.format("%.2f", heap / (Double.parseDouble(raw.get("heapPerClient")) / 1024));
            t.row(kind, r.get("connected"), r.get("failed"), r.get("connectMillis"), String.format("%.1f", heap), ratio,
                    r.get("threadsPerClient"), r.get("taskRunnerThreads"));
            report.result("fleet.heap." + kind + "@" + n, heap, raw == null ? Double.NaN
                    : Double.parseDouble(raw.get("heapPerClient")) / 1024, "KiB");
            report.result("fleet.threads." + kind + "@" + n, Double.parseDouble(r.get("threadsPerClient")),
                    raw == null ? Double.NaN : Double.parseDouble(raw.get("threadsPerClient")), "threads");
        }
        t.end();
        report.paragraph("The JDK transport (`jdk`, target: 10,000 clients at at most 0.1 thread and 20 KiB each):"
                + " every socket is read and written by the shared HttpClient's one selector thread, and handed to a"
                + " reader executor of two threads per core (at least 4); with the SDK's shared engine, callback and timer pools, the"
                + " threads do not grow with the clients. `benchmarks/run fleet-10k` runs it at 10,000 clients.");
        report.paragraph("Targets of the performance issue: at most 25 KiB heap and 1.1 threads per client. Threads:"
                + " with one OkHttpClient shared, each client has one thread of its own, its socket's reader (OkHttp"
                + " runs a WebSocket's reader loop on a thread for the socket's life); the engine and callback pools are"
                + " shared by every client; the rest of the per-client figure is OkHttp's task-runner threads left from"
                + " the connect storm (shown apart), which end after a minute idle; they vary from run to run (the"
                + " peer's too). Heap: what is above raw OkHttp's is the SDK's own per-client state. A class histogram"
                + " of the idle fleet (`-Dfleet.histo=DIR`), ours minus raw, per client: 4.4 KB before the state was"
                + " sized lazily (the arrays of three empty ArrayDeques and of the inbound lists a connect burst"
                + " had grown, 1.0 KB; five ConcurrentHashMaps with three tables and their key-set views, 0.7 KB; two"
                + " pending timers of six objects each, 0.35 KB; a parsed API URL and WebSocket request per client,"
                + " about 0.3 KB), about 1 KB after: the client's own objects (engine, recovery, outbox, REST, event"
                + " hub, about 30 objects of 16 to 112 bytes, 1.5 KB) and its watchdog timer (0.13 KB), less the"
                + " gateway request and URL raw holds per socket and ours shares. What is"
                + " empty most of the time is now created on first use and dropped when emptied, and what can be"
                + " is shared by the clients of one API URL; the rest is the state each client needs.");
        report.write(args);
    }

    private static Map<String, String> probe(String kind, String apiUrl, Path tokens, int n) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ServerProcess.java(), "-Xss512k", "-Xmx2g",
                "-Dfleet.debug=" + Boolean.getBoolean("fleet.debug"),
                "-Dfleet.histo=" + System.getProperty("fleet.histo", "")));
        // the JDK HttpClient's own settings (-Djdk.httpclient.bufsize=...), to compare them on the jdk kind
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("jdk.httpclient.")) cmd.add("-D" + key + "=" + System.getProperty(key));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"),
                FleetProbe.class.getName(), kind, apiUrl, tokens.toString(), Integer.toString(n)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Map<String, String> result = new HashMap<>();
        StringBuilder output = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("RESULT ")) {
                    for (String kv : line.substring(7).split(" ")) {
                        int eq = kv.indexOf('=');
                        result.put(kv.substring(0, eq), kv.substring(eq + 1));
                    }
                } else if (line.startsWith("THREADS ")) {
                    System.err.println(line); // the threads by pool, for the section's reading
                } else if (Boolean.getBoolean("fleet.debug")) {
                    System.err.println(line);
                } else if (output.length() < 4000) {
                    output.append(line).append('\n');
                }
            }
        }
        if (!p.waitFor(10, TimeUnit.MINUTES)) p.destroyForcibly();
        if (result.isEmpty()) throw new IllegalStateException("probe " + kind + " failed:\n" + output);
        return result;
    }
}
