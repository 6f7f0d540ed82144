package dev.svc.chat.bench.server;

/** The fan-out section's prose that holds whatever a run measured: its evidence is from profiles made once. */
final class FanOutProse {

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

    /** Why rooms of 10,000 have API-key members on ours. */
    static final String API_KEY_MEMBERS = "contract.md section 5"
            + " sends `tenant-presence` to every token connection of the tenant when a user's first connection"
            + " opens, so 10,000 members that are each a token connection of their own user cause about N²/2,"
            + " 50 million, presence events while they connect: in one try 4,366 members were cut as slow consumers"
            + " (outbound queue over 1,000 frames or 4 MiB, from the presence thread) and the rest had not all"
            + " connected after 180 s. The Node peer has no presence at all: its members only `socket.join(room)`."
            + " An API-key connection is nobody's: it gets the room events of the room it joined and causes no"
            + " presence, which is what the Node peer's members are. Only the sender's own member stays a token"
            + " connection, so the fan-out still walks the room's member ids against the tenant's user index on"
            + " every message. The room is made with the sender, the members connect and join, then the others"
            + " are added (join-room's ack carries the Room, and 10,000 acks of a 10,000-member Room would be 1.5 GB"
            + " of setup). Smaller rooms keep token members: that is what an SDK client is; the table of the two"
            + " kinds shows what the kind costs.";

    /**
     * What development runs of this method found on the shared machine (load averages 22 to 45 on 2 cores): the
     * load side's cost, the warm-up, and a profile of our server where the CPU a delivery is behind Node's.
     */
    static final String DEVELOPMENT = "Development runs of this method (29 Nov 2026, the machine shared with other"
            + " builds, load averages 22 to 45 on the 2 cores: rates and latencies there are noise, CPU time a"
            + " delivery and the shares below hold better). The load side: the senders spent 30 to 130 µs of CPU"
            + " a request unpaced and up to 400 when paced (timer wake-ups), against 14 to 66 µs of the servers' CPU"
            + " a delivery at 10 members; the members' processes 0.8 to 14 µs a delivery reading ours (it writes"
            + " several frames in one socket write at 100 members and more) and 10 to 37 reading Node's (a frame a"
            + " read); the busiest single load-side process used at most 0.16 of a core, so no run was refused."
            + " The single JDK HttpClient sender and the single socket.io-client members' process these replace"
            + " were the limit at 10 and at 1,000 members. A run refused as invalid was checked with"
            + " `--max-load-core 0.05`: the row's \"valid\" column says no and the summary shows \"invalid run\""
            + " (and FanOutRowsTest, SummaryTest). The warm-up: with every other process on the machine competing"
            + " for the cores, our JIT compilers did not settle within the 30 s cap (25 to 35 % of the server's CPU"
            + " in the warm-up's last run, at 10 and 100 members); they settled in the measured rounds (at 10"
            + " members 34 to 60 % in the first two rounds, 0 to 13 % in the last three), so the first rounds of"
            + " such a run are the JIT's and the rounds' spread shows it. Settled (compilers 0 to 4 %), ours spent"
            + " 10 to 23 µs of CPU a delivery at 10 members against Node's 18 to 20 in the same rounds, and 2 to"
            + " 11 at 100 members against 13 to 20. Profile at 10 members (`--jfr` with 1 ms sampling, the measured"
            + " rounds, 1,107 Java samples): 95 % of them on Jetty's request threads, of which Jetty itself 39 %"
            + " (its HTTP parser 9 %), the search index 17 % (every stored message is indexed by Lucene inside"
            + " the send, `InMemoryStore.appendMessage` to `LuceneIndex.written`: a per-message cost the Node peer"
            + " does not have, which weighs most where a message has few deliveries), our send path 14 %, the"
            + " fan-out and its frames 3 %, the rest (JDK, reflection) 27 %. In every such run at 10 members ours"
            + " cut 1 to 3 members as slow consumers (\"outbound queue over 1000 frames or 4 MiB\") during the"
            + " unpaced warm-up, while the members' processes used at most 0.12 of a core: whether the server's"
            + " writers (a room over 4 members is written from its writer pool) or the members' processes were"
            + " kept off the cores by the machine's load was not settled; the tables show such deliveries as"
            + " missing.";

    private FanOutProse() {
    }
}
