package dev.svc.chat.bench.fleet;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.ChatClient;
import dev.svc.chat.bench.support.Heap;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.transport.jdk.JdkTransport;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;

/**
 * One measurement of {@link FleetBench} in a JVM of its own: N connections of one kind to the server, then the
 * heap (after GC) and the threads they hold. Prints one line {@code RESULT key=value ...}.
 *
 * <p>Kinds: {@code shared} (SDK clients on one {@code new OkHttpClient()}), {@code own} (SDK clients with a
 * {@code new OkHttpClient()} each), {@code jdk} (SDK clients on the JDK transport, {@code JdkTransport.shared()}, REST
 * on one {@code new OkHttpClient()}), {@code raw} (raw OkHttp WebSockets doing the Socket.IO handshake and
 * CONNECT, answering pings, on one OkHttpClient whose Dispatcher limits are lifted).
 */
public final class FleetProbe {
    private FleetProbe() {
    }

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        String apiUrl = args[1];
        List<String> tokens = Files.readAllLines(Path.of(args[2]), StandardCharsets.UTF_8);
        int n = Integer.parseInt(args[3]);
        long heap0 = Heap.settled();
        int threads0 = ManagementFactory.getThreadMXBean().getThreadCount();
        List<AutoCloseable> open = new ArrayList<>();
        List<CompletableFuture<Void>> connected = new ArrayList<>();
        long start = System.nanoTime();
        OkHttpClient shared = kind.equals("own") ? null : sharedClient(kind);
        for (int i = 0; i < n; i++) {
            String user = "bot-" + i;
            String token = tokens.get(i);
            if (kind.equals("raw")) {
                connected.add(raw(shared, apiUrl, token, open));
            } else {
                OkHttpClient http = shared != null ? shared : new OkHttpClient();
                SvcOptions.Builder options = SvcOptions.builder(apiUrl).okHttpClient(http);
                if (kind.equals("jdk")) options.transport(JdkTransport.shared());
                ChatClient c = Svc.init(options.build());
                open.add(c);
                connected.add(c.connect(user, token));
            }
        }
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        // connects run about 50 a second on a loaded 2-core machine (64 handshakes in flight, a JWT and a REST
        // listing each): 10,000 need minutes
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.max(60, n / 25));
        for (CompletableFuture<Void> f : connected) {
            try {
                f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                failed.incrementAndGet(); // a first attempt that failed: our clients retry with backoff
            }
        }
        if (!kind.equals("raw")) {
            // count the clients CONNECTED by the deadline, retries included
            while (true) {
                int up = 0;
                for (AutoCloseable c : open) if (((ChatClient) c).state() == ConnectionState.CONNECTED) up++;
                ok.set(up);
                if (up == n || System.nanoTime() > deadline) break;
                Thread.sleep(100);
            }
        } else {
            ok.set(n - failed.get());
        }
        long connectMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        Thread.sleep(3_000); // idle: the SDK's shared pools let their threads go
        long heap1 = Heap.settled();
        int threads1 = ManagementFactory.getThreadMXBean().getThreadCount();
        int taskRunners = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("OkHttp TaskRunner")) taskRunners++;
        }
        int live = Math.max(1, ok.get());
        java.util.Map<String, Integer> pools = new java.util.TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) pools.merge(t.getName().replaceAll("\\d+", "N").replace(' ', '_'), 1, Integer::sum);
        System.out.println("THREADS " + kind + " " + pools);
        if (Boolean.getBoolean("fleet.debug")) debug(connected);
        String histo = System.getProperty("fleet.histo", "");
        if (!histo.isEmpty()) Files.writeString(Path.of(histo, kind + ".histo"), histogram());
        System.out.printf(java.util.Locale.ROOT,
                "RESULT kind=%s clients=%d connected=%d failed=%d connectMillis=%d heapPerClient=%.0f"
                        + " threadsPerClient=%.3f taskRunnerThreads=%d threadsWithoutTaskRunners=%.3f%n",
                kind, n, ok.get(), failed.get(), connectMillis, (double) (heap1 - heap0) / live,
                (double) (threads1 - threads0) / live, taskRunners, (double) (threads1 - threads0 - taskRunners) / live);
        System.out.flush();
        System.exit(0); // closing is not measured: the server sees the sockets go
    }

    /** Prints the first failure, the live threads by name and the heap's largest classes (to find costs). */
    private static void debug(List<CompletableFuture<Void>> connected) throws Exception {
        for (CompletableFuture<Void> f : connected) {
            if (f.isCompletedExceptionally()) {
                try {
                    f.join();
                } catch (Exception e) {
                    e.printStackTrace(System.out);
                }
                break;
            }
        }
        java.util.Map<String, Integer> names = new java.util.TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) names.merge(t.getName().replaceAll("\\d+", "N"), 1, Integer::sum);
        System.out.println("THREADS " + names);
        String[] lines = histogram().split("\n");
        for (int i = 0; i < Math.min(45, lines.length); i++) System.out.println("HISTO " + lines[i]);
    }

    /** The live heap's classes, largest first ({@code jcmd PID GC.class_histogram}, which runs a full GC first). */
    private static String histogram() throws Exception {
        Process p = new ProcessBuilder("jcmd", Long.toString(ProcessHandle.current().pid()), "GC.class_histogram")
                .redirectErrorStream(true).start();
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static OkHttpClient sharedClient(String kind) {
        if (kind.equals("shared") || kind.equals("jdk")) return new OkHttpClient(); // as a bot fleet writes it
        Dispatcher d = new Dispatcher();
        d.setMaxRequests(Integer.MAX_VALUE); // raw sockets each hold a slot for life
        d.setMaxRequestsPerHost(Integer.MAX_VALUE);
        return new OkHttpClient.Builder().dispatcher(d).build();
    }

    /** A raw WebSocket: Engine.IO OPEN, Socket.IO CONNECT with the token, pongs. */
    private static CompletableFuture<Void> raw(OkHttpClient http, String apiUrl, String token, List<AutoCloseable> open) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        String url = apiUrl.replaceFirst("/v1/?$", "") + "/socket.io/?EIO=4&transport=websocket";
        WebSocket ws = http.newWebSocket(new Request.Builder().url(url).build(), new WebSocketListener() {
            @Override
            public void onMessage(WebSocket webSocket, String text) {
                if (text.startsWith("0")) {
                    webSocket.send("40{\"token\":\"" + token + "\"}");
                } else if (text.startsWith("40")) {
                    done.complete(null);
                } else if (text.equals("2")) {
                    webSocket.send("3");
                } else if (text.startsWith("44")) {
                    done.completeExceptionally(new IllegalStateException(text));
                }
            }

            @Override
            public void onFailure(WebSocket webSocket, Throwable t, Response response) {
                done.completeExceptionally(t);
            }
        });
        open.add(() -> ws.close(1000, null));
        return done;
    }

}
