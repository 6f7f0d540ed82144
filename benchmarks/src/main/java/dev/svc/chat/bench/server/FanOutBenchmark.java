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
 * Fan-out of one room: one sender over REST (8 requests in flight) to a room of 10, 100, 1,000 and 10,000 members,
 * each an official Node socket.io-client (node/fanout-members.js, all in one Node process), through our
 * reference server (a child JVM, compression off) and through the official Node socket.io server
 * ({@code io.to(room).emit}, node/fanout-server.js). Deliveries a second count from the first send to the
 * last arrival; latency is from just before a message's request is sent to its arrival at a member. Node
 * runs first; ours then runs each room twice: as fast as it answers, and offered 1.5 times Node's deliveries a
 * second (the issue's target, "1.5 times Node's deliveries/s at the same p99", measured as it is stated).
 *
 * <p>Arguments: {@code --sizes 10,100,1000,10000} (room sizes), {@code --api-key-from 10000} (on ours, rooms of
 * this many members or more have API-key members that join the room, see {@link #report}), {@code --ab 1000}
 * (room sizes where ours also runs with the other kind of member, to compare the two), {@code --only ours|node},
 * {@code --server-args "..."} (added to our server's command line), {@code --jfr DIR} (a flight recording of
 * our server per run), {@code --out FILE}.
 */
public final class FanOutBenchmark {
    private static final int IN_FLIGHT = 8;
    private static final long RESULT_TIMEOUT_MS = 60_000;

    /** One measured point. */
    record Point(int members, int messages, long received, double perSecond, double p50, double p99,
                 int failed, double membersCpu, double serverCpu, double connectSeconds) {
    }

    /**
     * Offered loads of the paced runs on ours: these many times the Node server's deliveries a second. The
     * target is 1.5 at Node's p99; the lower ones show the highest rate ours reaches at Node's p99 or better.
     */
    static final double[] PACED_FACTORS = {1.0, 1.25, 1.5};

    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream(Report.option(args, "--sizes", "10,100,1000,10000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int apiKeyFrom = Integer.parseInt(Report.option(args, "--api-key-from", "10000"));
        List<Integer> ab = Arrays.stream(Report.option(args, "--ab", "").split(",")).filter(a -> !a.isBlank())
                .map(Integer::valueOf).toList();
        String only = Report.option(args, "--only", "both");
        Map<Integer, Point> ours = new LinkedHashMap<>();
        Map<Integer, Point[]> paced = new LinkedHashMap<>();
        Map<Integer, Point> node = new LinkedHashMap<>();
        Map<Integer, Point[]> byKind = new LinkedHashMap<>();
        long[] peakMiB = {-1, -1}; // ours, Node: the server process's peak resident memory over its rooms
        // Node first: ours then also runs at an offered load of 1.5 times the Node server's deliveries a second.
        if (!only.equals("ours")) {
            try (ServerUnderTest server = ServerUnderTest.node()) {
                for (int size : sizes) {
                    node.put(size, run(server, size, new double[0], false)[0]);
                    System.err.println("node " + node.get(size));
                }
                peakMiB[1] = server.peakMemoryMiB();
            }
        }
        if (!only.equals("node")) {
            try (ServerUnderTest server = ServerUnderTest.ours(args, "fanout-ours.jfr")) {
                for (int size : sizes) {
                    Point n = node.get(size);
                    double[] offered = new double[n == null ? 0 : PACED_FACTORS.length];
                    for (int i = 0; i < offered.length; i++) {
                        offered[i] = PACED_FACTORS[i] * n.perSecond() / size;
                    }
                    Point[] points = run(server, size, offered, size >= apiKeyFrom);
                    ours.put(size, points[0]);
                    System.err.println("ours " + points[0]);
                    if (offered.length > 0) {
                        paced.put(size, Arrays.copyOfRange(points, 1, points.length));
                        for (int i = 1; i < points.length; i++) {
                            System.err.println("ours paced " + PACED_FACTORS[i - 1] + "x " + points[i]);
                        }
                    }
                    if (ab.contains(size)) {
                        // The same room with the members of the other kind, unpaced: what the kind costs.
                        Point other = run(server, size, new double[0], size < apiKeyFrom)[0];
                        System.err.println("ours, other kind of member " + other);
                        byKind.put(size, size < apiKeyFrom ? new Point[] {points[0], other}
                                : new Point[] {other, points[0]});
                    }
                }
                peakMiB[0] = server.peakMemoryMiB();
            }
        }
        report(ours, paced, node, byKind, apiKeyFrom, peakMiB).write(args);
    }

    /**
     * Messages per run: about 200,000 deliveries, at most 3,000 messages, at least 50 (500,000 deliveries at
     * 10,000 members: with 20, the paced run's few seconds were mostly its last message's latency).
     */
    static int messagesFor(int members) {
        return Math.max(50, Math.min(3000, 200_000 / members));
    }

    /**
     * Runs a room of {@code members}: a warm-up, then the sender as fast as 8 requests in flight allow, then
     * for each of {@code pacedPerSecond} the same number of messages offered at that many a second. On
     * ours, {@code byApiKey} makes every member but the sender an API-key connection that joins the room.
     */
    static Point[] run(ServerUnderTest server, int members, double[] pacedPerSecond, boolean byApiKey)
            throws Exception {
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
        String api = server.baseUrl() + "/v1";
        List<String> ids = new ArrayList<>();
        Path tokensFile = null;
        if (server.ours) {
            String prefix = "m" + UUID.randomUUID().toString().substring(0, 8) + "-";
            for (int i = 0; i < members; i++) {
                ids.add(prefix + i);
            }
            // The sender is member 0: it sends over REST and, like every member, receives on its socket (a token
            // connection of its own user). The others are token connections of their own users too, or with
            // byApiKey API-key connections that join the room (no presence: see report()).
            List<String> tokens = http.tokens(api, byApiKey ? ids.subList(0, 1) : ids);
            credential = tokens.get(0);
            // A request body is at most 64 KiB: the room is made with 1,000 members, the rest added 1,000 at a
            // time. With API-key members the room is made with the sender alone and the rest are added once the
            // members joined (join-room's ack carries the Room: 10,000 acks of a 10,000-member Room would be
            // 1.5 GB of setup). Either way the room has all its members when the warm-up starts.
            int made = byApiKey ? 1 : Math.min(1000, members);
            roomId = http.post(api + "/chat/rooms", ServerUnderTest.API_KEY, "{\"memberIds\":"
                    + Http.JSON.writeValueAsString(ids.subList(0, made)) + "}").get("id").textValue();
            if (byApiKey) {
                memberArgs.addAll(List.of("--api-key", ServerUnderTest.API_KEY, "--join", roomId));
            } else {
                addMembers(http, api, roomId, ids, made);
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
            long connecting = System.nanoTime();
            double cpuBeforeConnect = server.cpuSeconds();
            clients.await("READY", 180_000);
            double connectSeconds = (System.nanoTime() - connecting) / 1e9;
            System.err.printf("%d members connected in %.1f s, the server using %.1f s of CPU%n", members,
                    connectSeconds, server.cpuSeconds() - cpuBeforeConnect);
            if (ours && byApiKey) {
                addMembers(http, api, roomId, ids, 1);
            }
            // Warm-up, then the measured run; the members' figures are reset in between.
            http.send(sendUrl, credential, warmup, IN_FLIGHT, i -> body(ours, room, "w" + i));
            clients.tell("EXPECT " + (long) warmup * members);
            awaitResult(clients);
            Point full = measure(server, http, clients, sendUrl, credential, room, members, messages, 0,
                    connectSeconds);
            Point[] points = new Point[1 + pacedPerSecond.length];
            points[0] = full;
            for (int i = 0; i < pacedPerSecond.length; i++) {
                points[1 + i] = measure(server, http, clients, sendUrl, credential, room, members, messages,
                        pacedPerSecond[i], connectSeconds);
            }
            System.err.printf("%s server's peak resident memory so far: %d MiB%n", ours ? "ours" : "node",
                    server.peakMemoryMiB());
            return points;
        } finally {
            if (tokensFile != null) {
                Files.deleteIfExists(tokensFile);
            }
        }
    }

    /** Adds {@code ids} from index {@code from} on to the room, 1,000 a request (a body is at most 64 KiB). */
    private static void addMembers(Http http, String api, String roomId, List<String> ids, int from)
            throws Exception {
        for (int at = from; at < ids.size(); at += 1000) {
            http.post(api + "/chat/rooms/" + roomId + "/members", ServerUnderTest.API_KEY, "{\"userIds\":"
                    + Http.JSON.writeValueAsString(ids.subList(at, Math.min(ids.size(), at + 1000))) + "}");
        }
    }

    private static Point measure(ServerUnderTest server, Http http, ChildProcess clients, String sendUrl,
                                 String credential, String room, int members, int messages, double perSecond,
                                 double connectSeconds) throws Exception {
        boolean ours = server.ours;
        clients.tell("RESET");
        clients.await("RESET_DONE", 10_000); // else deliveries read before the RESET would be wiped
        long started = Http.epochMicros();
        double serverCpuBefore = server.cpuSeconds();
        String tag = "r" + UUID.randomUUID().toString().substring(0, 6) + "-";
        int failed = http.send(sendUrl, credential, messages, IN_FLIGHT, i -> body(ours, room, tag + i), perSecond);
        clients.tell("EXPECT " + (long) messages * members);
        JsonNode result = awaitResult(clients);
        double serverCpu = server.cpuSeconds() - serverCpuBefore;
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
                result.get("p99").asDouble(), failed, result.path("cpu").asDouble(Double.NaN), serverCpu / seconds,
                connectSeconds);
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

    static Report report(Map<Integer, Point> ours, Map<Integer, Point[]> paced, Map<Integer, Point> node,
                         Map<Integer, Point[]> byKind, int apiKeyFrom, long[] peakMiB) {
        Report report = new Report("Reference server: fan-out to one room");
        report.paragraph("One sender over REST (8 requests in flight) to one room; every member is an official "
                + "Node socket.io-client 4.8.4, all members in one Node process. Ours: the reference server in "
                + "a child JVM (permessage-deflate off, the default), REST `sendMessage`, `new-message` to each "
                + "member's connection. Peer: the official Node socket.io 4.8.4 server, a POST handler calling "
                + "`io.to(room).emit` with a body shaped like our Message. Deliveries a second: all arrivals, "
                + "from the first send to the last arrival. Latency: from just before a message's request is "
                + "sent to its arrival at a member (ms). One run per point after a warm-up of a third of the "
                + "messages (at most 1,000); figures taken while other work shares the 2 cores are noisy. "
                + "On ours, rooms under " + Report.num(apiKeyFrom, 0) + " members have members that are each a"
                + " token connection of their own user; in rooms of " + Report.num(apiKeyFrom, 0) + " or more"
                + " (marked *) the sender's own member is a token connection and every other member an API-key"
                + " connection that emits `join-room` (see below why, and what that costs). CPU columns: each"
                + " process's CPU time over the run (from /proc; 1.0 is one core), the members' one Node process"
                + " and the server's.");
        Report.Table table = report.table("members", "messages", "ours deliveries/s", "ours p50", "ours p99",
                "Node deliveries/s", "Node p50", "Node p99", "ratio deliveries/s (ours / Node)",
                "members' CPU (ours / Node)", "server's CPU (ours / Node)");
        for (Map.Entry<Integer, Point> e : (ours.isEmpty() ? node : ours).entrySet()) {
            Point o = ours.get(e.getKey());
            Point n = node.get(e.getKey());
            table.row(Report.num(e.getKey(), 0) + (e.getKey() >= apiKeyFrom && o != null ? " *" : ""),
                    Report.num(e.getValue().messages(), 0),
                    o == null ? "-" : rate(o), o == null ? "-" : Report.num(o.p50(), 1),
                    o == null ? "-" : Report.num(o.p99(), 1), n == null ? "-" : rate(n),
                    n == null ? "-" : Report.num(n.p50(), 1), n == null ? "-" : Report.num(n.p99(), 1),
                    o == null || n == null ? "-" : Report.ratio(o.perSecond(), n.perSecond()),
                    cpu(o) + " / " + cpu(n), serverCpu(o) + " / " + serverCpu(n));
            report.result("fanout.deliveries@" + e.getKey(), o == null ? Double.NaN : o.perSecond(),
                    n == null ? Double.NaN : n.perSecond(), "deliveries/s")
                    .result("fanout.p99.unpaced@" + e.getKey(), o == null ? Double.NaN : o.p99(),
                            n == null ? Double.NaN : n.p99(), "ms");
        }
        table.end();
        if (!byKind.isEmpty()) {
            report.paragraph("Ours, the same room run twice (unpaced) in the same server: members that are token"
                    + " connections of their own users, then members that are API-key connections joined to the"
                    + " room. Both kinds take the same path: `FanOut` encodes the event once and its fan-out thread"
                    + " enqueues that frame to every target's outbound queue and one writer wake-up per target;"
                    + " the targets are the room members' own connections (a lookup per member id) plus the API-key"
                    + " connections that joined the room (a walk of the room's joined set), so each kind of member"
                    + " costs one set insertion and one enqueue a message. The member-id walk is paid either way:"
                    + " the sender's own token connection keeps the tenant's user index in use.");
            Report.Table kinds = report.table("members", "token members deliveries/s", "p99", "members' CPU",
                    "server's CPU", "server's µs a delivery", "API-key members deliveries/s", "p99", "members' CPU",
                    "server's CPU", "server's µs a delivery", "ratio µs a delivery (API-key / token)");
            for (Map.Entry<Integer, Point[]> e : byKind.entrySet()) {
                Point t = e.getValue()[0];
                Point k = e.getValue()[1];
                kinds.row(Report.num(e.getKey(), 0), rate(t), Report.num(t.p99(), 1), cpu(t), serverCpu(t),
                        Report.num(micros(t), 2), rate(k), Report.num(k.p99(), 1), cpu(k), serverCpu(k),
                        Report.num(micros(k), 2), Report.ratio(micros(k), micros(t)));
            }
            kinds.end();
        }
        if (!paced.isEmpty()) {
            List<String> factors = new ArrayList<>();
            for (double f : PACED_FACTORS) {
                factors.add(Report.num(f, 2));
            }
            report.paragraph("The same rooms with the sender offering " + String.join(", ", factors) + " times the"
                    + " Node server's deliveries a second in turn (messages a second = that / members; still at most"
                    + " 8 in flight): the target, \"1.5 times Node's deliveries/s at the same p99\", measured as such,"
                    + " and the highest offered load whose p99 was at most Node's.");
            Report.Table at = report.table("members", "offered (× Node's deliveries/s)", "ours deliveries/s",
                    "ours p50", "ours p99", "Node p99", "ratio p99 (ours / Node)", "ratio deliveries/s (ours / Node)",
                    "members' CPU", "server's CPU");
            Report.Table best = report.table("members", "highest offered load with ours' p99 ≤ Node's",
                    "its ratio deliveries/s (ours / Node)");
            for (Map.Entry<Integer, Point[]> e : paced.entrySet()) {
                Point n = node.get(e.getKey());
                String bestFactor = "none of " + String.join(", ", factors);
                String bestRatio = "-";
                double bestRate = 0;
                for (int i = 0; i < e.getValue().length; i++) {
                    Point p = e.getValue()[i];
                    at.row(Report.num(e.getKey(), 0), Report.num(PACED_FACTORS[i], 2) + " ("
                            + Report.num(PACED_FACTORS[i] * n.perSecond(), 0) + ")", rate(p),
                            Report.num(p.p50(), 1), Report.num(p.p99(), 1), Report.num(n.p99(), 1),
                            Report.ratio(p.p99(), n.p99()), Report.ratio(p.perSecond(), n.perSecond()), cpu(p),
                            serverCpu(p));
                    if (p.p99() <= n.p99()) {
                        bestFactor = Report.num(PACED_FACTORS[i], 2) + "×";
                        bestRatio = Report.ratio(p.perSecond(), n.perSecond());
                        bestRate = p.perSecond();
                    }
                }
                best.row(Report.num(e.getKey(), 0), bestFactor, bestRatio);
                // the summary's rows: 0 deliveries/s when no offered load met Node's p99; CPU at the highest load
                report.result("fanout.atNodeP99@" + e.getKey(), bestRate, n.perSecond(), "deliveries/s")
                        .result("fanout.cpuPerDelivery@" + e.getKey(), micros(e.getValue()[e.getValue().length - 1]),
                                micros(n), "µs");
            }
            at.end();
            report.paragraph("The highest of those offered loads at which ours' p99 was at most Node's p99 in the same"
                    + " room, and the deliveries a second it gave:");
            best.end();
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
        report.paragraph("The paced tables are the target as stated. Offered a multiple of the Node server's"
                + " deliveries a second, ours delivers it at a p99 near or under Node's only while that rate stays"
                + " under what the members' one Node process can read with the CPU the server and the sender leave it"
                + " on the 2 cores; past it the offered rate queues in the members' kernel receive buffers and the p99"
                + " is theirs (the members' CPU column shows how much of a core they got). During development, at"
                + " 1,000 members on a lightly loaded machine, that process used 0.96 of a core to read about 97,000"
                + " frames a second from the Node server and 0.84 to read 147,000 from ours (about 9.9 against 5.7"
                + " microseconds of its CPU a frame; ours writes several frames in one socket write), so 1.5 times"
                + " Node's rate is at or past that process's ceiling there, and whether a run meets it moves with the"
                + " load other work puts on the machine. At 10"
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
        report.paragraph("Why API-key members in rooms of " + Report.num(apiKeyFrom, 0) + " (*): contract.md section 5"
                + " sends `tenant-presence` to every token connection of the tenant when a user's first connection"
                + " opens, so 10,000 members that are each a token connection of their own user cause about N²/2,"
                + " 50 million, presence events while they connect. The members' one Node process cannot read them:"
                + " in one try 4,366 members were cut as slow consumers (outbound queue over 1,000 frames or 4 MiB,"
                + " from the presence thread) and the rest had not all connected after 180 s. The Node peer has no"
                + " presence at all: its members only `socket.join(room)`. An API-key connection is nobody's: it"
                + " gets the room events of the room it joined and causes no presence, which is what the Node"
                + " peer's members are. Only the sender's own member stays a token connection, so the fan-out"
                + " still walks the room's 10,000 member ids against the tenant's user index on every message."
                + " The room is made with the sender, the members connect and join, then the other 9,999 are"
                + " added (join-room's ack carries the Room, and 10,000 acks of a 10,000-member Room would be 1.5 GB"
                + " of setup). Smaller rooms keep token members: that is what an SDK client is, and it keeps their"
                + " figures comparable with earlier runs; the table of the two kinds shows what the kind costs.");
        int big = ours.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
        Point o = ours.get(big);
        Point n = node.get(big);
        if (o != null && big >= apiKeyFrom) {
            String nodeRate = n == null ? "" : " (" + Report.ratio(o.perSecond(), n.perSecond()) + " the Node"
                    + " server's " + Report.num(n.perSecond(), 0) + ", which used " + serverCpu(n) + " of a core, "
                    + Report.num(micros(n), 1) + " µs a delivery, with its members' process at " + cpu(n) + ")";
            double membersMicros = o.membersCpu() / o.perSecond() * 1e6;
            report.paragraph("The ceiling on these 2 cores, a room of " + Report.num(big, 0) + ": ours delivered "
                    + Report.num(o.perSecond(), 0) + " a second as fast as it is answered" + nodeRate + ". For it"
                    + " the server used " + serverCpu(o) + " of a core (" + Report.num(micros(o), 1) + " µs of CPU"
                    + " a delivery) and the members' one Node process " + cpu(o) + " (" + Report.num(membersMicros, 1)
                    + " µs a delivery). The members' process is the bound: it needs the most CPU a delivery, and,"
                    + " single-threaded, it never gets more than one core, shared with the server, the sender's"
                    + " JVM and whatever else runs on the 2 cores (under a core in this run means it got no more)."
                    + " On a whole core it would read about " + Report.num(1e6 / membersMicros, 0) + " a second;"
                    + " the server, on a whole core of its own, would carry about "
                    + Report.num(1e6 / micros(o), 0) + ", which cannot be shown here: members that read that fast"
                    + " need cores this machine does not have. The loopback is not the bound: its work is done in"
                    + " the writing and reading processes' system time, counted in their CPU"
                    + " above. Connecting the " + Report.num(big, 0) + " members (batches of 100, each waiting"
                    + " for its CONNECT answer and, on ours, its join-room ack) took "
                    + Report.num(o.connectSeconds(), 1) + " s on ours"
                    + (n == null ? "" : " and " + Report.num(n.connectSeconds(), 1) + " s on Node's") + "; the"
                    + " server's peak resident memory over all its rooms was " + peakMiB[0] + " MiB for ours (a"
                    + " JVM with the default heap, a quarter of the machine's memory)"
                    + (peakMiB[1] < 0 ? "" : " and " + peakMiB[1] + " MiB for Node's") + ". A member cut, a"
                    + " delivery missing or a send refused would show in the tables (missing, sends failed).");
        }
        return report;
    }

    /** The server's CPU time a delivery, in microseconds. */
    private static double micros(Point p) {
        return p.serverCpu() / p.perSecond() * 1e6;
    }

    private static String serverCpu(Point p) {
        return p == null || Double.isNaN(p.serverCpu()) ? "-" : Report.num(p.serverCpu(), 2);
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
