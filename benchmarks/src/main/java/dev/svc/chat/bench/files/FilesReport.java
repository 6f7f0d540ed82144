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
    /** Why the uploads are behind the raw PUT (looked at while making this section). */
    static final String WHY = "Where the upload's time goes against the raw PUT (one request, nothing hashed):"
            + " the SDK sends the whole file (or, after a cut, the rest from the service's offset) in one PATCH"
            + " whose body reads, checks and writes a chunk at a time on OkHttp's thread, as the raw tus row's one"
            + " PATCH of the file does without the checks. Until 29 Nov 2026 it sent a PATCH per MiB: each cost"
            + " a request on both sides, answered once its bytes and record were forced; in a run of 64 MiB at a"
            + " load average of 22 (one JVM, the server in it), raw OkHttp took 400 to 710 ms of the JVM's CPU for"
            + " the file in PATCHes of 1 MiB, 190 to 240 in one PATCH, the raw PUT 130 to 240. The server commits a"
            + " PATCH without a checksum every MiB as it arrives (bytes and record forced), so a long one is"
            + " durable up to its last MiB while it runs. Each byte is still hashed with SHA-256 three times, twice"
            + " by the SDK (each chunk's sha256 when the source is measured, before its upload is created, so that"
            + " the outbox record can tell a changed source at a restart; again as the chunk is read to be sent,"
            + " compared with the first, so that a changed chunk never goes) and once by the server (carried along"
            + " as the bytes are written, so that completion reads nothing again). One pass runs at about 1,600"
            + " MiB/s here (the JVM's SHA-256 intrinsic, measured at a load of 0.4), some 0.08 s per pass of"
            + " 128 MiB; the measuring pass comes before the upload and overlaps nothing. What is left would take a"
            + " weaker promise (no measuring pass: a restart could not tell a changed source from the bytes already"
            + " sent). A download is hashed once (the SDK checks its sha256 before it renames the part file), the"
            + " raw GET never; its progress, one report per 64 KiB, is merged while the listener's thread is busy"
            + " rather than queued a task each.";

    private FilesReport() {
    }

    static void write(String[] args, int mib, int rounds, FilesBench.Transfers t, FilesBench.HeapRun heap,
            CutResend.Result cut, ThumbnailTime.Result thumbs, String loadBefore, String loadAfter, double seconds,
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
                + " SDK reads the file once for each chunk's sha256, then sends it in one PATCH without"
                + " `Upload-Checksum`, each chunk of " + chunk / MIB + " MiB hashed again and compared before it is"
                + " written; the server hashes the file as it arrives); against a raw"
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
                + " checksum, so the server keeps what arrived of it and the SDK sends from there: what a cut costs"
                + " is what was in flight between the proxy and the server (the proxy's socket buffers, which Linux"
                + " grows to megabytes on loopback when the server reads slower than the client writes), no longer"
                + " bounded by a PATCH's size. The target is still one chunk.");
        report.table("file", "cuts", "sent up, uncut", "sent up, cut", "sent again per cut", "time uncut / cut (s)",
                        "target", "met")
                .row(cut.fileBytes() / MIB + " MiB", cut.cuts(), num(cut.cleanUp(), 0), num(cut.cutUp(), 0),
                        num(perCut, 0) + " KiB", num(cut.cleanSeconds(), 1) + " / " + num(cut.cutSeconds(), 1),
                        "≤ one chunk (" + chunk / 1024 + " KiB)", met(cut.perCut() <= chunk))
                .end();
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
