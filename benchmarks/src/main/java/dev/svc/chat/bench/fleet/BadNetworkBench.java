package dev.svc.chat.bench.fleet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.ChatClient;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.bench.support.CuttingProxy;
import dev.svc.chat.bench.support.Report;

/**
 * Sends through bad networks, against the reference server (a JVM of its own, loopback): (1) a sender whose own
 * connections are cut every 0.2 to 1.2 s ({@link CuttingProxy}), SDK on its default options, over the socket and
 * over REST; (2) a REST sender on a good network in a room with one member on such a network and one on a good
 * one; (3) a REST sender on a good network in a direct message (a room of two) whose other member is on such a
 * network ({@link DirectMessageCut}). Each send's time runs from the {@code sendMessage} call to its future's
 * completion.
 *
 * <p>Arguments: {@code --socket N} sends over the socket (default 1,500), {@code --rest N} over REST (300),
 * {@code --member N} sends of (2) (3,000), {@code --dm N} sends a round of (3) (1,500), {@code --dm-rounds N} its
 * rounds (5), {@code --seed S} the cuts' seed.
 */
public final class BadNetworkBench {
    private static final String TEXT = "x".repeat(1_000);

    private BadNetworkBench() {
    }

    /** What keeps these sends fast (found while making this section). */
    static final String WHY = "Why a cut sender's sends do not wait for the backoff: the reconnect backoff starts"
            + " over once a connection proved itself (the gateway answered on it: a ping, a send's acknowledgement,"
            + " a rejoin; or the service answered a REST send while it was up), so a network cut every second no"
            + " longer climbs it to its 30 s cap; a gateway that refuses, or accepts and drops before answering,"
            + " proves nothing, and the backoff still climbs against it (`RealtimeEngineTest`). Why another member's"
            + " cuts do not hold the sender: the server answers a send once it is stored and handed to the fan-out,"
            + " never waiting for the room's readers; a reader's queue that passes its bound (1,000 frames or 4 MiB)"
            + " is cut and that reader recovers from history (`SenderNeverWaitsForReadersTest`).";

    public static void main(String[] args) throws Exception {
        int socketSends = Integer.parseInt(Report.option(args, "--socket", "1500"));
        int restSends = Integer.parseInt(Report.option(args, "--rest", "300"));
        int memberSends = Integer.parseInt(Report.option(args, "--member", "3000"));
        int dmSends = Integer.parseInt(Report.option(args, "--dm", "1500"));
        int dmRounds = Integer.parseInt(Report.option(args, "--dm-rounds", "5"));
        long seed = Long.parseLong(Report.option(args, "--seed", "21"));
        Report report = new Report("Sends through bad networks");
        report.paragraph("A sender behind a proxy that cuts its connections every 0.2 to 1.2 s (seeded), resetting the"
                + " client's side and leaving the server's side open and unread, as a dropped phone network does"
                + " (`support/CuttingProxy`); SDK defaults. It sends over the socket at 100 a second, then over REST"
                + " (`socketSends(false)`) at 20 a second, into a room of two. Then a REST sender on a good network"
                + " sends 1 KB texts at 200 a second into a room of three, one member behind the cutting proxy (its"
                + " dead connections' queues back up in the server until its ping timeout or hard limit). A send's"
                + " time: from the call to its future's completion; every send must complete. Last, a direct message:"
                + " the same REST sender sends 1 KB texts at 200 a second into a room of two whose other member is"
                + " behind the cutting proxy, in rounds of new cuts; after each round the cut member must hold every"
                + " message once.");
        Report.Table table = report.table("scenario", "sends", "failed", "cuts", "p50 (ms)", "p99 (ms)", "max (ms)");
        try (ServerProcess server = ServerProcess.start()) {
            List<String> tokens = server.mint(List.of("sender", "peer", "cut", "good"), 1);
            String roomA = server.createRoom("bad-network-sender", List.of("sender", "peer"));
            String roomB = server.createRoom("bad-network-member", List.of("sender", "cut", "good"));

            try (CuttingProxy proxy = CuttingProxy.to(server.apiUrl)) {
                ChatClient socket = Svc.init(SvcOptions.builder(proxy.apiUrl()).build());
                socket.connect("sender", tokens.get(0)).get(60, TimeUnit.SECONDS);
                proxy.startCutting(seed);
                row(report, table, "sender cut, over the socket", run(socket, roomA, socketSends, 100, "short"), proxy,
                        "badnet.senderCut.socket");
                proxy.stopCutting();
                socket.close();
            }
            try (CuttingProxy proxy = CuttingProxy.to(server.apiUrl)) {
                ChatClient rest = Svc.init(SvcOptions.builder(proxy.apiUrl()).socketSends(false).build());
                rest.connect("sender", tokens.get(0)).get(60, TimeUnit.SECONDS);
                proxy.startCutting(seed + 1);
                row(report, table, "sender cut, over REST", run(rest, roomA, restSends, 20, "short"), proxy,
                        "badnet.senderCut.rest");
                proxy.stopCutting();
                rest.close();
            }
            try (CuttingProxy proxy = CuttingProxy.to(server.apiUrl)) {
                ChatClient cut = Svc.init(SvcOptions.builder(proxy.apiUrl()).build());
                ChatClient good = Svc.init(SvcOptions.builder(server.apiUrl).build());
                ChatClient sender = Svc.init(SvcOptions.builder(server.apiUrl).socketSends(false).build());
                cut.connect("cut", tokens.get(2)).get(60, TimeUnit.SECONDS);
                good.connect("good", tokens.get(3)).get(60, TimeUnit.SECONDS);
                sender.connect("sender", tokens.get(0)).get(60, TimeUnit.SECONDS);
                proxy.startCutting(seed + 2);
                row(report, table, "another member cut, REST sender on a good network",
                        run(sender, roomB, memberSends, 200, TEXT), proxy, "badnet.memberCut");
                proxy.stopCutting();
                sender.close();
                good.close();
                cut.close();
            }
            DirectMessageCut.run(server, report, table, dmRounds, dmSends, 200, seed + 10);
        }
        table.end();
        report.paragraph(WHY);
        report.write(args);
        System.exit(0);
    }

    private static void row(Report report, Report.Table table, String label, Result r, CuttingProxy proxy,
            String measure) {
        double[] t = r.millis;
        report.result(measure + ".p50", Report.median(t), Double.NaN, "ms")
                .result(measure + ".p99", Report.percentile(t, 99), Double.NaN, "ms");
        table.row(label, String.format("%,d", t.length), String.valueOf(r.failed.get()), String.valueOf(proxy.cuts()),
                fmt(Report.median(t)), fmt(Report.percentile(t, 99)), fmt(Arrays.stream(t).max().orElse(0)));
        System.out.println(label + ": p50 " + fmt(Report.median(t)) + " ms, p99 " + fmt(Report.percentile(t, 99))
                + " ms, max " + fmt(Arrays.stream(t).max().orElse(0)) + " ms, failed " + r.failed.get());
    }

    private static String fmt(double v) {
        return String.format("%,.0f", v);
    }

    /** Sends {@code n} texts at {@code perSecond}; waits for every one; returns each one's time. */
    private static Result run(ChatClient client, String room, int n, int perSecond, String text) throws Exception {
        Result r = new Result(n);
        List<CompletableFuture<?>> all = new ArrayList<>(n);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long due = start + i * 1_000_000_000L / perSecond;
            long wait = due - System.nanoTime();
            if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait); // the offered rate, not a synchronisation
            final int k = i;
            final long t0 = System.nanoTime();
            all.add(client.sendMessage(room, List.of(MessagePart.text(text + " " + i))).whenComplete((m, e) -> {
                r.millis[k] = (System.nanoTime() - t0) / 1e6;
                if (e != null) r.failed.incrementAndGet();
            }).exceptionally(e -> null));
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.MINUTES);
        return r;
    }

    private static final class Result {
        final double[] millis;
        final AtomicInteger failed = new AtomicInteger();

        Result(int n) {
            millis = new double[n];
        }
    }
}
