package dev.svc.chat.bench.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.bench.support.Report;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Fan-out of one room: one sender over REST (8 requests in flight) to a room of 10, 100 and 1,000 members,
 * each an official Node socket.io-client (node/fanout-members.js, all in one Node process), through our
 * reference server (a child JVM, compression off) and through the official Node socket.io server
 * ({@code io.to(room).emit}, node/fanout-server.js). Deliveries a second count from the first send to the
 * last arrival; latency is from just before a message's request is sent to its arrival at a member. Node
 * runs first; ours then runs each room twice: as fast as it answers, and offered 1.5 times Node's deliveries a
 * second (the target, "1.5 times Node's deliveries/s at the same p99", measured as it is stated).
 *
 * <p>Arguments: {@code --sizes 10,100,1000} (room sizes), {@code --big} (adds a room of 10,000 on ours),
 * {@code --only ours|node}, {@code --server-args "..."} (added to our server's command line),
 * {@code --jfr DIR} (a flight recording of our server per run), {@code --out FILE}.
 */
public final class FanOutBenchmark {
    private static final int IN_FLIGHT = 8;
    private static final long RESULT_TIMEOUT_MS = 60_000;

    /** One measured point. */
    record Point(int members, int messages, long received, double perSecond, double p50, double p99,
                 int failed, double membersCpu) {
    }

    /** Offered load of the paced run on ours: this many times the Node server's deliveries a second. */
    static final double PACED_FACTOR = 1.5;

    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream(Report.option(args, "--sizes", "10,100,1000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        if (Arrays.asList(args).contains("--big")) {
            sizes = Arrays.copyOf(sizes, sizes.length + 1);
            sizes[sizes.length - 1] = 10_000;
        }
        String only = Report.option(args, "--only", "both");
        Map<Integer, Point> ours = new LinkedHashMap<>();
        Map<Integer, Point> paced = new LinkedHashMap<>();
        Map<Integer, Point> node = new LinkedHashMap<>();
        // Node first: ours then also runs at an offered load of 1.5 times the Node server's deliveries a second.
        if (!only.equals("ours")) {
            try (ServerUnderTest server = ServerUnderTest.node()) {
                for (int size : sizes) {
                    if (size <= 1000) {
                        node.put(size, run(server, size, 0)[0]);
                        System.err.println("node " + node.get(size));
                    }
                }
            }
        }
        if (!only.equals("node")) {
            try (ServerUnderTest server = ServerUnderTest.ours(args, "fanout-ours.jfr")) {
                for (int size : sizes) {
                    Point n = node.get(size);
                    Point[] points = run(server, size, n == null ? 0 : PACED_FACTOR * n.perSecond() / size);
                    ours.put(size, points[0]);
                    System.err.println("ours " + points[0]);
                    if (points[1] != null) {
                        paced.put(size, points[1]);
                        System.err.println("ours paced " + points[1]);
                    }
                }
            }
        }
        report(ours, paced, node).write(args);
    }

    /** Messages per run: about 200,000 deliveries, at most 3,000 messages, at least 20. */
    static int messagesFor(int members) {
        return Math.max(20, Math.min(3000, 200_000 / members));
    }

    /**
     * Runs a room of {@code members}: a warm-up, then the sender as fast as 8 requests in flight allow, then
     * (when {@code pacedPerSecond} is positive) the same number of messages offered at that many a second.
     */
    static Point[] run(ServerUnderTest server, int members, double pacedPerSecond) throws Exception {
        Http http = new Http();
        int messages = messagesFor(members);
        // A third of the messages, at least 10 and at most 1,000: at 10 members a tenth (300) left our server's
        // send path partly unwarmed (its first 3,000 sends ran at half the rate of the next 3,000).
        int warmup = Math.max(10, Math.min(1000, messages / 3));
        List<String> memberArgs = new ArrayList<>(List.of("--url", server.baseUrl(), "--count",
                String.valueOf(members)));
        String sendUrl;
        String credential;
        String roomId;
        Path tokensFile = null;
        if (server.ours) {
            String api = server.baseUrl() + "/v1";
            String prefix = "m" + UUID.randomUUID().toString().substring(0, 8) + "-";
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < members; i++) {
                ids.add(prefix + i);
            }
            // The sender is member 0: it sends over REST and, like every member, receives on its socket.
            List<String> tokens = http.tokens(api, ids);
            credential = tokens.get(0);
            // A request body is at most 64 KiB: the room is made with 1,000 members, the rest added 1,000 at a time.
            roomId = http.post(api + "/chat/rooms", ServerUnderTest.API_KEY,
                    "{\"memberIds\":" + Http.JSON.writeValueAsString(ids.subList(0, Math.min(1000, members)))
                            + "}").get("id").textValue();
            for (int from = 1000; from < members; from += 1000) {
                http.post(api + "/chat/rooms/" + roomId + "/members", ServerUnderTest.API_KEY, "{\"userIds\":"
                        + Http.JSON.writeValueAsString(ids.subList(from, Math.min(members, from + 1000))) + "}");
            }
            tokensFile = Files.createTempFile("fanout-tokens", ".json");
            Files.write(tokensFile, Http.JSON.writeValueAsBytes(tokens));
            memberArgs.addAll(List.of("--tokens", tokensFile.toString()));
            sendUrl = api + "/chat/rooms/" + roomId + "/messages";
        } else {
            roomId = UUID.randomUUID().toString();
            credential = "";
            memberArgs.addAll(List.of("--room", roomId));
            sendUrl = server.baseUrl() + "/send?room=" + roomId;
        }
        String room = roomId;
        boolean ours = server.ours;
        try (ChildProcess clients = ChildProcess.node("fanout-members.js", memberArgs.toArray(new String[0]))) {
            clients.await("READY", 180_000);
            // Warm-up, then the measured run; the members' figures are reset in between.
            http.send(sendUrl, credential, warmup, IN_FLIGHT, i -> body(ours, room, "w" + i));
            clients.tell("EXPECT " + (long) warmup * members);
            awaitResult(clients);
            Point full = measure(http, clients, sendUrl, credential, ours, room, members, messages, 0);
            Point paced = pacedPerSecond <= 0 ? null
                    : measure(http, clients, sendUrl, credential, ours, room, members, messages, pacedPerSecond);
            return new Point[] {full, paced};
        } finally {
            if (tokensFile != null) {
                Files.deleteIfExists(tokensFile);
            }
        }
    }

    private static Point measure(Http http, ChildProcess clients, String sendUrl, String credential, boolean ours,
                                 String room, int members, int messages, double perSecond) throws Exception {
        clients.tell("RESET");
        clients.await("RESET_DONE", 10_000); // else deliveries read before the RESET would be wiped
        long started = Http.epochMicros();
        String tag = "r" + UUID.randomUUID().toString().substring(0, 6) + "-";
        int failed = http.send(sendUrl, credential, messages, IN_FLIGHT, i -> body(ours, room, tag + i), perSecond);
        clients.tell("EXPECT " + (long) messages * members);
        JsonNode result = awaitResult(clients);
        if (result.path("disconnects").size() > 0) {
            System.err.println("members disconnected: " + result.get("disconnects"));
        }
        long received = result.get("received").asLong();
        if (received < (long) messages * members) {
            System.err.println("missing deliveries: " + result.path("short") + " members got less than their "
                    + messages + ", the fewest " + result.path("fewest"));
        }
        double seconds = (result.get("last").asDouble() - started) / 1e6;
        return new Point(members, messages, received, received / seconds, result.get("p50").asDouble(),
                result.get("p99").asDouble(), failed, result.path("cpu").asDouble(Double.NaN));
    }

    private static JsonNode awaitResult(ChildProcess clients) throws Exception {
        try {
            return Http.JSON.readTree(clients.await("RESULT", RESULT_TIMEOUT_MS));
        } catch (IllegalStateException timedOut) {
            clients.tell("REPORT"); // some deliveries never came: report what did
            return Http.JSON.readTree(clients.await("RESULT", 10_000));
        }
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
        return "{\"id\":\"" + UUID.randomUUID() + "\",\"roomId\":\"" + roomId + "\",\"seq\":1,\"rev\":1,"
                + "\"senderId\":\"sender\",\"parts\":" + parts + ",\"clientMessageId\":\"" + id
                + "\",\"createdAt\":" + System.currentTimeMillis() + ",\"reactions\":{}}";
    }

    static Report report(Map<Integer, Point> ours, Map<Integer, Point> paced, Map<Integer, Point> node) {
        Report report = new Report("Reference server: fan-out to one room");
        report.paragraph("One sender over REST (8 requests in flight) to one room; every member is an official "
                + "Node socket.io-client 4.8.4, all members in one Node process. Ours: the reference server in "
                + "a child JVM (permessage-deflate off, the default), REST `sendMessage`, `new-message` to each "
                + "member's connection. Peer: the official Node socket.io 4.8.4 server, a POST handler calling "
                + "`io.to(room).emit` with a body shaped like our Message. Deliveries a second: all arrivals, "
                + "from the first send to the last arrival. Latency: from just before a message's request is "
                + "sent to its arrival at a member (ms). One run per point after a warm-up of a third of the "
                + "messages (at most 1,000); figures taken while other work shares the 2 cores are noisy.");
        Report.Table table = report.table("members", "messages", "ours deliveries/s", "ours p50", "ours p99",
                "Node deliveries/s", "Node p50", "Node p99", "ratio deliveries/s (ours / Node)",
                "members' CPU (ours / Node)");
        for (Map.Entry<Integer, Point> e : (ours.isEmpty() ? node : ours).entrySet()) {
            Point o = ours.get(e.getKey());
            Point n = node.get(e.getKey());
            table.row(Report.num(e.getKey(), 0), Report.num(e.getValue().messages(), 0),
                    o == null ? "-" : rate(o), o == null ? "-" : Report.num(o.p50(), 1),
                    o == null ? "-" : Report.num(o.p99(), 1), n == null ? "-" : rate(n),
                    n == null ? "-" : Report.num(n.p50(), 1), n == null ? "-" : Report.num(n.p99(), 1),
                    o == null || n == null ? "-" : Report.ratio(o.perSecond(), n.perSecond()),
                    cpu(o) + " / " + cpu(n));
        }
        table.end();
        if (!paced.isEmpty()) {
            report.paragraph("The same rooms with the sender offering " + Report.num(PACED_FACTOR, 1) + " times the"
                    + " Node server's deliveries a second (messages a second = that / members; still at most 8 in"
                    + " flight), the target's \"1.5 times Node's deliveries/s at the same p99\" measured as such:");
            Report.Table at = report.table("members", "offered deliveries/s", "ours deliveries/s", "ours p50",
                    "ours p99", "Node p99", "ratio p99 (ours / Node)", "ratio deliveries/s (ours / Node)",
                    "members' CPU");
            for (Map.Entry<Integer, Point> e : paced.entrySet()) {
                Point p = e.getValue();
                Point n = node.get(e.getKey());
                at.row(Report.num(e.getKey(), 0), Report.num(PACED_FACTOR * n.perSecond(), 0), rate(p),
                        Report.num(p.p50(), 1), Report.num(p.p99(), 1), Report.num(n.p99(), 1),
                        Report.ratio(p.p99(), n.p99()), Report.ratio(p.perSecond(), n.perSecond()), cpu(p));
            }
            at.end();
        }
        report.paragraph("Why ours, sending as fast as it is answered, has the higher rate but the higher latency at 100"
                + " and 1,000 members: the reference server answers a send before its fan-out (the issue asks it to),"
                + " and on loopback each member's kernel receive buffer takes that member's frames long before the"
                + " server sees any backpressure. Sampled with `ss` once a second during a run at 1,000 members:"
                + " 26 to 46 MB waiting unread in the members' receive queues (some 180 frames each), the server's"
                + " send queues empty, and so its outbound queues empty too. The latency is the one Node process of"
                + " all the members reading, not our queues, and the send pacing (docs/server.md: a send's answer is"
                + " held while a quarter of the room's connections have 16 frames waiting in the server) never"
                + " engages, because nothing waits in the server. Node's `io.to(room).emit` writes inside the"
                + " request, so its sender goes at the pace of the Node server's own CPU, which stays at or under what"
                + " the members read. The members' CPU column is their process's CPU time over the run (1.0 is one"
                + " core); it stays under 1 when other work shares the 2 cores, because they get no more.");
        report.paragraph("The second table is the target as stated. Offered 1.5 times the Node server's deliveries a"
                + " second, ours delivers them at a p99 near or under Node's only where that rate is well under what"
                + " the members' one Node process can read; past it the offered rate queues in the members and the"
                + " p99 is theirs. That process is the bound at 1,000 members: in the run with the least other load"
                + " of this round (docs/server.md) it used 0.96 of a core while the Node server delivered 96,814 a"
                + " second, and read 147,013 a second from ours at 0.84 of a core (about 5.7 against 9.9 microseconds"
                + " of their CPU a frame; likely because ours writes several frames in one socket write);"
                + " 1.5 times Node's, 145,222 a second, is that process's ceiling, so the paced run queued (p99 986"
                + " against 181 ms). Under heavier load from other work the ratios moved both ways: in four other"
                + " runs the offered 1.5 times came within reach twice at 100 members and twice at 1,000 (1.47 to"
                + " 1.50 times Node's deliveries at 0.26 to 1.03 times its p99). At 10"
                + " members both servers are limited by the REST send path and the sender (one JDK HttpClient, 8 in"
                + " flight), and ours does not reach 1.5 times Node's. A flight recording of ours under REST sends"
                + " alone (no members, 18,000 sends, 32 in flight) had the server at about 0.2 ms of CPU a send,"
                + " spread over Javalin and Jetty's request handling (about a fifth), the store's append, JSON"
                + " decode and encode, and the fan-out hand-off; its top frame, Jetty's per-connection header cache"
                + " refilled on every request (`ArrayTrie.put`, 6 %), is gone (the cache is off). The sender's JVM"
                + " used more CPU than the server. The warm-up is a third of the messages (at most 1,000): with a"
                + " tenth, our send path was still warming up at 10 members and ran at half the rate of the next"
                + " 3,000 sends. The members acknowledge the reset of their figures before a run starts: before,"
                + " deliveries read ahead of the reset were wiped and showed as missing (for both servers).");
        report.paragraph("A room of 10,000 (`--big`, ours only) does not run on these 2 cores: while 10,000 official"
                + " clients connect, each user's first connection goes out in the tenant's presence batches to"
                + " every token connection of the tenant, and the members' one Node process cannot read them all;"
                + " in one try 4,366 member connections were cut as slow consumers (outbound queue over 1,000"
                + " frames or 4 MiB, from the presence thread) and the rest had not all connected after 180 s. The"
                + " ceiling measured is therefore the room of 1,000, unpaced: the first table's rate, about twice"
                + " to four times the Node server's.");
        return report;
    }

    private static String cpu(Point p) {
        return p == null || Double.isNaN(p.membersCpu()) ? "-" : Report.num(p.membersCpu(), 2);
    }

    private static String rate(Point p) {
        long expected = (long) p.messages() * p.members();
        String lost = p.received() < expected ? " (" + Report.num(expected - p.received(), 0) + " missing)" : "";
        return Report.num(p.perSecond(), 0) + lost + (p.failed() > 0 ? " (" + p.failed() + " sends failed)" : "");
    }
}
