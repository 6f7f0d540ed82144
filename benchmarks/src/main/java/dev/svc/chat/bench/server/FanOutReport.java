package dev.svc.chat.bench.server;

import static dev.svc.chat.bench.server.FanOutBenchmark.PACED_FACTORS;

import dev.svc.chat.bench.server.FanOutBenchmark.Point;
import dev.svc.chat.bench.support.Report;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Writes the fan-out benchmark's section of docs/benchmarks.md from its measured points. */
final class FanOutReport {

    /**
     * What the server's CPU a delivery is made of in small rooms, profiled while making the columns that show it
     * (figures of a loaded machine: CPU time, which holds under load better than rates, and ratios in one run).
     */
    static final String SERVER_CPU = "Server CPU a delivery in small rooms (the columns \"server's µs CPU a"
            + " delivery\"; the server's CPU "
            + "time over a run, from /proc, over its deliveries): profiled with the server's CPU by thread "
            + "(/proc/PID/task) and flight recordings sampling every millisecond (`--jfr DIR --jfr-settings "
            + "FILE.jfc`), on this machine while other work kept both cores busy (load average about 26), so only "
            + "CPU time and ratios in one run count. (1) The JIT: after the warm-up the runs had before (1,000 "
            + "messages), ours spent 83 to 107 µs of CPU a delivery at 10 members against Node's 23 to 26 in the "
            + "same runs (3.2× to 3.9×), and 61 % of our server's CPU in such a run was its C1 and C2 compiler "
            + "threads (Jetty's request threads 25 %, the writers 8 %, the fan-out thread 3 %). With 15,000 "
            + "messages of warm-up, the next 15,000 still cost 36.1 µs a delivery, 39 % of it the compilers; the "
            + "45,000 after that cost 17.6 to 24.9 µs a delivery (compilers 2 to 3 %) against Node's 17.2 in the "
            + "same run. So at 10 members most of what separated the two servers' CPU a delivery was our JVM "
            + "compiling its hot code, once, at the start; hence the long first warm-up (the 30,000 messages that "
            + "settled them, and a third more) and the column of the compilers' share. (2) The cost a message pays "
            + "whatever the room's size, measured in a room of one member (one delivery a message, after 30,000 "
            + "messages of warm-up): 154 to 182 µs of CPU a message, before and after the changes below alike (the "
            + "spread between runs is wider than what they changed); the settled runs at 10 members above spent 176 "
            + "to 249 µs a message (Node 172): the request, not the deliveries, is most of a message's cost. Of the "
            + "server's Java samples in that room, Javalin's request pipeline outside our handler took about half "
            + "(its route lookup, done twice a request through a stream of regular expressions, about a fifth; "
            + "copying the answer through its compression stream about a seventh; building its task lists), Jetty's "
            + "HTTP parsing and dispatch 12 to 16 %, and our handler 28 to 30 %. The three largest costs in our "
            + "handler, before: encoding the message twice (its frame and the REST answer), 10.8 % of the samples; "
            + "reading and parsing the body, 7.4 %; the store's append, 5.0 %. After: one encoding for the frame, "
            + "the answer, the `send-message` ack and the webhook (`PayloadEncoder`), 5.7 %; the body, 10.7 % (an "
            + "ASCII body is now parsed from its bytes, without a strict decode to a String first; no gain shows at "
            + "this sample count); the append, 5.7 % (a room snapshot now copies the members once, not twice). Then "
            + "the send route left Javalin: a servlet filter ahead of it answers `POST "
            + "/v1/chat/rooms/{roomId}/messages` with the same credential check, body limits, strict JSON, error "
            + "body, `Retry-After` and access-log line (`SendRoute`, docs/internals/server.md; `SendRouteTest` "
            + "compares its "
            + "every answer with Javalin's route's), and REST answers are no longer gzipped. Measured by the "
            + "section \"Reference server: CPU per REST send\" (the same room of one member, the server's CPU from "
            + "/proc over rounds of 20,000 sends after 30,000 of warm-up, the Node server's POST handler in the "
            + "same run), on this machine under load (load average 9 to 29), before and after runs taking turns: "
            + "before, 120.5, 136.0 and 140.0 µs of server CPU a send against Node's 71.0, 69.0 and 75.0 in the "
            + "same runs (1.70×, 1.97×, 1.87×); after, 103.0 and 106.0 against Node's 74.0 and 69.5 (1.39×, 1.53×), "
            + "and 103.0 in a run with a flight recording: about a quarter less CPU a send. Of the server's Java "
            + "samples after (1 ms sampling, the measured rounds): Javalin none; Jetty's HTTP parsing 31 % "
            + "(`HttpParser.parseFields` alone 27 %, 17 % in its own code; Jetty's header cache is off, see "
            + "`HttpSettings`), our send 24 % (its encoding 9 %, the store's append 7 %, the fan-out's hand-off 3 "
            + "%), reading and parsing the body 14 %, writing the answer 7 %. Before, the three largest were "
            + "Javalin's pipeline outside our handler 47 % (copying the answer through its result stream 18 %, in "
            + "`InputStream.read` under Kotlin's `copyTo`; its route lookup 14 %, path parameters 5 %), our handler "
            + "31 % and Jetty 21 %. The rest of a send's CPU is the kernel's (the socket reads and writes), which "
            + "no sample above counts, so the CPU a send fell by less than the Java samples did. In a run of both "
            + "servers after that first warm-up (while the machine was quieter): at 10 members ours spent 17.3 to "
            + "23.7 µs of CPU a delivery against Node's 14.3 (1.21× to 1.65×; compilers 2 to 25 %), at 100 members "
            + "8.5 to 14.9 against 8.6 (0.99× to 1.74×; compilers 4 to 44 %: the larger room runs code the smaller "
            + "did not, and its runs come in turn, the last the most settled). At 10 members the target, a server "
            + "CPU a delivery at most Node's, was not met once the JIT had settled either, while sends went through "
            + "Javalin (15.3 against 13.0 µs, 1.18×, in the quiet run before it left); a quarter of a send's CPU is "
            + "some 3 µs a delivery at 10 members, about that gap: the tables above and the summary say where it "
            + "stands. What is left of a send is Jetty's parsing, our send and the kernel, above.";

    private FanOutReport() {
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
                + "messages (at most 1,000) and at least 200,000 deliveries; a server's first room is warmed up"
                + " with at least 400,000 deliveries (40,000 messages at 10 members; both servers alike), so that"
                + " the runs measure a server whose JIT compilers have settled (see below). Figures taken while other work shares the 2 cores are"
                + " noisy. "
                + "On ours, rooms under " + Report.num(apiKeyFrom, 0) + " members have members that are each a"
                + " token connection of their own user; in rooms of " + Report.num(apiKeyFrom, 0) + " or more"
                + " (marked *) the sender's own member is a token connection and every other member an API-key"
                + " connection that emits `join-room` (see below why, and what that costs). CPU columns: each"
                + " process's CPU time over the run (from /proc; 1.0 is one core), the members' one Node process"
                + " and the server's.");
        Report.Table table = report.table("members", "messages", "ours deliveries/s", "ours p50", "ours p99",
                "Node deliveries/s", "Node p50", "Node p99", "ratio deliveries/s (ours / Node)",
                "members' CPU (ours / Node)", "server's CPU (ours / Node)",
                "server's µs CPU a delivery (ours / Node)", "ratio µs a delivery (ours / Node)",
                "ours' JIT compiler share of its CPU");
        for (Map.Entry<Integer, Point> e : (ours.isEmpty() ? node : ours).entrySet()) {
            Point o = ours.get(e.getKey());
            Point n = node.get(e.getKey());
            table.row(Report.num(e.getKey(), 0) + (e.getKey() >= apiKeyFrom && o != null ? " *" : ""),
                    Report.num(e.getValue().messages(), 0),
                    o == null ? "-" : rate(o), o == null ? "-" : Report.num(o.p50(), 1),
                    o == null ? "-" : Report.num(o.p99(), 1), n == null ? "-" : rate(n),
                    n == null ? "-" : Report.num(n.p50(), 1), n == null ? "-" : Report.num(n.p99(), 1),
                    o == null || n == null ? "-" : Report.ratio(o.perSecond(), n.perSecond()),
                    cpu(o) + " / " + cpu(n), serverCpu(o) + " / " + serverCpu(n),
                    perDelivery(o) + " / " + perDelivery(n),
                    o == null || n == null ? "-" : Report.ratio(o.serverMicros(), n.serverMicros()), jitShare(o));
            report.result("fanout.deliveries@" + e.getKey(), o == null ? Double.NaN : o.perSecond(),
                    n == null ? Double.NaN : n.perSecond(), "deliveries/s")
                    .result("fanout.p99.unpaced@" + e.getKey(), o == null ? Double.NaN : o.p99(),
                            n == null ? Double.NaN : n.p99(), "ms")
                    .result("fanout.cpuPerDelivery@" + e.getKey(), o == null ? Double.NaN : o.serverMicros(),
                            n == null ? Double.NaN : n.serverMicros(), "µs");
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
                    "members' CPU", "server's CPU", "server's µs CPU a delivery (ours / Node)",
                    "ratio µs a delivery (ours / Node)", "ours' JIT compiler share of its CPU");
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
                            serverCpu(p), perDelivery(p) + " / " + perDelivery(n),
                            Report.ratio(p.serverMicros(), n.serverMicros()), jitShare(p));
                    if (p.p99() <= n.p99()) {
                        bestFactor = Report.num(PACED_FACTORS[i], 2) + "×";
                        bestRatio = Report.ratio(p.perSecond(), n.perSecond());
                        bestRate = p.perSecond();
                    }
                }
                best.row(Report.num(e.getKey(), 0), bestFactor, bestRatio);
                // the summary's row: 0 deliveries/s when no offered load met Node's p99
                report.result("fanout.atNodeP99@" + e.getKey(), bestRate, n.perSecond(), "deliveries/s");
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
                + " all the members reading, not our queues: nothing waits in the server. Node's `io.to(room).emit`"
                + " writes inside the request, so its sender goes at the pace of the Node server's own CPU, which"
                + " stays at or under what the members read. The members' CPU column is their process's CPU time over the run (1.0 is one"
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
                + " flight). The sender's JVM used more CPU than the"
                + " server. The members acknowledge the reset of their figures before a run starts: before,"
                + " deliveries read ahead of the reset were wiped and showed as missing (for both servers).");
        report.paragraph(SERVER_CPU);
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
        if (o != null && big >= apiKeyFrom && o.perSecond() > 0) {
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
        return p.serverMicros();
    }

    private static String perDelivery(Point p) {
        return p == null || Double.isNaN(p.serverCpu()) ? "-" : Report.num(p.serverMicros(), 1);
    }

    private static String jitShare(Point p) {
        return p == null || Double.isNaN(p.serverJitCpu()) || p.serverCpu() <= 0 ? "-"
                : Report.num(100 * p.serverJitCpu() / p.serverCpu(), 0) + " %";
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
