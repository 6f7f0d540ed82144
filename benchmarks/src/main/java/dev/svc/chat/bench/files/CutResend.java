package dev.svc.chat.bench.files;

import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.svc.chat.ChatClient;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.bench.support.CuttingProxy;

/**
 * The bytes an upload sends again after its connections are cut: the sender's client behind a
 * {@link CuttingProxy} uploads a generated file once uncut, then the same length again reset on both sides
 * {@code cuts} times, at points spread over the upload (seeded, anywhere inside a chunk). What the cut upload sent
 * up through the proxy beyond the uncut one's (headers and the socket's traffic included in both), per cut. The
 * proxy's send buffer towards the server is the system's (loopback grows it to megabytes) or bounded, as a
 * network's bytes in flight are.
 */
final class CutResend {
    /** The figures of one run. */
    record Result(long fileBytes, long cleanUp, long cutUp, int cuts, double cleanSeconds, double cutSeconds,
            int upBuffer) {
        /** Bytes sent again per cut. */
        double perCut() {
            return (double) (cutUp - cleanUp) / cuts;
        }
    }

    private CutResend() {
    }

    /** {@code upBuffer}: the proxy's send buffer towards the server, 0 for the system's (see {@link CuttingProxy}). */
    static Result run(FilesFixture fixture, long bytes, int cuts, long seed, int upBuffer) throws Exception {
        try (CuttingProxy proxy = CuttingProxy.to(fixture.apiUrl, upBuffer)) {
            // a short backoff: every cut fails an attempt of the same send, and the default one climbs to 30 s
            ChatClient sender = fixture.sender(SvcOptions.builder(proxy.apiUrl()).reconnectDelay(100, 1_000).build());
            try {
                long before = proxy.bytesUp();
                long t0 = System.nanoTime();
                send(sender, fixture.room, "uncut.bin", bytes).get(5, TimeUnit.MINUTES);
                double cleanSeconds = (System.nanoTime() - t0) / 1e9;
                long cleanUp = proxy.bytesUp() - before;

                Random random = new Random(seed);
                long[] at = new long[cuts];
                long spacing = bytes / (cuts + 1);
                for (int k = 0; k < cuts; k++) at[k] = (k + 1) * spacing + random.nextInt((int) (spacing / 2));
                before = proxy.bytesUp();
                t0 = System.nanoTime();
                CompletableFuture<Message> sending = send(sender, fixture.room, "cut.bin", bytes);
                int done = 0;
                while (!sending.isDone()) {
                    if (done < cuts && proxy.bytesUp() - before >= at[done] && proxy.resetAll() > 0) done++;
                    LockSupport.parkNanos(500_000); // polls the bytes carried; the cut points are approximate anyway
                }
                sending.get();
                double cutSeconds = (System.nanoTime() - t0) / 1e9;
                if (done < cuts) throw new IllegalStateException("only " + done + " of " + cuts + " cuts came");
                Result result = new Result(bytes, cleanUp, proxy.bytesUp() - before, cuts, cleanSeconds, cutSeconds,
                        upBuffer);
                System.out.printf(java.util.Locale.ROOT, "cuts (proxy's up buffer %s): %.0f KiB sent again per cut%n",
                        upBuffer == 0 ? "the system's" : upBuffer + " B", result.perCut() / 1024);
                return result;
            } finally {
                sender.close();
            }
        }
    }

    private static CompletableFuture<Message> send(ChatClient sender, String room, String name, long bytes) {
        return sender.sendMessage(room, List.of(MessagePart.file(GeneratedBytes.source(name, bytes))));
    }
}
