package dev.svc.chat.bench.server;

import dev.svc.chat.bench.support.LoopbackCapture;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splits the latency of each message a receiver traced into three stages, from a loopback capture of the
 * benchmark's connections ({@link LoopbackCapture}) and the receivers' traces (lines {@code <stamp> <receive
 * ns>}, CLOCK_MONOTONIC):
 * <ul>
 *   <li>sender: the stamp → the first capture of the client frame (to the stack's server port) that carries the
 *       message's text {@code tag:stamp};</li>
 *   <li>server: that → the first capture of a server frame carrying the text to the receiver's connection, one
 *       whose client port sent no stamps (the sender's own connection may get the message too);</li>
 *   <li>receiver: that → the receiver's clock at the event.</li>
 * </ul>
 * The capture's clock is the realtime one: its times are put on CLOCK_MONOTONIC by subtracting realtime − monotonic.
 * The three stages add up to the latency the receiver measured.
 */
final class LatencyStages {
    private LatencyStages() {
    }

    /**
     * One measured run: its round, rate, layout and stack, the tag of its messages, the receiver's trace file and
     * the port of the stack's server.
     */
    record Run(int round, int rate, boolean twoProcesses, boolean ours, String tag, Path trace, int serverPort) {
    }

    /** One message's stages, ns. */
    record Split(long sender, long server, long receiver) {
        long total() {
            return sender + server + receiver;
        }
    }

    /** A run's messages the receiver traced and the stages of those the capture had both frames of. */
    record Matched(Run run, int traced, List<Split> splits) {
    }

    /** The runs' stages, in the runs' order, and what the capture held. */
    record Result(List<Matched> runs, LoopbackCapture.Counts counts) {
    }

    /** A message of a stack: the server's port, the tag and the stamp. */
    private record Key(int serverPort, String tag, long stamp) {
    }

    /** What the capture holds: each message's client frame's time and its server frames' times and ports. */
    private static final class Seen {
        final Map<Key, Long> sent = new HashMap<>();
        final Map<Key, long[]> relayed = new HashMap<>();
        /** {@code serverPort << 16 | clientPort} of each connection that sent a stamp. */
        final Set<Long> senders = new HashSet<>();
    }

    /**
     * Matches each run's trace against {@code capture}, whose times less {@code realtimeMinusMonotonic} are
     * CLOCK_MONOTONIC.
     */
    static Result match(Path capture, long realtimeMinusMonotonic, List<Run> runs) throws IOException {
        Set<Integer> serverPorts = new HashSet<>();
        for (Run run : runs) {
            serverPorts.add(run.serverPort());
        }
        Seen seen = new Seen();
        LoopbackCapture.Counts counts = LoopbackCapture.read(capture, stamp -> {
            long monotonic = stamp.timeNanos() - realtimeMinusMonotonic;
            if (stamp.masked() && serverPorts.contains(stamp.destinationPort())) {
                seen.sent.putIfAbsent(new Key(stamp.destinationPort(), stamp.tag(), stamp.stamp()), monotonic);
                seen.senders.add((long) stamp.destinationPort() << 16 | stamp.sourcePort());
            } else if (!stamp.masked() && serverPorts.contains(stamp.sourcePort())) {
                seen.relayed.merge(new Key(stamp.sourcePort(), stamp.tag(), stamp.stamp()),
                        new long[] {monotonic, stamp.destinationPort()}, LatencyStages::append);
            }
        });
        List<Matched> matched = new ArrayList<>();
        for (Run run : runs) {
            matched.add(match(run, seen));
        }
        return new Result(matched, counts);
    }

    private static long[] append(long[] pairs, long[] more) {
        long[] all = Arrays.copyOf(pairs, pairs.length + more.length);
        System.arraycopy(more, 0, all, pairs.length, more.length);
        return all;
    }

    private static Matched match(Run run, Seen seen) throws IOException {
        List<Split> splits = new ArrayList<>();
        int traced = 0;
        try (BufferedReader in = Files.newBufferedReader(run.trace(), StandardCharsets.US_ASCII)) {
            for (String line; (line = in.readLine()) != null; ) {
                long[] trace = parse(line);
                if (trace == null) {
                    continue;
                }
                traced++;
                Key key = new Key(run.serverPort(), run.tag(), trace[0]);
                Long sent = seen.sent.get(key);
                long relayed = toReceiver(seen.relayed.get(key), run.serverPort(), seen.senders);
                if (sent != null && relayed != Long.MAX_VALUE) {
                    splits.add(new Split(sent - trace[0], relayed - sent, trace[1] - relayed));
                }
            }
        } catch (NoSuchFileException e) {
            // the receiver wrote no trace: nothing traced
        }
        return new Matched(run, traced, splits);
    }

    /** Returns the earliest of {@code pairs}' times whose client port sent no stamps, or Long.MAX_VALUE. */
    private static long toReceiver(long[] pairs, int serverPort, Set<Long> senders) {
        long earliest = Long.MAX_VALUE;
        for (int i = 0; pairs != null && i < pairs.length; i += 2) {
            if (!senders.contains((long) serverPort << 16 | pairs[i + 1])) {
                earliest = Math.min(earliest, pairs[i]);
            }
        }
        return earliest;
    }

    /** Returns {stamp, receive ns} of a trace line, or null when it is not one. */
    private static long[] parse(String line) {
        int space = line.indexOf(' ');
        if (space < 0) {
            return null;
        }
        try {
            return new long[] {Long.parseLong(line.substring(0, space)), Long.parseLong(line.substring(space + 1))};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
