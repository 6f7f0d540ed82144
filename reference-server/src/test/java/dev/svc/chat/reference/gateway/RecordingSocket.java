package dev.svc.chat.reference.gateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A raw Engine.IO client on the JDK WebSocket that records every text frame; it answers pings unless
 * told not to, and records those it answered too (as {@code "2"}), so a test can see that pings go on.
 */
final class RecordingSocket implements AutoCloseable {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
    private final WebSocket ws;
    // Sends one at a time (the JDK WebSocket refuses a send while another is pending); guarded by this.
    private CompletableFuture<?> sending = CompletableFuture.completedFuture(null);

    RecordingSocket(String url) {
        ws = CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create(url), new Listener()).join();
    }

    /** Opens a socket and completes the handshake with {@code token}; fails unless both are answered. */
    static RecordingSocket connect(String url, String token) {
        RecordingSocket socket = new RecordingSocket(url);
        socket.expect("0{", Duration.ofSeconds(10));
        socket.send("40{\"token\":\"" + token + "\"}");
        socket.expect("40{\"sid\"", Duration.ofSeconds(10));
        return socket;
    }

    void send(String text) {
        enqueue(ws, text).join();
    }

    private synchronized CompletableFuture<?> enqueue(WebSocket socket, String text) {
        CompletableFuture<?> next = sending.exceptionally(failure -> null)
                .thenCompose(done -> socket.sendText(text, true));
        sending = next;
        return next;
    }

    /**
     * Returns the next frame that starts with {@code prefix} within {@code timeout}, skipping others (pings
     * included); null if none came.
     */
    String await(String prefix, Duration timeout) {
        return await(prefix, timeout, new java.util.ArrayList<>());
    }

    /** As {@link #await(String, Duration)}, adding the frames it skipped to {@code skipped}. */
    String await(String prefix, Duration timeout, java.util.List<String> skipped) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                String frame = left > 0 ? frames.poll(left, TimeUnit.NANOSECONDS) : null;
                if (frame == null || frame.startsWith(prefix)) {
                    return frame;
                }
                skipped.add(frame);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** As {@link #await}, failing when no such frame came. */
    String expect(String prefix, Duration timeout) {
        String frame = await(prefix, timeout);
        if (frame == null) {
            throw new AssertionError("no frame starting with " + prefix + " within " + timeout);
        }
        return frame;
    }

    /** Returns the next frame, whatever it is, within {@code timeout}; null if none came. */
    String next(Duration timeout) {
        return await("", timeout);
    }

    @Override
    public void close() {
        ws.abort();
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String frame = partial.toString();
                partial.setLength(0);
                if (frame.equals("2")) {
                    enqueue(webSocket, "3");
                }
                frames.add(frame);
            }
            webSocket.request(1);
            return null;
        }
    }
}
