package dev.svc.chat.bench.server;

/** What {@link LatencyLayoutsBenchmark}'s section says beside its tables: how it measures, what makes the tail. */
final class LatencyLayoutsProse {
    private LatencyLayoutsProse() {
    }

    static final String WHY = "How: each stack's sender paces as the one-process pair does (every message due by"
            + " now is sent, then ours parks until the next slot and Node's loop yields with `setImmediate`, as"
            + " `latency-pair.js` does); the receiver stamps the event on arrival, before any work of its own. The"
            + " devices stay connected from the warm-up to the last round, as users' devices do; `--layouts two,one`"
            + " adds the one-process layout with the same peers (the `server-latency` section measures that layout"
            + " with the SDK clients in the benchmark's own JVM), and `--peer-args \"--direct callbacks|engine|both\"`"
            + " runs our handlers or our client's engine on the thread that hands them work, to weigh those"
            + " hand-offs.\n\n"
            + "What the collector logs say (development runs of 29 Nov 2026 on the shared machine, load averages of"
            + " 25 to 37 on 2 cores, so only the shape holds, not the figures): a fresh JVM's G1 starts its young"
            + " generation at its minimum, 3 regions of 4 MiB (5 % of the 380 MiB initial heap), and grows it over"
            + " its first collections (3, 3, 3, 9, 30 regions in a peer sender; 56 in the receiver by its fourth),"
            + " so for its first 20 to 40 s at"
            + " 5,000 msg/s a peer collects every 1 to 5 s instead of every 15 to 25 s, and its first collections"
            + " copy what start-up left alive (4 MiB at age 1 in the first, tenured by the third). The server JVM"
            + " adds one more start-up event: when its class metadata first passes `MetaspaceSize` (21 MiB, some 15"
            + " s in), a young pause starts a marking cycle (\"Metadata GC Threshold\"), whose remark shrinks the"
            + " mostly empty heap from 388 MiB to 36 MiB, so its young generation starts again from 1 to 2 regions"
            + " (a 118 ms preventive collection on the loaded machine) until the heap grows back (208 MiB). In the"
            + " four development runs these fell in the first round at 5,000 msg/s, whose p99 was 0.74 to 2.9 s"
            + " (the peer sender's longest pause 23 to 116 ms and the server's 27 to 109 ms, and the backlog they"
            + " left) against 24 to 242 ms (median 60) in the later rounds of the same runs. The warm-up"
            + " (10 s, the issue's) covers part of it; a user's device that runs for minutes is past it. Once"
            + " settled, a peer collects about once a round at 5,000 msg/s (the sender, which also decodes its own"
            + " messages' events and their acks, more often than the receiver) and the server 1 to 3 times.\n\n"
            + "Not settled here: whether the thread hand-offs (our receiver's reader → engine → callback, the"
            + " sender's engine → OkHttp writer, the server's reader → fan-out thread; Node has none) or the"
            + " collections make the rest of the p99 gap. On the loaded machine the Node devices' own p99 varied"
            + " from 6 to 500 ms between rounds, and running our handlers and engine without their hand-offs"
            + " (`--direct`) gave no difference that stood out from that noise; it needs a quiet machine.";
}
