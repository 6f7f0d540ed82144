package dev.svc.chat.bench.files;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.ChatClient;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.FileSource;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.bench.support.Heap;
import dev.svc.chat.bench.support.LoadAverage;
import dev.svc.chat.bench.support.Report;

/**
 * Files through the SDK against the reference server in this JVM (its data-directory backend in a temporary
 * directory, which forces each PATCH to the disk): upload and download throughput against raw OkHttp in the same
 * run ({@link RawPeer}), in interleaved rounds; the heap held while a 1 GiB generated file goes up and comes down
 * ({@link HeapSampler}); the bytes sent again per cut ({@link CutResend}); and a 12-megapixel JPEG's thumbnail
 * ({@link ThumbnailTime}).
 *
 * <p>Arguments: {@code --mib N} the throughput file's size (128), {@code --rounds N} (5), {@code --big-mib N} the
 * heap run's file (1024), {@code --cut-mib N} the cut upload's file (64), {@code --cuts N} (8), {@code --images N}
 * thumbnail rounds (5), {@code --cost-rounds N} rounds after the timed ones whose transfers are counted per thread
 * ({@link ThreadCost}; 3), {@code --seed S}.
 */
public final class FilesBench {
    static final int MIB = 1024 * 1024;
    static final double UPLOAD_TARGET = 0.8;
    static final double DOWNLOAD_TARGET = 0.8;
    static final double HEAP_TARGET_MIB = 16;
    /** The cut run's second proxy: its send buffer towards the server, a network's bytes in flight. */
    static final int CUT_UP_BUFFER = 64 * 1024;
    private static final String SHM = "/dev/shm";

    private FilesBench() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        // the server's access log would print a line per PATCH into the run's output
        System.setProperty("org.slf4j.simpleLogger.log.dev.svc.chat.reference.access", "warn");
        int mib = Integer.parseInt(Report.option(args, "--mib", "128"));
        int rounds = Integer.parseInt(Report.option(args, "--rounds", "5"));
        int bigMib = Integer.parseInt(Report.option(args, "--big-mib", "1024"));
        int cutMib = Integer.parseInt(Report.option(args, "--cut-mib", "64"));
        int cuts = Integer.parseInt(Report.option(args, "--cuts", "8"));
        int images = Integer.parseInt(Report.option(args, "--images", "5"));
        int costRounds = Integer.parseInt(Report.option(args, "--cost-rounds", "3"));
        long seed = Long.parseLong(Report.option(args, "--seed", "9"));
        File work = workDirectory();
        delete(work);
        new File(work, "sink").mkdirs();
        String loadBefore = LoadAverage.now();
        long started = System.nanoTime();
        Transfers transfers = new Transfers(rounds);
        HeapRun heap;
        CutResend.Result cut;
        CutResend.Result cutBounded;
        ThumbnailTime.Result thumbnails;
        try (FilesFixture fixture = new FilesFixture(work.toPath().resolve("server"));
             RawPeer peer = new RawPeer(work.toPath().resolve("sink"))) {
            ChatClient sender = fixture.sender(fixture.apiUrl);
            ChatClient reader = fixture.reader();
            try {
                File payload = randomFile(new File(work, "payload.bin"), (long) mib * MIB, seed);
                File warm = randomFile(new File(work, "warm.bin"), 32L * MIB, seed + 1);
                transfers.round(-1, fixture, peer, sender, reader, warm, work); // warm-up, not kept
                for (int r = 0; r < rounds; r++) transfers.round(r, fixture, peer, sender, reader, payload, work);
                transfers.costs = new ThreadCosts(costRounds);
                // one more round first, not kept: it warms the counting's own code up
                for (int r = 0; r <= costRounds; r++) transfers.round(r, fixture, peer, sender, reader, payload, work);
                heap = heapRun(fixture, sender, reader, (long) bigMib * MIB);
                cut = CutResend.run(fixture, (long) cutMib * MIB, cuts, seed, 0);
                cutBounded = CutResend.run(fixture, (long) cutMib * MIB, cuts, seed, CUT_UP_BUFFER);
                thumbnails = ThumbnailTime.run(fixture, sender, reader, work, images);
            } finally {
                sender.close();
                reader.close();
            }
        } finally {
            delete(work);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        FilesReport.write(args, mib, rounds, transfers, heap, cut, cutBounded, thumbnails, loadBefore, LoadAverage.now(), seconds,
                work.getPath().startsWith(SHM));
        System.exit(0);
    }

    /** Each round's throughput, MiB/s, of the SDK and its peers. */
    static final class Transfers {
        final double[] sdkUp;
        final double[] rawPut;
        final double[] rawTus;
        final double[] sdkDown;
        final double[] rawGet;
        /** Set for the rounds counted per thread (not timed: the counting takes some CPU of its own). */
        ThreadCosts costs;

        Transfers(int rounds) {
            sdkUp = new double[rounds];
            rawPut = new double[rounds];
            rawTus = new double[rounds];
            sdkDown = new double[rounds];
            rawGet = new double[rounds];
        }

        /** One round (its order turned every round); {@code r < 0} is a warm-up, kept nowhere. */
        void round(int r, FilesFixture fixture, RawPeer peer, ChatClient sender, ChatClient reader, File file,
                File dir) throws Exception {
            double mib = file.length() / (double) MIB;
            boolean sdkFirst = r % 2 == 0;
            double up = 0;
            double put = 0;
            double tus = 0;
            long[] cpu = new long[5]; // the JVM's CPU time of each transfer (both sides), ms
            FileAttachment uploaded = null;
            for (int turn = 0; turn < 3; turn++) {
                int which = (turn + (sdkFirst ? 0 : 1)) % 3;
                long c0 = cpuNanos();
                ThreadCost counting = costs == null ? null : ThreadCost.start();
                long t0 = System.nanoTime();
                if (which == 0) {
                    Message sent = sender.sendMessage(fixture.room, List.of(MessagePart.file(FileSource.of(file))))
                            .get(5, TimeUnit.MINUTES);
                    uploaded = sent.files().get(0);
                    up = mib / seconds(t0);
                } else if (which == 1) {
                    peer.put(file);
                    put = mib / seconds(t0);
                } else {
                    peer.tus(fixture.apiUrl, fixture.senderToken, file);
                    tus = mib / seconds(t0);
                }
                cpu[which] = (cpuNanos() - c0) / 1_000_000;
                if (counting != null) costs.add(ThreadCosts.UPLOADS[which], counting.stop());
            }
            double down = 0;
            double get = 0;
            File sdkTarget = new File(dir, "down-sdk.bin");
            File rawTarget = new File(dir, "down-raw.bin");
            for (int turn = 0; turn < 2; turn++) {
                long c0 = cpuNanos();
                ThreadCost counting = costs == null ? null : ThreadCost.start();
                long t0 = System.nanoTime();
                if ((turn == 0) == sdkFirst) {
                    long[] heard = {0};
                    reader.downloadFile(uploaded, sdkTarget, (done, total) -> heard[0] = done)
                            .get(5, TimeUnit.MINUTES);
                    down = mib / seconds(t0);
                    if (sdkTarget.length() != file.length()) throw new IOException("the download is short");
                } else {
                    peer.get(fixture.apiUrl, fixture.readerToken, uploaded.fileId(), rawTarget);
                    get = mib / seconds(t0);
                    if (rawTarget.length() != file.length()) throw new IOException("the raw download is short");
                }
                cpu[(turn == 0) == sdkFirst ? 3 : 4] = (cpuNanos() - c0) / 1_000_000;
                if (counting != null) costs.add(ThreadCosts.DOWNLOADS[(turn == 0) == sdkFirst ? 0 : 1], counting.stop());
            }
            Files.delete(sdkTarget.toPath());
            Files.delete(rawTarget.toPath());
            if (costs != null) {
                System.out.printf(Locale.ROOT, "counted round %d: CPU ms %d, %d, %d, %d, %d; load %s%n", r + 1, cpu[0],
                        cpu[1], cpu[2], cpu[3], cpu[4], LoadAverage.now());
                return;
            }
            System.out.printf(Locale.ROOT, "%s: SDK up %.0f, raw PUT %.0f, raw tus %.0f, SDK down %.0f, raw GET %.0f"
                    + " MiB/s; CPU ms %d, %d, %d, %d, %d; load %s%n", r < 0 ? "warm-up" : "round " + (r + 1), up, put,
                    tus, down, get, cpu[0], cpu[1], cpu[2], cpu[3], cpu[4], LoadAverage.now());
            if (r < 0) return;
            sdkUp[r] = up;
            rawPut[r] = put;
            rawTus[r] = tus;
            sdkDown[r] = down;
            rawGet[r] = get;
        }
    }

    /** The heap run: baselines, the largest used heap after a collection during each transfer, in bytes. */
    record HeapRun(long bytes, long upBase, long upMax, int upSamples, long downBase, long downMax, int downSamples,
            double upSeconds, double downSeconds) {
        double upGrowthMib() {
            return (upMax - upBase) / (double) MIB;
        }

        double downGrowthMib() {
            return (downMax - downBase) / (double) MIB;
        }
    }

    private static HeapRun heapRun(FilesFixture fixture, ChatClient sender, ChatClient reader, long bytes)
            throws Exception {
        FileSource big = GeneratedBytes.source("big.bin", bytes);
        long upBase = Heap.settled();
        long t0 = System.nanoTime();
        Message sent;
        HeapSampler up = new HeapSampler(250);
        try {
            sent = sender.sendMessage(fixture.room, List.of(MessagePart.file(big))).get(10, TimeUnit.MINUTES);
        } finally {
            up.close();
        }
        double upSeconds = seconds(t0);
        long downBase = Heap.settled();
        t0 = System.nanoTime();
        HeapSampler down = new HeapSampler(250);
        try {
            long[] heard = {0};
            reader.downloadFile(sent.files().get(0), OutputStream.nullOutputStream(), (done, total) -> heard[0] = done)
                    .get(10, TimeUnit.MINUTES);
        } finally {
            down.close();
        }
        double downSeconds = seconds(t0);
        System.out.printf(Locale.ROOT, "heap: up %.1f MiB over %.1f MiB (%d samples, %.1f s), down %.1f MiB (%d"
                        + " samples, %.1f s)%n", (up.max() - upBase) / (double) MIB, upBase / (double) MIB,
                up.samples(), upSeconds, (down.max() - downBase) / (double) MIB, down.samples(), downSeconds);
        return new HeapRun(bytes, upBase, up.max(), up.samples(), downBase, down.max(), down.samples(), upSeconds,
                downSeconds);
    }

    /**
     * Where the server's data directory, the sink's files and the payloads go: in memory ({@code /dev/shm}, where
     * forcing to the disk costs nothing) when it has room, so that the figures are the SDK's and the protocol's
     * rather than this machine's disk; else under benchmarks/target.
     */
    private static File workDirectory() {
        File shm = new File(SHM);
        if (shm.isDirectory() && shm.canWrite() && shm.getUsableSpace() > 8L * 1024 * MIB) {
            return new File(shm, "svc-files-bench-" + ProcessHandle.current().pid());
        }
        return new File("benchmarks/target/files-bench").getAbsoluteFile();
    }

    /** The JVM's CPU time so far (every thread: the SDK's, the server's and the peers'). */
    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private static File randomFile(File target, long bytes, long seed) throws IOException {
        byte[] block = new byte[MIB];
        Random random = new Random(seed);
        try (OutputStream out = Files.newOutputStream(target.toPath())) {
            for (long left = bytes; left > 0; left -= block.length) {
                random.nextBytes(block);
                out.write(block, 0, (int) Math.min(block.length, left));
            }
        }
        return target;
    }


    private static void delete(File f) {
        File[] children = f.listFiles();
        if (children != null) for (File c : children) delete(c);
        f.delete();
    }

    static String spread(double[] values) {
        return Report.num(Arrays.stream(values).min().orElse(Double.NaN), 0) + "–"
                + Report.num(Arrays.stream(values).max().orElse(Double.NaN), 0);
    }
}
