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
 * A single sender's {@code sendMessage} throughput into the reference server (a JVM of its own): over REST
 * ({@code socketSends(false)}) on an OkHttp Dispatcher allowing 5 calls per host (OkHttp's default, which the
 * SDK's own client used before) and on the SDK's own client (64 per host), where the outbox keeps one request in
 * flight per room; and over the socket (the default against the reference server), up to 256 per room in flight.
 * The sends go round-robin to 64 rooms, or all to one room, with up to 256 outstanding. Latency: from the call to
 * the future's completion, queueing included.
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
        String[] labels = {
            "REST, 5 per host, 64 rooms (before)", "REST, 64 per host, 64 rooms", "socket, 64 rooms",
            "REST, 64 per host, one room", "socket, one room"};
        double[][][] latencies = new double[labels.length][rounds][];
        double[][] rates = new double[labels.length][rounds];
        try (ServerProcess server = ServerProcess.start()) {
            String token = server.mint(List.of("sender"), 1).get(0);
            List<String> rooms = new ArrayList<>();
            for (int r = 0; r < ROOMS; r++) rooms.add(server.createRoom("send-" + r, List.of("sender")));
            List<String> oneRoom = rooms.subList(0, 1);
            Dispatcher five = new Dispatcher();
            five.setMaxRequestsPerHost(5);
            OkHttpClient fivePerHost = new OkHttpClient.Builder().dispatcher(five).build();
            ChatClient old = Svc.init(SvcOptions.builder(server.apiUrl).okHttpClient(fivePerHost)
                    .socketSends(false).build());
            ChatClient rest = Svc.init(SvcOptions.builder(server.apiUrl).socketSends(false).build());
            ChatClient socket = Svc.init(SvcOptions.builder(server.apiUrl).build());
            ChatClient[] clients = {old, rest, socket, rest, socket};
            List<List<String>> targets = List.of(rooms, rooms, rooms, oneRoom, oneRoom);
            for (ChatClient c : new ChatClient[] {old, rest, socket}) {
                c.connect("sender", token).get(30, TimeUnit.SECONDS);
                run(c, rooms, 500, new double[1]); // warm-up
            }
            for (int i = 0; i < rounds; i++) { // interleaved
                for (int k = 0; k < labels.length; k++) {
                    double[] rate = new double[1];
                    latencies[k][i] = run(clients[k], targets.get(k), messages, rate);
                    rates[k][i] = rate[0];
                }
            }
            old.close();
            rest.close();
            socket.close();
            fivePerHost.dispatcher().executorService().shutdown();
        }
        double before = Report.median(rates[0]);
        Report report = new Report("Sends of one sender: pipelining");
        report.paragraph("One client sends " + String.format("%,d", messages) + " text messages as fast as it can, "
                + "round-robin to " + ROOMS + " rooms (or all to one room), at most " + WINDOW + " outstanding, into the"
                + " reference server (a JVM of its own, loopback, send rate limit lifted). REST (`socketSends(false)`):"
                + " one send per room in flight (two HTTP connections may swap two requests), so only the rooms' sends"
                + " overlap; before: on a Dispatcher with OkHttp's default 5 calls per host (the SDK's own client had"
                + " that), then the SDK's own client, 64 per host. Socket (the default against the reference server):"
                + " up to 256 sends per room in flight as `send-message` events on the one ordered WebSocket. Medians"
                + " of " + rounds + " interleaved rounds after a warm-up; latency is from the call to the future's"
                + " completion.");
        Report.Table table = report.table("setting", "messages/s", "ratio to before", "p50 (ms)", "p99 (ms)");
        for (int k = 0; k < labels.length; k++) {
            double rate = Report.median(rates[k]);
            table.row(labels[k], String.format("%,.0f", rate), String.format("%.2f", rate / before),
                    fmt(Report.median(flat(latencies[k]))), fmt(Report.percentile(flat(latencies[k]), 99)));
        }
        table.end();
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
