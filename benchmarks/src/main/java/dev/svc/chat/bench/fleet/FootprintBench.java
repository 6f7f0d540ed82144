package dev.svc.chat.bench.fleet;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.svc.chat.ChatClient;
import dev.svc.chat.bench.support.Heap;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.bench.support.Report;

/**
 * The SDK's footprint: the runtime jar closure (sdk-core and its dependencies) beside raw OkHttp + Moshi and
 * socket.io-client-java, and the threads and heap of one idle connected client.
 */
public final class FootprintBench {
    private FootprintBench() {
    }

    public static void main(String[] args) throws Exception {
        List<Path> classpath = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) classpath.add(Paths.get(e));
        // sdk-core's runtime closure: okhttp, okio, kotlin-stdlib(+jdk7/8), jetbrains annotations, moshi
        List<Path> deps = new ArrayList<>();
        for (Path p : classpath) {
            String n = p.getFileName().toString();
            if (n.endsWith(".jar") && (n.startsWith("okhttp-4") || n.startsWith("okio-") || n.startsWith("kotlin-stdlib")
                    || n.startsWith("annotations-13") || n.startsWith("moshi-1"))) deps.add(p);
        }
        Path sdkJar = sdkJar();
        long depsSize = size(deps);
        long sdkSize = sdkJar == null ? 0 : Files.size(sdkJar);
        Path m2 = Paths.get(System.getProperty("user.home"), ".m2", "repository");
        List<Path> sio = List.of(m2.resolve("io/socket/socket.io-client/2.1.2/socket.io-client-2.1.2.jar"),
                m2.resolve("io/socket/engine.io-client/2.1.0/engine.io-client-2.1.0.jar"),
                m2.resolve("org/json/json/20090211/json-20090211.jar"));
        List<Path> okhttp3 = List.of(m2.resolve("com/squareup/okhttp3/okhttp/3.12.12/okhttp-3.12.12.jar"),
                m2.resolve("com/squareup/okio/okio/1.15.0/okio-1.15.0.jar"));
        boolean sioThere = sio.stream().allMatch(Files::exists);
        boolean okhttp3There = okhttp3.stream().allMatch(Files::exists);

        Report report = new Report("Footprint: jar closure, one idle client");
        report.paragraph("Runtime jar closure, bytes of the jars. Ours: sdk-core plus its dependencies (" + names(deps)
                + "). Peer: raw OkHttp + Moshi, the same dependencies without sdk-core; socket.io-client-java 2.1.2: "
                + "its own jars (socket.io-client, engine.io-client, org.json)"
                + (okhttp3There ? " plus the OkHttp 3.12.12 and Okio 1.15.0 it declares."
                    : "; the OkHttp 3.12.12 and Okio 1.15.0 it declares are not in this machine's Maven repository and "
                        + "are left out (an app already on OkHttp 4 resolves it to OkHttp 4.12, whose closure is the "
                        + "raw OkHttp + Moshi row less Moshi)."));
        Report.Table t = report.table("closure", "size (KiB)", "ratio of ours to it");
        long ours = sdkSize + depsSize;
        t.row("ours: sdk-core + dependencies", kib(ours), "1.00");
        t.row("raw OkHttp + Moshi", kib(depsSize), String.format("%.2f", (double) ours / depsSize));
        if (sioThere) {
            long s = size(sio) + (okhttp3There ? size(okhttp3) : 0);
            t.row("socket.io-client-java" + (okhttp3There ? "" : " (own jars only)"), kib(s),
                    String.format("%.2f", (double) ours / s));
        }
        t.row("of which sdk-core itself", kib(sdkSize), "");
        t.end();

        try (ServerProcess server = ServerProcess.start()) {
            String token = server.mint(List.of("idle"), 1).get(0);
            long heap0 = Heap.settled();
            int threads0 = ManagementFactory.getThreadMXBean().getThreadCount();
            ChatClient client = Svc.init(SvcOptions.builder(server.apiUrl).build());
            client.connect("idle", token).get(30, TimeUnit.SECONDS);
            int threadsBusy = ManagementFactory.getThreadMXBean().getThreadCount() - threads0;
            Thread.sleep(5_000); // the shared pools let idle threads go after 3 s
            long heap1 = Heap.settled();
            int threads1 = ManagementFactory.getThreadMXBean().getThreadCount() - threads0;
            List<String> names = new ArrayList<>();
            for (Thread th : Thread.getAllStackTraces().keySet()) {
                String n = th.getName();
                if (n.startsWith("svc-chat") || n.startsWith("OkHttp")) names.add(n.replaceAll("\\d+", "N"));
            }
            client.close();
            report.paragraph("One client connected to the reference server (a JVM of its own), then 5 s idle. Threads "
                    + "and used heap after GC are counted against before the client was made, in the same JVM (the first "
                    + "client also loads and creates what every later client shares: the heap figure is an upper "
                    + "bound; see the fleet section for the cost per client). Live SDK and OkHttp threads when idle: "
                    + String.join(", ", names.stream().sorted().toList()) + ".");
            report.table("measure", "value")
                    .row("threads right after connect", threadsBusy)
                    .row("threads after 5 s idle", threads1)
                    .row("heap after 5 s idle (KiB)", kib(heap1 - heap0))
                    .end();
        }
        report.write(args);
        System.exit(0);
    }

    private static Path sdkJar() throws Exception {
        Path target = Paths.get("sdk-core", "target");
        if (!Files.isDirectory(target)) return null;
        try (Stream<Path> s = Files.list(target)) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith("svc-chat-sdk-core-") && n.endsWith(".jar") && !n.contains("sources")
                        && !n.contains("javadoc");
            }).findFirst().orElse(null);
        }
    }

    private static long size(List<Path> jars) throws Exception {
        long total = 0;
        for (Path p : jars) total += Files.size(p);
        return total;
    }

    private static String names(List<Path> jars) {
        List<String> out = new ArrayList<>();
        for (Path p : jars) out.add(p.getFileName().toString());
        return String.join(", ", out);
    }

    private static String kib(long bytes) {
        return String.format("%,.0f", bytes / 1024.0);
    }

}
