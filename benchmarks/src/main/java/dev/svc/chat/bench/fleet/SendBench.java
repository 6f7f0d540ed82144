package dev.svc.chat.bench.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ChatClient;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.bench.support.Report;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;

/**
 * A single sender's REST {@code sendMessage} throughput into the reference server (a JVM of its own), before
 * and after pipelining: the same SDK client on an OkHttp Dispatcher allowing 5 calls per host (OkHttp's default,
 * which the SDK's own client used until now) and on the SDK's own client (64 per host). The sends go round-robin
 * to 64 rooms with up to 256 outstanding; the outbox keeps one request in flight per room, so at most 64 are in
 * flight. Latency: from the call to the future's completion, queueing included.
 *
 * <p>Arguments: {@code --messages N} per measured round (default 4,000), {@code --rounds R} (default 2).
 */
public final class SendBench {
    private static final int ROOMS = 64;
    private static final int WINDOW = 256;

    private SendBench() {
    }

    public static void main(String[] args) throws Exception {
        int messages = Integer.parseInt(Report.option(args, "--messages", "4000"));
        int rounds = Integer.parseInt(Report.option(args, "--rounds", "2"));
        double[][] before = new double[rounds][];
        double[][] after = new double[rounds][];
        double[] beforeRate = new double[rounds];
        double[] afterRate = new double[rounds];
        try (ServerProcess server = ServerProcess.start()) {
            String token = server.mint(List.of("sender"), 1).get(0);
            List<String> rooms = new ArrayList<>();
            for (int r = 0; r < ROOMS; r++) rooms.add(server.createRoom("send-" + r, List.of("sender")));
            Dispatcher five = new Dispatcher();
            five.setMaxRequestsPerHost(5);
            OkHttpClient fivePerHost = new OkHttpClient.Builder().dispatcher(five).build();
            ChatClient old = Svc.init(SvcOptions.builder(server.apiUrl).okHttpClient(fivePerHost).build());
            ChatClient now = Svc.init(SvcOptions.builder(server.apiUrl).build());
            old.connect("sender", token).get(30, TimeUnit.SECONDS);
            now.connect("sender", token).get(30, TimeUnit.SECONDS);
            run(old, rooms, 500, new double[1]); // warm-up
            run(now, rooms, 500, new double[1]);
            for (int i = 0; i < rounds; i++) { // interleaved
                double[] rate = new double[1];
                before[i] = run(old, rooms, messages, rate);
                beforeRate[i] = rate[0];
                after[i] = run(now, rooms, messages, rate);
                afterRate[i] = rate[0];
            }
            old.close();
            now.close();
            fivePerHost.dispatcher().executorService().shutdown();
        }
        double b = Report.median(beforeRate);
        double a = Report.median(afterRate);
        Report report = new Report("REST sends of one sender: pipelining");
        report.paragraph("One client sends " + String.format("%,d", messages) + " text messages as fast as it can, "
                + "round-robin to " + ROOMS + " rooms, at most " + WINDOW + " outstanding, into the reference server "
                + "(a JVM of its own, loopback, send rate limit lifted). Before: the same SDK on a Dispatcher with "
                + "OkHttp's default 5 calls per host (the SDK's own client had that); after: the SDK's own client, 64 "
                + "per host. Each room keeps one send in flight (its order), so the rooms' sends overlap. Medians of "
                + rounds + " interleaved rounds after a warm-up; latency is from the call to the future's completion.");
        report.table("setting", "messages/s", "ratio to before", "p50 (ms)", "p99 (ms)")
                .row("before: 5 per host", String.format("%,.0f", b), "1.00", fmt(Report.median(flat(before))),
                        fmt(Report.percentile(flat(before), 99)))
                .row("after: 64 per host", String.format("%,.0f", a), String.format("%.2f", a / b),
                        fmt(Report.median(flat(after))), fmt(Report.percentile(flat(after), 99)))
                .end();
        report.write(args);
        System.exit(0);
    }

    private static String fmt(double v) {
        return String.format("%.1f", v);
    }

    private static double[] flat(double[][] rounds) {
        int n = 0;
        for (double[] r : rounds) n += r.length;
        double[] out = new double[n];
        int i = 0;
        for (double[] r : rounds) for (double v : r) out[i++] = v;
        return out;
    }

    /** Sends {@code n} messages; returns each one's latency in ms and sets {@code rate[0]} to messages/s. */
    private static double[] run(ChatClient client, List<String> rooms, int n, double[] rate) throws Exception {
        Semaphore window = new Semaphore(WINDOW);
        double[] latency = new double[n];
        List<CompletableFuture<?>> all = new ArrayList<>(n);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            window.acquire();
            final int k = i;
            final long t0 = System.nanoTime();
            all.add(client.sendMessage(rooms.get(i % rooms.size()), List.of(MessagePart.text("message " + i)))
                    .whenComplete((m, e) -> {
                        latency[k] = (System.nanoTime() - t0) / 1e6;
                        window.release();
                    }));
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(5, TimeUnit.MINUTES);
        rate[0] = n / ((System.nanoTime() - start) / 1e9);
        return latency;
    }
}
