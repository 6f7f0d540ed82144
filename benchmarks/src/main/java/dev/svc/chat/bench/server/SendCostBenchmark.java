package dev.svc.chat.bench.server;

import dev.svc.chat.bench.support.ProcessCounters;
import dev.svc.chat.bench.support.Report;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The server's CPU time per REST send, the cost a message pays whatever its room's size: a room of one member
 * with no connection (so no delivery), one sender in this JVM (8 requests in flight, token auth) posting to
 * {@code POST /v1/chat/rooms/{roomId}/messages} of our reference server in a child JVM, and the same bodies to
 * the official Node socket.io server's {@code POST /send} (node/fanout-server.js, a room nobody joined) as the
 * peer. The server's CPU (user and system, from /proc, all its threads) is read before and after each round,
 * so the figure holds under load; rounds come after a warm-up that settles our JIT compilers.
 *
 * <p>Arguments: {@code --warmup N} (sends before the first round, 30,000 unless given), {@code --sends N} (a
 * round's sends, 20,000), {@code --rounds N} (5), {@code --only ours|node}, and those of
 * {@link ServerUnderTest#ours(String[], String)} ({@code --server-args}, {@code --jfr DIR}, ...), {@code --out}.
 */
public final class SendCostBenchmark {
    private static final int IN_FLIGHT = 8;

    /** One measured server: CPU µs per send of each round, and the part its JIT compiler threads took. */
    record Rounds(double[] micros, double[] jitShare, int failed) {
        double median() {
            return Report.median(micros);
        }
    }

    public static void main(String[] args) throws Exception {
        int warmup = Integer.parseInt(Report.option(args, "--warmup", "30000"));
        int sends = Integer.parseInt(Report.option(args, "--sends", "20000"));
        int rounds = Integer.parseInt(Report.option(args, "--rounds", "5"));
        String only = Report.option(args, "--only", "both");
        Rounds ours = null;
        Rounds node = null;
        if (!only.equals("node")) {
            try (ServerUnderTest server = ServerUnderTest.ours(args, "send-ours.jfr")) {
                ours = run(server, warmup, sends, rounds);
            }
        }
        if (!only.equals("ours")) {
            try (ServerUnderTest server = ServerUnderTest.node()) {
                node = run(server, warmup, sends, rounds);
            }
        }
        report(ours, node, warmup, sends).write(args);
    }

    private static Rounds run(ServerUnderTest server, int warmup, int sends, int rounds) throws Exception {
        Http http = new Http();
        String sendUrl;
        String credential;
        String roomId;
        if (server.ours) {
            String api = server.baseUrl() + "/v1";
            String user = "s" + UUID.randomUUID().toString().substring(0, 8);
            credential = http.tokens(api, List.of(user)).get(0);
            roomId = http.post(api + "/chat/rooms", ServerUnderTest.API_KEY,
                    "{\"memberIds\":[\"" + user + "\"]}").get("id").textValue();
            sendUrl = api + "/chat/rooms/" + roomId + "/messages";
        } else {
            roomId = UUID.randomUUID().toString();
            credential = "";
            sendUrl = server.baseUrl() + "/send?room=" + roomId;
        }
        boolean ours = server.ours;
        int failed = http.send(sendUrl, credential, warmup, IN_FLIGHT, i -> body(ours, roomId, "w" + i));
        double[] micros = new double[rounds];
        double[] jitShare = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            String tag = "r" + r + "-";
            double jitBefore = server.jitCpuSeconds();
            ProcessCounters before = ProcessCounters.of(server.pid());
            failed += http.send(sendUrl, credential, sends, IN_FLIGHT,
                    i -> body(ours, roomId, tag + i));
            ProcessCounters used = ProcessCounters.of(server.pid()).since(before);
            double jit = server.jitCpuSeconds() - jitBefore;
            micros[r] = used.cpuMicrosPer(sends);
            jitShare[r] = jit * 100.0 / Math.max(1, used.cpuTicks());
            System.err.printf(Locale.ROOT, "%s round %d: %.1f µs CPU a send, JIT %.0f %%%n", ours ? "ours" : "node",
                    r + 1, micros[r], jitShare[r] * 100);
        }
        return new Rounds(micros, jitShare, failed);
    }

    private static Report report(Rounds ours, Rounds node, int warmup, int sends) {
        Report report = new Report("Reference server: CPU per REST send");
        report.paragraph(String.format(Locale.ROOT, """
                The cost a message pays whatever its room's size: one sender in the benchmark's JVM (JDK HttpClient, \
                8 requests in flight, a session token) posts `sendMessage` to a room of one member that has no \
                connection (no delivery), on our reference server in a child JVM (send rate limit lifted); peer: \
                the official Node socket.io server's POST handler calling `io.to(room).emit` for a room nobody \
                joined, with a body shaped like our Message. After %,d sends of warm-up, rounds of %,d sends; a \
                round's figure is the server process's CPU time (user and system, all threads, from /proc) over \
                its sends, so it holds while other work shares the cores. The figure is the median round; the \
                JIT column is the share of ours' CPU its C1 and C2 compiler threads took in that round.""",
                warmup, sends));
        Report.Table table = report.table("round", "ours µs CPU a send", "ours' JIT share", "Node µs CPU a send",
                "ratio (ours / Node)");
        int n = Math.max(ours == null ? 0 : ours.micros.length, node == null ? 0 : node.micros.length);
        for (int i = 0; i < n; i++) {
            double o = ours == null ? Double.NaN : ours.micros[i];
            double p = node == null ? Double.NaN : node.micros[i];
            table.row(i + 1, Report.num(o, 1), ours == null ? "-" : Report.num(ours.jitShare[i] * 100, 0) + " %",
                    Report.num(p, 1), Report.ratio(o, p));
        }
        double o = ours == null ? Double.NaN : ours.median();
        double p = node == null ? Double.NaN : node.median();
        table.row("median", Report.num(o, 1), "", Report.num(p, 1), Report.ratio(o, p));
        table.end();
        int failed = (ours == null ? 0 : ours.failed) + (node == null ? 0 : node.failed);
        if (failed > 0) {
            report.paragraph(failed + " sends failed (not 2xx): the figures are suspect.");
        }
        report.result("send.serverCpu", o, p, "µs");
        return report;
    }

    private SendCostBenchmark() {
    }

    /**
     * A send's body, stamped now. Ours: {@code {parts, clientMessageId}}. The Node server gets a body shaped
     * like our Message (id, roomId, seq, senderId, parts, createdAt...) and emits it as it is, so both servers
     * carry frames of about the same size.
     */
    static String body(boolean ours, String roomId, String id) {
        String parts = "[{\"type\":\"text\",\"text\":\"" + Http.epochMicros() + "\"}]";
        if (ours) {
            return "{\"parts\":" + parts + ",\"clientMessageId\":\"" + id + "\"}";
        }
        return "{\"id\":\"" + java.util.UUID.randomUUID() + "\",\"roomId\":\"" + roomId + "\",\"seq\":1,\"rev\":1,"
                + "\"senderId\":\"sender\",\"parts\":" + parts + ",\"clientMessageId\":\"" + id
                + "\",\"createdAt\":" + System.currentTimeMillis() + ",\"reactions\":{}}";
    }
}
