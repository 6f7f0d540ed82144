package dev.svc.chat.bench.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.bench.support.CuttingProxy;
import dev.svc.chat.bench.support.Report;

/**
 * The direct-message row of {@link BadNetworkBench}: a REST sender on a good network in a room of two whose other
 * member is behind the {@link CuttingProxy}. Rounds of sends, each with its own cuts' seed; after each round the
 * cuts stop and the cut member must hold every message of the room exactly once (live or recovered). Meanwhile
 * the server's dev API is read every 100 ms for the bytes waiting in the server's outbound queues of the cut
 * member's connections: the server's memory held for one slow reader.
 */
final class DirectMessageCut {
    private static final String TEXT = "x".repeat(1_000);
    private static final ObjectMapper JSON = new ObjectMapper();

    private DirectMessageCut() {
    }

    /** Runs {@code rounds} rounds of {@code sends} sends at {@code perSecond}; adds the row and the summary's rows. */
    static void run(ServerProcess server, Report report, Report.Table table, int rounds, int sends, int perSecond,
            long seed) throws Exception {
        List<String> tokens = server.mint(List.of("dm-sender", "dm-cut"), 1);
        String room = server.createRoom("bad-network-dm", List.of("dm-sender", "dm-cut"));
        double[] p50 = new double[rounds];
        double[] p99 = new double[rounds];
        double max = 0;
        int failed = 0;
        int cuts = 0;
        int received = 0;
        int duplicates = 0;
        Sampler sampler = new Sampler(server.apiUrl, "dm-cut");
        try (CuttingProxy proxy = CuttingProxy.to(server.apiUrl)) {
            ChatClient cut = Svc.init(SvcOptions.builder(proxy.apiUrl()).build());
            ChatClient sender = Svc.init(SvcOptions.builder(server.apiUrl).socketSends(false).build());
            Map<String, Integer> seen = new ConcurrentHashMap<>();
            cut.on(EventType.NEW_MESSAGE, m -> {
                if (m.roomId().equals(room)) {
                    seen.merge(m.id(), 1, Integer::sum);
                }
            });
            cut.connect("dm-cut", tokens.get(1)).get(60, TimeUnit.SECONDS);
            sender.connect("dm-sender", tokens.get(0)).get(60, TimeUnit.SECONDS);
            Thread sampling = sampler.start();
            try {
                for (int r = 0; r < rounds; r++) {
                    proxy.startCutting(seed + r);
                    double[] t = sendAll(sender, room, sends, perSecond);
                    proxy.stopCutting();
                    p50[r] = Report.median(t);
                    p99[r] = Report.percentile(t, 99);
                    max = Math.max(max, Arrays.stream(t).max().orElse(0));
                    failed += (int) Arrays.stream(t).filter(Double::isNaN).count();
                    System.out.printf(Locale.ROOT, "direct message, round %d: p50 %.1f ms, p99 %.1f ms%n", r + 1,
                            p50[r], p99[r]);
                    // every message of the room so far reached the cut member, live or recovered, before the next
                    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                    int expected = (r + 1) * sends;
                    while (seen.size() < expected && System.nanoTime() < deadline) {
                        TimeUnit.MILLISECONDS.sleep(50); // polling a condition, with a deadline
                    }
                }
            } finally {
                sampler.stop(sampling);
            }
            cuts = proxy.cuts();
            received = seen.size();
            duplicates = (int) seen.values().stream().filter(n -> n > 1).count();
            sender.close();
            cut.close();
        }
        int total = rounds * sends;
        double worst = Arrays.stream(p99).max().orElse(Double.NaN);
        double bytes = sampler.maxBytes.get();
        report.result("badnet.dm.p50", Report.median(p50), Double.NaN, "ms")
                .result("badnet.dm.p99", Report.median(p99), Double.NaN, "ms")
                .result("badnet.dm.p99.worstRound", worst, Double.NaN, "ms")
                .result("badnet.dm.slowReaderKiB", bytes / 1024, Double.NaN, "KiB");
        table.row("direct message (room of two), the other member cut, REST sender on a good network: median of "
                        + rounds + " rounds (spread)",
                String.format(Locale.ROOT, "%,d", total), String.valueOf(failed), String.valueOf(cuts),
                fmt(Report.median(p50)) + " (" + spread(p50) + ")", fmt(Report.median(p99)) + " (" + spread(p99) + ")",
                fmt(max));
        String memory = String.format(Locale.ROOT, "Direct message: %,d of %,d messages reached the cut member"
                        + " (live or recovered), %d more than once. The server's memory per slow reader: at most"
                        + " %,.0f KiB waited in the server's outbound queues of the cut member's connections at once"
                        + " (sampled every 100 ms, %,d samples), over at most %d connections at once (each queue is"
                        + " cut at 1,000 frames or 4 MiB).", received, total, duplicates, bytes / 1024,
                sampler.samples.get(), sampler.maxConnections.get());
        report.paragraph(memory);
        System.out.println(memory);
    }

    /** Sends {@code n} texts at {@code perSecond}; each one's time in ms (NaN when it failed). */
    private static double[] sendAll(ChatClient client, String room, int n, int perSecond) throws Exception {
        double[] millis = new double[n];
        List<CompletableFuture<?>> all = new ArrayList<>(n);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long due = start + i * 1_000_000_000L / perSecond;
            long wait = due - System.nanoTime();
            if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait); // the offered rate, not a synchronisation
            final int k = i;
            final long t0 = System.nanoTime();
            all.add(client.sendMessage(room, List.of(MessagePart.text(TEXT + " " + i))).whenComplete((m, e) ->
                    millis[k] = e != null ? Double.NaN : (System.nanoTime() - t0) / 1e6).exceptionally(e -> null));
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.MINUTES);
        return millis;
    }

    private static String spread(double[] values) {
        return fmt(Arrays.stream(values).min().orElse(Double.NaN)) + "–"
                + fmt(Arrays.stream(values).max().orElse(Double.NaN));
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, v < 10 ? "%,.1f" : "%,.0f", v);
    }

    /** Reads the dev API's view of one user's connections every 100 ms: the most bytes queued at once. */
    private static final class Sampler {
        final AtomicLong maxBytes = new AtomicLong();
        final AtomicInteger maxConnections = new AtomicInteger();
        final AtomicInteger samples = new AtomicInteger();
        private final HttpClient http = HttpClient.newHttpClient();
        private final HttpRequest request;
        private final String user;
        private volatile boolean running = true;

        Sampler(String apiUrl, String user) {
            this.user = user;
            this.request = HttpRequest.newBuilder(URI.create(apiUrl.replaceFirst("/v1/?$", "") + "/v1/dev/state"))
                    .header("x-api-key", ServerProcess.API_KEY).timeout(Duration.ofSeconds(10)).GET().build();
        }

        Thread start() {
            Thread t = new Thread(this::loop, "slow-reader-sampler");
            t.setDaemon(true);
            t.start();
            return t;
        }

        void stop(Thread t) throws InterruptedException {
            running = false;
            t.join(15_000);
        }

        private void loop() {
            while (running) {
                try {
                    JsonNode state = JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
                    for (JsonNode u : state.path("users")) {
                        if (user.equals(u.path("userId").asText())) {
                            long bytes = 0;
                            for (JsonNode c : u.path("connections")) {
                                bytes += c.path("queuedBytes").asLong();
                            }
                            maxBytes.accumulateAndGet(bytes, Math::max);
                            maxConnections.accumulateAndGet(u.path("connections").size(), Math::max);
                        }
                    }
                    samples.incrementAndGet();
                    TimeUnit.MILLISECONDS.sleep(100); // the sampling period
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    // a sample missed; the next one counts
                }
            }
        }
    }
}
