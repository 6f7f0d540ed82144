package dev.svc.chat.bench.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The load side of one fan-out room: its members spread over several Node processes
 * (node/fanout-load-members.js, which count deliveries without parsing them) and several sender processes
 * (node/fanout-sender.js, each with its share of the requests in flight), the same scripts for both servers.
 * {@link #run} measures one run and the CPU of every load-side process beside the server's, so that a run whose
 * load side was the limit can be refused ({@link FanOutRun#valid()}).
 */
final class LoadSide implements AutoCloseable {
    private static final long RESULT_TIMEOUT_MS = 60_000;

    /**
     * How the load side is spread: processes of members and of senders, requests in flight over all senders; and
     * the share of a core above which one load-side process makes a run invalid.
     */
    record Shape(int memberProcesses, int senders, int inFlight, double maxLoadCore) {
    }

    private final ServerUnderTest server;
    private final int members;
    private final double maxLoadCore;
    private final List<ChildProcess> memberProcesses = new ArrayList<>();
    private final List<Integer> counts = new ArrayList<>();
    private final List<ChildProcess> senders = new ArrayList<>();
    private final Path tokensFile;
    /** The seconds it took every member to connect (and join). */
    final double connectSeconds;

    private LoadSide(ServerUnderTest server, int members, double maxLoadCore, Path tokensFile, double connectSeconds) {
        this.server = server;
        this.maxLoadCore = maxLoadCore;
        this.members = members;
        this.tokensFile = tokensFile;
        this.connectSeconds = connectSeconds;
    }

    /**
     * Opens a room of {@code members} on {@code server} and connects its members and senders. On ours each member
     * is a token connection of its own user, or with {@code byApiKey} (all but the sender's own member) an API-key
     * connection that joins the room; on Node members join the room named in their handshake.
     */
    static LoadSide open(ServerUnderTest server, int members, boolean byApiKey, Shape shape) throws Exception {
        Http http = new Http();
        List<String> common = new ArrayList<>(List.of("--port", String.valueOf(server.port)));
        String path;
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
            // The sender's user is member 0: it sends over REST and, like every member, receives on its socket.
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
                common.addAll(List.of("--api-key", ServerUnderTest.API_KEY, "--join", roomId));
            } else {
                addMembers(http, api, roomId, ids, made);
            }
            tokensFile = Files.createTempFile("fanout-tokens", ".json");
            Files.write(tokensFile, Http.JSON.writeValueAsBytes(tokens));
            common.addAll(List.of("--tokens", tokensFile.toString()));
            path = "/v1/chat/rooms/" + roomId + "/messages";
        } else {
            roomId = UUID.randomUUID().toString();
            credential = "";
            common.addAll(List.of("--room", roomId));
            path = "/send?room=" + roomId;
        }
        long connecting = System.nanoTime();
        int processes = Math.max(1, Math.min(shape.memberProcesses(), members));
        List<ChildProcess> started = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        try {
            for (int p = 0, from = 0; p < processes; p++) {
                int count = members / processes + (p < members % processes ? 1 : 0);
                List<String> args = new ArrayList<>(common);
                args.addAll(List.of("--count", String.valueOf(count), "--from", String.valueOf(from)));
                started.add(ChildProcess.node("fanout-load-members.js", args.toArray(new String[0])));
                counts.add(count);
                from += count;
            }
            for (ChildProcess p : started) {
                p.await("READY", 180_000);
            }
        } catch (Exception e) {
            started.forEach(ChildProcess::close);
            throw e;
        }
        LoadSide load = new LoadSide(server, members, shape.maxLoadCore(), tokensFile,
                (System.nanoTime() - connecting) / 1e9);
        load.memberProcesses.addAll(started);
        load.counts.addAll(counts);
        try {
            if (server.ours && byApiKey) {
                addMembers(http, api, roomId, ids, 1);
            }
            int senders = Math.max(1, shape.senders());
            for (int s = 0; s < senders; s++) {
                int inFlight = Math.max(1, shape.inFlight() / senders + (s < shape.inFlight() % senders ? 1 : 0));
                ChildProcess sender = ChildProcess.node("fanout-sender.js", "--port", String.valueOf(server.port),
                        "--path", path, "--credential", credential, "--kind", server.ours ? "ours" : "node",
                        "--room", roomId, "--in-flight", String.valueOf(inFlight));
                load.senders.add(sender);
                sender.await("READY", 30_000);
            }
        } catch (Exception e) {
            load.close();
            throw e;
        }
        return load;
    }

    /** Adds {@code ids} from index {@code from} on to the room, 1,000 a request (a body is at most 64 KiB). */
    private static void addMembers(Http http, String api, String roomId, List<String> ids, int from)
            throws Exception {
        for (int at = from; at < ids.size(); at += 1000) {
            http.post(api + "/chat/rooms/" + roomId + "/members", ServerUnderTest.API_KEY, "{\"userIds\":"
                    + Http.JSON.writeValueAsString(ids.subList(at, Math.min(ids.size(), at + 1000))) + "}");
        }
    }

    /**
     * Sends {@code messages} over the senders (each its share, at its share of {@code perSecond}; 0 is as fast as
     * the requests in flight allow) and returns the run: deliveries a second from the first send to the last
     * arrival, latency percentiles over every member's deliveries, the CPU of the server and of the load side.
     */
    FanOutRun run(int messages, double perSecond) throws Exception {
        for (ChildProcess m : memberProcesses) {
            m.tell("RESET");
        }
        for (ChildProcess m : memberProcesses) {
            m.await("RESET_DONE", 10_000); // else deliveries read before the RESET would be wiped
        }
        double[] before = loadCpu();
        double serverBefore = server.cpuSeconds();
        double jitBefore = server.jitCpuSeconds();
        Map<String, Double> threadsBefore = server.ours ? ThreadCpu.of(server.pid()) : Map.of();
        String tag = "r" + UUID.randomUUID().toString().substring(0, 6) + "-";
        long startedMicros = System.nanoTime() / 1000; // CLOCK_MONOTONIC, as the members' process.hrtime
        for (int s = 0; s < senders.size(); s++) {
            int n = messages / senders.size() + (s < messages % senders.size() ? 1 : 0);
            senders.get(s).tell("SEND " + tag + s + "- " + n + " " + perSecond / senders.size());
        }
        // The Node server writes a message's frames inside its request: its senders take as long as the fan-out,
        // which on a loaded machine was under 10,000 deliveries a second (500,000 a run at 10,000 members).
        long sendTimeout = RESULT_TIMEOUT_MS + (long) messages * members
                + (perSecond > 0 ? (long) (3_000 * messages / perSecond) : 0);
        int failed = 0;
        for (ChildProcess s : senders) {
            failed += Integer.parseInt(s.await("SENT", sendTimeout));
        }
        for (int p = 0; p < memberProcesses.size(); p++) {
            memberProcesses.get(p).tell("EXPECT " + (long) counts.get(p) * messages);
        }
        LatencyHistogram latencies = new LatencyHistogram();
        long received = 0;
        double last = startedMicros;
        for (ChildProcess m : memberProcesses) {
            JsonNode result = awaitResult(m);
            received += result.get("received").asLong();
            if (result.get("received").asLong() > 0) {
                last = Math.max(last, result.get("last").asDouble());
            }
            latencies.add(result.get("hist"));
            if (result.path("closed").asInt() > 0) {
                System.err.println("members' connections closed: " + result.get("closed"));
            }
            if (result.path("short").asInt() > 0) {
                System.err.println("missing deliveries: " + result.path("short") + " members got less than their "
                        + messages + ", the fewest " + result.path("fewest"));
            }
        }
        double seconds = (last - startedMicros) / 1e6;
        double[] after = loadCpu();
        double sendersCpu = 0;
        double membersCpu = 0;
        double busiest = 0;
        for (int i = 0; i < after.length; i++) {
            double cores = (after[i] - before[i]) / seconds;
            busiest = Math.max(busiest, cores);
            if (i < senders.size()) {
                sendersCpu += cores;
            } else {
                membersCpu += cores;
            }
        }
        Map<String, Double> threads = server.ours ? ThreadCpu.since(threadsBefore, ThreadCpu.of(server.pid()), seconds)
                : Map.of();
        return new FanOutRun(members, messages, received, received > 0 ? received / seconds : 0,
                latencies.percentileMillis(50), latencies.percentileMillis(99), failed, sendersCpu, membersCpu,
                busiest, maxLoadCore, (server.cpuSeconds() - serverBefore) / seconds,
                (server.jitCpuSeconds() - jitBefore) / seconds,
                threads);
    }

    /** The CPU seconds so far of the senders, then of the members' processes. */
    private double[] loadCpu() {
        double[] cpu = new double[senders.size() + memberProcesses.size()];
        for (int i = 0; i < senders.size(); i++) {
            cpu[i] = senders.get(i).cpuSeconds();
        }
        for (int i = 0; i < memberProcesses.size(); i++) {
            cpu[senders.size() + i] = memberProcesses.get(i).cpuSeconds();
        }
        return cpu;
    }

    private static JsonNode awaitResult(ChildProcess members) throws Exception {
        try {
            return Http.JSON.readTree(members.await("RESULT", RESULT_TIMEOUT_MS));
        } catch (IllegalStateException timedOut) {
            members.tell("REPORT"); // some deliveries never came: report what did
            return Http.JSON.readTree(members.await("RESULT", 10_000));
        }
    }

    /** The number of load-side processes: senders and members' processes. */
    int processes() {
        return senders.size() + memberProcesses.size();
    }

    @Override
    public void close() throws Exception {
        senders.forEach(ChildProcess::close);
        memberProcesses.forEach(ChildProcess::close);
        if (tokensFile != null) {
            Files.deleteIfExists(tokensFile);
        }
    }
}
