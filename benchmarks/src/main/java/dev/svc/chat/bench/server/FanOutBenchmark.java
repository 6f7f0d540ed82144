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
 * second (the target, "1.5 times Node's deliveries/s at the same p99", measured as it is stated).
 *
 * <p>Arguments: {@code --sizes 10,100,1000,10000} (room sizes), {@code --api-key-from 10000} (on ours, rooms of
 * this many members or more have API-key members that join the room, see {@link FanOutReport}), {@code --ab 1000}
 * (room sizes where ours also runs with the other kind of member, to compare the two), {@code --only ours|node},
 * {@code --messages N} and {@code --warmup N} (a run's messages and its warm-up's in every room, instead of
 * {@link #messagesFor} and a third of it, at most 1,000), {@code --first-warmup N} (the deliveries of warm-up a
 * server's first room gets at least, 400,000 unless given: the JVM's JIT compilers take that long to settle),
 * {@code --room-warmup N} (the deliveries of warm-up every room gets at least, 200,000 unless given),
 * {@code --server-args "..."} (added to our server's command line),
 * {@code --server-jvm-args "..."} (added to its JVM's), {@code --jfr DIR} (a flight recording of our server per
 * run; {@code --jfr-settings FILE.jfc} instead of {@code profile}), {@code --out FILE}.
 */
public final class FanOutBenchmark {
    private static final int IN_FLIGHT = 8;
    private static final long RESULT_TIMEOUT_MS = 60_000;

    /**
     * One measured point. CPU figures are a process's CPU time over the run divided by its length (1.0 is one
     * core); {@code serverJitCpu} is the part of {@code serverCpu} that our server's JIT compiler threads used
     * (NaN for Node).
     */
    record Point(int members, int messages, long received, double perSecond, double p50, double p99,
                 int failed, double membersCpu, double serverCpu, double serverJitCpu, double connectSeconds) {

        /** Returns the server's CPU time a delivery, in microseconds. */
        double serverMicros() {
            // A run that received nothing has no cost a delivery (not an infinite one).
            return perSecond > 0 ? serverCpu / perSecond * 1e6 : Double.NaN;
        }

        /** Returns the server's CPU time a message (all its deliveries), in microseconds. */
        double serverMicrosPerMessage() {
            return serverMicros() * members;
        }
    }

    /**
     * Offered loads of the paced runs on ours: these many times the Node server's deliveries a second. The
     * target is 1.5 at Node's p99; the lower ones show the highest rate ours reaches at Node's p99 or better.
     */
    static final double[] PACED_FACTORS = {1.0, 1.25, 1.5};

    // --messages and --warmup: a run's messages and warm-up messages in every room, when given.
    private static int messagesOption;
    private static int warmupOption = -1;
    // --first-warmup: the deliveries of warm-up a server's first room gets at least (both servers alike).
    private static long firstWarmupDeliveries;
    // --room-warmup: the deliveries of warm-up every room gets at least (both servers alike).
    private static long roomWarmupDeliveries;

    public static void main(String[] args) throws Exception {
        messagesOption = Integer.parseInt(Report.option(args, "--messages", "0"));
        warmupOption = Integer.parseInt(Report.option(args, "--warmup", "-1"));
        firstWarmupDeliveries = Long.parseLong(Report.option(args, "--first-warmup", "400000"));
        roomWarmupDeliveries = Long.parseLong(Report.option(args, "--room-warmup", "200000"));
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
        FanOutReport.report(ours, paced, node, byKind, apiKeyFrom, peakMiB).write(args);
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
        int messages = messagesOption > 0 ? messagesOption : messagesFor(members);
        // A third of the messages, at least 10 and at most 1,000: at 10 members a tenth (300) left our server's
        // send path partly unwarmed (its first 3,000 sends ran at half the rate of the next 3,000).
        int warmup = warmupOption >= 0 ? warmupOption : Math.max(10, Math.min(1000, messages / 3));
        if (!server.warmedUp) {
            // A server's first room warms it up for all: our JIT compilers' threads were still about 40 % of our
            // server's CPU over 15,000 messages that followed a warm-up of 15,000, at 10 members (2 % after 30,000).
            warmup = Math.max(warmup, (int) Math.ceil((double) firstWarmupDeliveries / members));
            server.warmedUp = true;
        }
        // Every room at least roomWarmupDeliveries: a larger room runs code a smaller one did not (at 100 members,
        // after the first room's 400,000 deliveries and a warm-up of 666 messages, the compilers were still 48 to
        // 56 % of our server's CPU over the measured runs). Both servers alike.
        warmup = Math.max(warmup, (int) Math.min(Integer.MAX_VALUE,
                (long) Math.ceil((double) roomWarmupDeliveries / members)));
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
        double serverJitBefore = server.jitCpuSeconds();
        String tag = "r" + UUID.randomUUID().toString().substring(0, 6) + "-";
        int failed = http.send(sendUrl, credential, messages, IN_FLIGHT, i -> body(ours, room, tag + i), perSecond);
        clients.tell("EXPECT " + (long) messages * members);
        JsonNode result = awaitResult(clients);
        double serverCpu = server.cpuSeconds() - serverCpuBefore;
        double serverJit = server.jitCpuSeconds() - serverJitBefore;
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
                serverJit / seconds, connectSeconds);
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
}
