package dev.svc.chat.bench.files;

import static dev.svc.chat.bench.files.FilesBench.MIB;
import static dev.svc.chat.bench.files.FilesBench.spread;
import static dev.svc.chat.bench.support.Report.median;
import static dev.svc.chat.bench.support.Report.num;
import static dev.svc.chat.bench.support.Report.ratio;

import java.io.IOException;

import dev.svc.chat.bench.support.Report;
import dev.svc.chat.internal.files.UploadingTransport;

/** The section of {@link FilesBench}: its tables, the targets met or missed, and the summary's rows. */
final class FilesReport {
    /** The development run behind {@link #WHY}'s figures (one run, reduced size, a loaded machine). */
    static final String UPLOAD_RUN = "In a run of 128 MiB in 5 rounds at a load average of 15 to 18 (the"
            + " machine shared; one JVM, the server in it), the SDK's upload ran at 1.06× the raw tus PATCH's median"
            + " (1.22× each round's) and 0.59× the raw PUT's (0.68×), taking 500 to 810 ms of the JVM's CPU (both"
            + " sides), the raw tus PATCH 370 to 560, the raw PUT 290 to 390: the SDK's share is its one SHA-256"
            + " pass (some 80 ms of 128 MiB at about 1,600 MiB/s, the JVM's intrinsic, measured at a load of 0.4)"
            + " and the record of each chunk's digest, which overlap the writes (with the reader waiting for each"
            + " record before it read on, the run before had the SDK at 0.34× the raw tus PATCH); what is left to"
            + " the target is the protocol's, on the server: the raw tus PATCH's own gap to the PUT, its hash and"
            + " its commit each MiB. A JFR sampling of 3 rounds of 128 MiB (load average 26) found the server's"
            + " request thread the busiest of the upload's (76 of the samples outside the benchmark's main thread,"
            + " 24 of them in SHA-256, 3 writing the record each MiB), the SDK's threads in a handful. Hashing the"
            + " server's bytes on a thread of their own (tried: 4 buffers of 64 KiB handed over) raised the raw tus"
            + " PATCH's CPU (260 to 480 ms of 64 MiB, against 200 to 320) and showed no gain in time at that load,"
            + " so it was not kept; on 2 cores the SDK's reader, OkHttp's writer and the server's thread already"
            + " take turns.";

    /** Why the uploads are behind the raw PUT (looked at while making this section). */
    static final String WHY = "Where the upload's time goes against the raw PUT (one request, nothing hashed):"
            + " the SDK sends the whole file (or, after a cut, the rest from the service's offset) in one PATCH,"
            + " as the raw tus row does; the server commits a PATCH without a checksum every MiB as it arrives"
            + " (bytes and record forced), so a long one is durable up to its last MiB while it runs, and hashes"
            + " the bytes once as they are written (so that completion reads nothing again). Since 29 Nov 2026"
            + " the SDK hashes each byte once: each chunk's sha256 is taken as the chunk is read to be sent and"
            + " recorded (the outbox record keeps the digests' fingerprint and count) before any byte of it goes,"
            + " on a reader thread up to 3 chunks ahead of OkHttp's, which waits for a chunk's record just before"
            + " it writes the chunk; a restart reads the recorded chunks again and compares. Before, a measuring pass of the whole file came first and"
            + " overlapped nothing, and each chunk was hashed again on OkHttp's thread as it went. " + UPLOAD_RUN
            + " A download is hashed once (the SDK checks its sha256 before it renames the part file), the raw GET"
            + " never; since 29 Nov 2026 on a thread of its own, beside the reading and writing of the next buffer"
            + " (before, on the same thread, after each write, it was the whole gap); its progress, one report per"
            + " 256 KiB, is merged while the listener's thread is busy rather than queued a task each.";

    /** How the per-thread table is counted. */
    static final String COSTS = "Where each transfer's CPU goes, thread by thread: {rounds} more rounds after the"
            + " timed ones, not timed (the counting takes CPU of its own; one round before them, not kept, warms its"
            + " code up). Each thread's CPU time and voluntary context switches as Linux counts them"
            + " (`/proc/self/task/*/schedstat` and `status`, read every 10 ms by a thread of the benchmark's, so that"
            + " a thread that ends during the transfer, as a download's digest thread does, keeps its CPU up to then),"
            + " and each Java thread's allocated bytes (`com.sun.management.ThreadMXBean`): CPU time per thread holds"
            + " on a loaded machine, where MiB/s do not. Threads by name: the SDK's OkHttp thread reads a download and"
            + " writes an upload, the raw peers run on the benchmark's main thread, Okio's watchdog times OkHttp's"
            + " reads and writes, the server's Jetty threads answer both. Medians of the rounds (the JVM's row is the"
            + " median of the rounds' totals, so the rows need not add up to it); groups under 5 ms and 1 MiB go to"
            + " \"other threads\" (their mean); \"unattributed\" is the JVM's CPU less every thread's (threads that"
            + " ended between two readings).";

    /** The development run after the download's changes (one run, reduced size, a loaded machine). */
    static final String AFTER = "in two runs after that at a load average of 14.5 to 15, the SDK's download took"
            + " 298 and 356 ms against the raw GET's 309 and 313 in the same runs, all its threads but the JIT's"
            + " within 15 ms of the raw GET's: its reader 126 to 131 ms (the raw GET's 171 to 174, which still wakes"
            + " the watchdog, 38 to 39 ms more), the digest thread 75 to 77 ms with some 350 wake-ups, the callbacks under"
            + " 5 ms; 1,100 voluntary switches in all against the raw GET's 7,000 to 9,500. So the download costs"
            + " what the raw GET costs less the watchdog, plus its SHA-256. The upload (the second run): the SDK's"
            + " 532 ms against the raw tus PATCH's 386 and the raw PUT's 334; the server's request thread 238 to 242"
            + " ms for both PATCHes against 167 for the PUT's sink (its SHA-256 of the bytes, with a commit each MiB"
            + " that costs little on `/dev/shm`), the SDK's reader 109 ms (reading the file and the SHA-256 of each"
            + " chunk), OkHttp's writer 59 ms against the raw PATCH's 88 on the main thread, the JIT 59 against 27:"
            + " the upload's gap to the raw PUT is two SHA-256 passes, the SDK's and the server's, each required."
            + " The SDK's writer allocated 124 MiB per 128 MiB before (each 1 MiB chunk handed to Okio at once took"
            + " new segments beyond its pool's 64 KiB), 3 MiB since it hands over 32 KiB at a time; the server's"
            + " PATCH allocates 11 MiB per 128 MiB against the PUT sink's 1.5, a few milliseconds' worth, left as it"
            + " is.";

    /** What the per-thread counts showed (looked at while making this section). */
    static final String COSTS_FOUND = "What the counts showed (development runs of 128 MiB, 5 counted rounds, load"
            + " average 8 to 15, the machine shared): before 29 Nov 2026 the SDK's download took 359 to 412 ms of the"
            + " JVM's CPU against the raw GET's 263 to 272: its SHA-256 on the digest thread (75 to 80 ms, at about"
            + " 1,600 MiB/s, the check the contract requires), Okio's watchdog (36 to 43 ms and 7,000 to 11,000"
            + " wake-ups: OkHttp schedules its read timeout with it around each read, of at most 8 KiB, and the reader"
            + " woke it each time; the raw GET pays it too), the progress callbacks (9 to 12 ms, 1,400 to 1,900"
            + " wake-ups of the callback thread, one report per 64 KiB) and a wake-up of the digest thread per 64 KiB"
            + " buffer (1,600 to 1,700); the reading thread itself cost what the raw GET's does (146 to 177 ms against"
            + " 161 to 171) and the server's thread the same for both (50 to 60 ms). What the throughput runs' CPU"
            + " held beyond that was the JIT's, still compiling in the first rounds (100 to 300 ms of a transfer)."
            + " Since then a download writes, hashes and reports 256 KiB at a time, and its reads of an HTTP/1 body"
            + " drop Okio's timeout, which the socket's read timeout (`SO_TIMEOUT`, the same, set by OkHttp on every"
            + " HTTP/1 exchange) still bounds: " + AFTER;


    private FilesReport() {
    }

    static void write(String[] args, int mib, int rounds, FilesBench.Transfers t, FilesBench.HeapRun heap,
            CutResend.Result cut, CutResend.Result bounded, ThumbnailTime.Result thumbs, String loadBefore, String loadAfter, double seconds,
            boolean inMemory) throws IOException {
        int chunk = UploadingTransport.DEFAULT_CHUNK_BYTES;
        Report report = new Report("Files: uploads, downloads, cuts and thumbnails");
        report.paragraph("The reference server runs in the benchmark's JVM on its data-directory backend (a"
                + " temporary directory" + (inMemory ? " in `/dev/shm`, a file system in memory, as are the sink's"
                + " files and the payloads: the server forces each MiB of a PATCH and its record to the disk, the"
                + " last before it answers: in a trial of 32 MiB on this machine's disk, under load, that held the SDK's and raw tus"
                + " uploads alike to 15 to 23 MiB/s, against 54 to 73 for the raw PUT" : "; each PATCH's bytes and record are forced to the disk before it is answered")
                + ") and the SDK talks to it over loopback. Throughput: a " + mib + " MiB file of random bytes, in " + rounds
                + " interleaved rounds (the order turned each round, after a warm-up of 32 MiB): the SDK's"
                + " `sendMessage` of `MessagePart.file(FileSource.of(file))`, timed to the message's answer (the"
                + " SDK reads the file once and sends it in one PATCH without `Upload-Checksum`, each chunk of "
                + chunk / MIB + " MiB hashed and its sha256 recorded before it is written; the server hashes the"
                + " file as it arrives); against a raw"
                + " OkHttp PUT of the same file to a sink of ours on the same stack as the server (Javalin on Jetty)"
                + " that writes the body to a file through a 64 KiB buffer and forces it to the disk once at the end;"
                + " and, to tell the SDK's share from the protocol's, raw OkHttp sending the SDK's tus requests"
                + " (create, then one PATCH of the file) to the reference server, hashing nothing. Download: the reader's"
                + " `downloadFile(file, target, listener)` (into `target.part`, sha256 checked, renamed) against a"
                + " raw OkHttp GET of the same route into a file through Okio. MiB/s: median of the rounds (spread"
                + " min–max); the ratio is of the medians (the target's), each round's ratio the median of the"
                + " rounds' own ratios (spread), which a load that drifts between rounds moves less.");
        Report.Table table = report.table("transfer", "SDK (MiB/s)", "peer", "peer (MiB/s)", "ratio",
                "each round's ratio", "target", "met");
        double up = median(t.sdkUp);
        double put = median(t.rawPut);
        double down = median(t.sdkDown);
        double get = median(t.rawGet);
        table.row("upload, " + mib + " MiB", cell(t.sdkUp), "raw OkHttp PUT to a file sink", cell(t.rawPut),
                ratio(up, put), ratios(t.sdkUp, t.rawPut), "≥ " + UPLOAD_TARGET + "×", met(up / put >= UPLOAD_TARGET));
        table.row("upload, " + mib + " MiB", cell(t.sdkUp), "raw OkHttp tus PATCHes to the server", cell(t.rawTus),
                ratio(up, median(t.rawTus)), ratios(t.sdkUp, t.rawTus), "-", "-");
        table.row("download, " + mib + " MiB", cell(t.sdkDown), "raw OkHttp GET of the same route", cell(t.rawGet),
                ratio(down, get), ratios(t.sdkDown, t.rawGet), "≥ " + DOWNLOAD_TARGET + "×",
                met(down / get >= DOWNLOAD_TARGET));
        table.end();
        report.paragraph(WHY);
        if (t.costs != null && t.costs.rounds > 0) {
            report.paragraph(COSTS.replace("{rounds}", Integer.toString(t.costs.rounds)));
            t.costs.table(report, mib);
            report.paragraph(COSTS_FOUND);
        }
        report.result("files.upload", up, put, "MiB/s")
                .result("files.upload.tus", up, median(t.rawTus), "MiB/s")
                .result("files.download", down, get, "MiB/s");

        report.paragraph("Heap: a " + heap.bytes() / MIB + " MiB file generated as it is read (1 MiB of seeded"
                + " random bytes repeated, each MiB stamped with its index; held neither in memory nor on the"
                + " client's disk) sent by the SDK, then downloaded by the reader into a stream that discards it"
                + " (`downloadFile(file, OutputStream, listener)`). Every 250 ms during each transfer the heap is"
                + " collected (`System.gc()`) and its use read; growth = the largest minus the use after"
                + " collections just before. The server runs in the same JVM, so the figure holds both sides'.");
        report.table("transfer", "before (MiB)", "largest during (MiB)", "growth (MiB)", "samples", "time (s)",
                        "target", "met")
                .row("upload, " + heap.bytes() / MIB + " MiB", num(heap.upBase() / (double) MIB, 1),
                        num(heap.upMax() / (double) MIB, 1), num(heap.upGrowthMib(), 1), heap.upSamples(),
                        num(heap.upSeconds(), 1), "≤ " + num(HEAP_TARGET_MIB, 0) + " MiB",
                        met(heap.upGrowthMib() <= HEAP_TARGET_MIB))
                .row("download, " + heap.bytes() / MIB + " MiB", num(heap.downBase() / (double) MIB, 1),
                        num(heap.downMax() / (double) MIB, 1), num(heap.downGrowthMib(), 1), heap.downSamples(),
                        num(heap.downSeconds(), 1), "≤ " + num(HEAP_TARGET_MIB, 0) + " MiB",
                        met(heap.downGrowthMib() <= HEAP_TARGET_MIB))
                .end();
        report.result("files.heap.upload", heap.upGrowthMib(), Double.NaN, "MiB")
                .result("files.heap.download", heap.downGrowthMib(), Double.NaN, "MiB");

        double perCut = cut.perCut() / 1024;
        report.paragraph("Cuts: the sender's client behind `support/CuttingProxy` (reconnect backoff 0.1 to 1 s, as"
                + " every cut fails an attempt of the same send) uploads a generated " + cut.fileBytes() / MIB
                + " MiB file once uncut, then again with its connections reset on both sides " + cut.cuts()
                + " times at seeded points spread over the upload. Bytes sent again per cut = (bytes the client sent"
                + " up through the proxy on the cut upload − on the uncut one) ÷ cuts; both include the requests'"
                + " headers and the socket's traffic, the cut one its reconnections too. A cut PATCH carries no"
                + " checksum, so the server keeps (and commits) every byte it read of it, and the SDK sends from"
                + " there: what a cut costs is what was in flight between the proxy and the server, which the reset"
                + " drops: the proxy's socket send queue and what the server's socket received but Jetty had not"
                + " read. Twice: with the proxy's send buffer left to the system (loopback grows it to 4 MiB here,"
                + " `tcp_wmem`, when the server reads slower than the client writes), the target's row; and bounded"
                + " to " + bounded.upBuffer() / 1024 + " KiB, as a network holds a bounded number of bytes in"
                + " flight, which leaves the SDK's and the server's share. No endpoint sees the proxy's queue: in a"
                + " trial at a load average of 27, bounding the server's receive buffer to 128 KiB"
                + " (`setAcceptedReceiveBufferSize`) left the first row as it was (2,419 KiB a cut, against 2,542"
                + " without), while the proxy's bound brought it to 30 to 49 KiB. Committing more often on the"
                + " server would not change either: a cut PATCH's bytes are all committed, the step (1 MiB) bounds"
                + " only what a `kill -9` of the server loses.");
        report.table("file", "proxy's send buffer", "cuts", "sent up, uncut", "sent up, cut", "sent again per cut",
                        "time uncut / cut (s)", "target", "met")
                .row(cut.fileBytes() / MIB + " MiB", "the system's", cut.cuts(), num(cut.cleanUp(), 0),
                        num(cut.cutUp(), 0), num(perCut, 0) + " KiB",
                        num(cut.cleanSeconds(), 1) + " / " + num(cut.cutSeconds(), 1),
                        "≤ one chunk (" + chunk / 1024 + " KiB)", met(cut.perCut() <= chunk))
                .row(bounded.fileBytes() / MIB + " MiB", bounded.upBuffer() / 1024 + " KiB", bounded.cuts(),
                        num(bounded.cleanUp(), 0), num(bounded.cutUp(), 0), num(bounded.perCut() / 1024, 0) + " KiB",
                        num(bounded.cleanSeconds(), 1) + " / " + num(bounded.cutSeconds(), 1),
                        "≤ one chunk (" + chunk / 1024 + " KiB)", met(bounded.perCut() <= chunk))
                .end();
        report.result("files.resendPerCut.boundedNetwork", bounded.perCut() / 1024, Double.NaN, "KiB");
        report.result("files.resendPerCut", perCut, Double.NaN, "KiB");

        double[] generation = thumbs.generationMs();
        report.paragraph("Thumbnail: a " + ThumbnailTime.WIDTH + "×" + ThumbnailTime.HEIGHT + " JPEG (12"
                + " megapixels, " + num(thumbs.jpegBytes() / (double) MIB, 1) + " MiB, gradients under seeded noise)"
                + " sent by the SDK as a new file each of " + thumbs.uploadMs().length + " rounds; then the reader's"
                + " first `thumbnail(file, " + ThumbnailTime.SIZE + ")` (the server decodes the image subsampled,"
                + " scales and encodes a " + num(thumbs.thumbnailBytes() / 1024.0, 0) + " KiB JPEG, keeps it and"
                + " answers), and the same call again, which the server answers from what it kept (the reader has"
                + " no thumbnail cache of its own). Generation alone = first − again. No target was set: the figures"
                + " are for the record. Milliseconds, median (spread).");
        report.table("upload and send", "first thumbnail", "thumbnail again", "generation alone")
                .row(ms(thumbs.uploadMs()), ms(thumbs.firstMs()), ms(thumbs.cachedMs()), ms(generation))
                .end();
        report.result("files.thumbnail.first", median(thumbs.firstMs()), Double.NaN, "ms")
                .result("files.thumbnail.generation", median(generation), Double.NaN, "ms");

        report.paragraph(String.format(java.util.Locale.ROOT, "Load average (1 / 5 min) before the run %s, after"
                + " %s; the run took %.0f s.", loadBefore, loadAfter, seconds));
        report.write(args);
    }

    private static final double UPLOAD_TARGET = FilesBench.UPLOAD_TARGET;
    private static final double DOWNLOAD_TARGET = FilesBench.DOWNLOAD_TARGET;
    private static final double HEAP_TARGET_MIB = FilesBench.HEAP_TARGET_MIB;

    private static String cell(double[] values) {
        return num(median(values), 0) + " (" + spread(values) + ")";
    }

    private static String ratios(double[] ours, double[] peers) {
        double[] r = new double[ours.length];
        for (int i = 0; i < r.length; i++) r[i] = ours[i] / peers[i];
        return String.format(java.util.Locale.ROOT, "%.2f× (%.2f–%.2f)", median(r),
                java.util.Arrays.stream(r).min().orElse(Double.NaN), java.util.Arrays.stream(r).max().orElse(Double.NaN));
    }

    private static String ms(double[] values) {
        return num(median(values), 0) + " (" + spread(values) + ")";
    }

    private static String met(boolean met) {
        return met ? "yes" : "no";
    }
}
