package dev.svc.chat.bench.server;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.bench.support.Report;
import dev.svc.chat.transport.jdk.JdkTransport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Our side of {@link LatencyLayoutsBenchmark}: one device's process, an SDK sender, an SDK receiver, or both
 * (a pair, as a bot fleet runs them). The same commands as the Node peer ({@code node/latency-peer.js}), one a
 * line on stdin, answers on stdout:
 * <ul>
 *   <li>{@code CLOCK}: prints {@code CLOCK <ns>}, this process's {@code System.nanoTime()} (CLOCK_MONOTONIC on
 *       Linux, the clock every process of the machine shares; the benchmark checks that it is).</li>
 *   <li>{@code SEND tag rate seconds} (a sender): sends {@code rate * seconds} messages paced at {@code rate},
 *       each text {@code tag:<ns when sent>}; prints {@code SENT tag n}.</li>
 *   <li>{@code REPORT tag total waitMs} (a receiver): waits until {@code total} messages of {@code tag} came (at
 *       most {@code waitMs}), prints {@code RESULT tag received p50 p99 p999}, each the receiver's clock at the
 *       event minus the stamp, in ms, and forgets the tag. With {@code --trace-dir DIR} it first writes
 *       {@code DIR/ours-<tag>-<pid>.txt}, a line {@code <stamp> <ns at the event>} per message of the tag (the
 *       benchmark's per-stage breakdown reads it).</li>
 * </ul>
 * Arguments: {@code --api URL --room ID}, and {@code --sender USER:TOKEN} and/or {@code --receiver USER:TOKEN};
 * {@code --direct callbacks|engine|both} (diagnosis) runs the handlers and/or the client's engine on the thread
 * that hands them work ({@code Runnable::run}) instead of the SDK's pools, which takes that hand-off away;
 * {@code --transport jdk} (diagnosis) puts the clients on the JDK transport instead of OkHttp: there the engine's
 * thread writes a frame that finds the socket's queue idle, with no writer task and no write-timeout watchdog;
 * {@code --transport raw-okhttp} (diagnosis) runs no SDK at all: {@link RawSocketIoClient}s, OkHttp WebSockets
 * that speak just enough of the protocol, with the receiver's handler on OkHttp's reader (the floor under an SDK
 * on OkHttp); {@code --trace-dir DIR} (a receiver) keeps each message's stamp and receive time for REPORT to write.
 * Prints {@code READY} once its clients are connected (and its receiver listens).
 */
public final class LatencyPeer {
    private final Map<String, Latencies> byTag = new HashMap<>();
    /** Where REPORT writes each tag's stamps and receive times; null when not asked (nothing is kept then). */
    private final Path traceDir;

    private LatencyPeer(Path traceDir) {
        this.traceDir = traceDir;
    }

    /**
     * One tag's latencies so far (ms), appended by the receiver's callback; with a trace, also each message's
     * stamp and receive time (ns), in pairs.
     */
    private static final class Latencies {
        double[] values = new double[1024];
        long[] trace;
        int count;

        Latencies(boolean traced) {
            trace = traced ? new long[2 * values.length] : null;
        }

        void add(double ms, long stamp, long now) {
            if (count == values.length) {
                values = Arrays.copyOf(values, count * 2);
                if (trace != null) {
                    trace = Arrays.copyOf(trace, 2 * values.length);
                }
            }
            if (trace != null) {
                trace[2 * count] = stamp;
                trace[2 * count + 1] = now;
            }
            values[count++] = ms;
        }
    }

    public static void main(String[] args) throws Exception {
        String api = Report.option(args, "--api", null);
        String room = Report.option(args, "--room", null);
        String[] senderAuth = split(Report.option(args, "--sender", null));
        String[] receiverAuth = split(Report.option(args, "--receiver", null));
        String direct = Report.option(args, "--direct", "none");
        SvcOptions.Builder options = SvcOptions.builder(api);
        if (direct.equals("callbacks") || direct.equals("both")) {
            options.callbackExecutor(Runnable::run);
        }
        if (direct.equals("engine") || direct.equals("both")) {
            options.engineExecutor(Runnable::run);
        }
        String transport = Report.option(args, "--transport", "okhttp");
        if (transport.equals("jdk")) {
            options.transport(JdkTransport.shared());
        } else if (!transport.equals("okhttp") && !transport.equals("raw-okhttp")) {
            throw new IllegalArgumentException("--transport okhttp|jdk|raw-okhttp, not " + transport);
        }
        String trace = Report.option(args, "--trace-dir", null);
        LatencyPeer peer = new LatencyPeer(trace == null ? null : Paths.get(trace));
        if (transport.equals("raw-okhttp")) {
            peer.runRaw(api, room, senderAuth, receiverAuth);
        } else {
            peer.run(options.build(), room, senderAuth, receiverAuth);
        }
    }

    private static String[] split(String userAndToken) {
        return userAndToken == null ? null : userAndToken.split(":", 2);
    }

    private void run(SvcOptions options, String room, String[] senderAuth, String[] receiverAuth)
            throws Exception {
        try (ChatClient sender = senderAuth == null ? null : Svc.init(options);
             ChatClient receiver = receiverAuth == null ? null : Svc.init(options)) {
            if (receiver != null) {
                receiver.connect(receiverAuth[0], receiverAuth[1]).get(30, TimeUnit.SECONDS);
                receiver.on(EventType.NEW_MESSAGE, m -> received(m.text(), System.nanoTime()));
            }
            if (sender != null) {
                sender.connect(senderAuth[0], senderAuth[1]).get(30, TimeUnit.SECONDS);
            }
            serve(sender == null ? null
                    : text -> sender.sendMessage(room, List.of(MessagePart.text(text))));
        }
    }

    /** As {@link #run}, with {@link RawSocketIoClient}s instead of the SDK's clients (diagnosis). */
    private void runRaw(String api, String room, String[] senderAuth, String[] receiverAuth) throws Exception {
        try (RawSocketIoClient sender = senderAuth == null ? null
                : RawSocketIoClient.connect(api, senderAuth[0], senderAuth[1]);
             RawSocketIoClient receiver = receiverAuth == null ? null
                : RawSocketIoClient.connect(api, receiverAuth[0], receiverAuth[1])) {
            if (receiver != null) {
                receiver.onNewMessage(this::received);
            }
            serve(sender == null ? null : text -> sender.send(room, text));
        } finally {
            RawSocketIoClient.shutdown();
        }
    }

    /** Prints READY, then answers the commands on stdin until it ends; {@code sender} sends a message's text. */
    private void serve(Consumer<String> sender) throws IOException, InterruptedException {
        System.out.println("READY");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] cmd = line.trim().split(" ");
            switch (cmd[0]) {
                case "CLOCK" -> answer("CLOCK " + System.nanoTime());
                case "SEND" -> answer("SENT " + cmd[1] + " " + send(sender, cmd[1],
                        Integer.parseInt(cmd[2]), Double.parseDouble(cmd[3])));
                case "REPORT" -> answer(report(cmd[1], Integer.parseInt(cmd[2]), Long.parseLong(cmd[3])));
                default -> answer("ERROR unknown command " + line);
            }
        }
    }

    private static void answer(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** Sends {@code rate * seconds} messages of {@code tag}, each due at its slot, as the in-process pair does. */
    private static int send(Consumer<String> sender, String tag, int rate, double seconds) {
        int total = (int) Math.round(rate * seconds);
        long interval = 1_000_000_000L / rate;
        long start = System.nanoTime();
        int sent = 0;
        while (sent < total) {
            long due = Math.min(total, (System.nanoTime() - start) / interval + 1);
            while (sent < due) {
                sender.accept(tag + ":" + System.nanoTime());
                sent++;
            }
            LockSupport.parkNanos(Math.max(0, start + sent * interval - System.nanoTime()));
        }
        return sent;
    }

    private void received(String text, long now) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            return;
        }
        long stamp = Long.parseLong(text.substring(colon + 1));
        synchronized (byTag) {
            byTag.computeIfAbsent(text.substring(0, colon), t -> new Latencies(traceDir != null))
                    .add((now - stamp) / 1e6, stamp, now);
            byTag.notifyAll();
        }
    }

    private String report(String tag, int total, long waitMillis) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        Latencies got;
        synchronized (byTag) {
            while (true) {
                got = byTag.get(tag);
                long left = deadline - System.nanoTime();
                if ((got != null && got.count >= total) || left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(byTag, left);
            }
            byTag.remove(tag);
        }
        if (traceDir != null) {
            writeTrace(tag, got);
        }
        double[] values = got == null ? new double[0] : Arrays.copyOf(got.values, got.count);
        return String.format(Locale.ROOT, "RESULT %s %d %.6f %.6f %.6f", tag, values.length,
                Report.percentile(values, 50), Report.percentile(values, 99), Report.percentile(values, 99.9));
    }

    /** Writes {@code DIR/ours-<tag>-<pid>.txt}: {@code <stamp> <receive ns>} a line (empty when none came). */
    private void writeTrace(String tag, Latencies got) throws IOException {
        Path file = traceDir.resolve("ours-" + tag + "-" + ProcessHandle.current().pid() + ".txt");
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
            for (int i = 0; got != null && i < got.count; i++) {
                out.write(got.trace[2 * i] + " " + got.trace[2 * i + 1] + "\n");
            }
        }
    }
}
