package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A raw Engine.IO/Socket.IO client on the JDK WebSocket, recording every text frame in a queue (the
 * OkHttp WebSocketRecorder pattern). Pings are answered automatically unless disabled.
 */
final class SocketClient implements AutoCloseable {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final boolean autoPong;
    private volatile boolean paused;
    private volatile boolean requestPending;
    private final WebSocket ws;
    /** The last send: the JDK allows one in flight, so each send (the listener's pongs too) waits for it. */
    private CompletableFuture<?> lastSend = CompletableFuture.completedFuture(null);
    /** The pings answered: pongs the JDK sent. */
    private final AtomicInteger pongs = new AtomicInteger();

    private SocketClient(String url, boolean autoPong) {
        this.autoPong = autoPong;
        this.ws = CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .buildAsync(URI.create(url), new Listener()).join();
    }

    static SocketClient open(ReferenceServer server) {
        return new SocketClient(server.socketUrl(), true);
    }

    /** Opens a WebSocket to another Engine.IO endpoint of a server, e.g. the dev channel's. */
    static SocketClient openAt(String url) {
        return new SocketClient(url, true);
    }

    static SocketClient openWithoutPong(ReferenceServer server) {
        return new SocketClient(server.socketUrl(), false);
    }

    /** Opens, checks the open packet, and connects with {@code auth} (JSON object text); expects success. */
    static SocketClient connect(ReferenceServer server, String auth) {
        SocketClient client = open(server);
        client.expectOpen();
        client.send("40" + auth);
        String answer = client.next();
        assertTrue(answer.startsWith("40{\"sid\":"), "expected CONNECT ok, got " + answer);
        return client;
    }

    /** Connects with a token to the gateway at {@code socketUrl} (a server in another JVM). */
    static SocketClient connectToken(String socketUrl, String token) {
        SocketClient client = new SocketClient(socketUrl, true);
        client.expectOpen();
        client.send("40{\"token\":\"" + token + "\"}");
        String answer = client.next();
        assertTrue(answer.startsWith("40{\"sid\":"), "expected CONNECT ok, got " + answer);
        return client;
    }

    static SocketClient connectToken(ReferenceServer server, String token) {
        return connect(server, "{\"token\":\"" + token + "\"}");
    }

    JsonNode expectOpen() {
        String open = next();
        assertTrue(open.startsWith("0{"), "expected open packet, got " + open);
        try {
            return Http.JSON.readTree(open.substring(1));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    void send(String frame) {
        inTurn(() -> ws.sendText(frame, true)).join();
    }

    /** Sends without waiting: the server may close while a large frame is still being written. */
    void sendAsync(String frame) {
        inTurn(() -> ws.sendText(frame, true)).exceptionally(t -> null);
    }

    /** Starts {@code send} once every send before it ended, however it ended. */
    private synchronized CompletableFuture<WebSocket> inTurn(Supplier<CompletableFuture<WebSocket>> send) {
        CompletableFuture<WebSocket> next = lastSend.handle((done, failed) -> null).thenCompose(ignored -> send.get());
        lastSend = next;
        return next;
    }

    /** How long {@link #next()} waits for a frame that is expected. */
    static final Duration EXPECTED_FRAME_DEADLINE = Duration.ofSeconds(30);

    void sendBinary(byte[] bytes) {
        inTurn(() -> ws.sendBinary(java.nio.ByteBuffer.wrap(bytes), true)).join();
    }

    /**
     * Returns the next frame, failing when none came within 30 s: a frame that is expected may be slow on a busy
     * machine, and only a failing test ever waits that long. Tests that expect silence use {@link #poll}.
     */
    String next() {
        return next(EXPECTED_FRAME_DEADLINE);
    }

    String next(Duration timeout) {
        String frame = poll(timeout);
        if (frame == null) {
            fail("no frame within " + timeout + "; " + state());
        }
        return frame;
    }

    /** Returns the next frame within {@code timeout}, or null. */
    String poll(Duration timeout) {
        try {
            return frames.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Returns the next EVENT frame's JSON array, skipping nothing: the next frame must be an event. */
    JsonNode nextEvent() {
        String frame = next();
        assertTrue(frame.startsWith("42["), "expected an event, got " + frame);
        try {
            return Http.JSON.readTree(frame.substring(2));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Emits {@code event} with ack id {@code ackId} and returns the ack payload (first array item). */
    JsonNode emitWithAck(int ackId, String event, String payloadJson) {
        send("42" + ackId + "[\"" + event + "\"," + payloadJson + "]");
        String frame = next();
        String prefix = "43" + ackId + "[";
        assertTrue(frame.startsWith(prefix), "expected ack " + ackId + ", got " + frame);
        try {
            return Http.JSON.readTree(frame.substring(prefix.length() - 1)).get(0);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Waits up to {@link #EXPECTED_FRAME_DEADLINE} for the server to close; returns the close code. */
    int awaitClose() {
        return awaitClose(EXPECTED_FRAME_DEADLINE);
    }

    /** Waits for the server to close and returns the close code (1005 for no code, 1006 for abrupt). */
    int awaitClose(Duration timeout) {
        try {
            Integer code = closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            assertNotNull(code);
            return code;
        } catch (Exception e) {
            throw new AssertionError("not closed within " + timeout, e);
        }
    }

    /** Stops reading from the socket after the current frame. */
    void pause() {
        paused = true;
    }

    /** Reads again. */
    void resume() {
        paused = false;
        if (requestPending) {
            requestPending = false;
            ws.request(1);
        }
    }

    /** Returns how many of the server's pings this client answered. */
    int pongs() {
        return pongs.get();
    }

    /** What this client saw of its socket, for a failure's message: whether it closed, and the pings answered. */
    String state() {
        Integer code = closed.getNow(null);
        return (code == null ? "the socket is open" : "the socket closed with " + code) + ", " + pongs.get()
                + " ping(s) answered";
    }

    boolean isClosed() {
        return closed.isDone();
    }

    /**
     * Asserts no frame arrived so far, without waiting: call it after a marker that such a frame would have
     * preceded (waiting a while for nothing proves nothing on a loaded machine).
     */
    void assertNoFrame() {
        assertEquals(null, frames.poll(), "unexpected frame");
    }

    @Override
    public void close() {
        if (!ws.isOutputClosed()) {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").exceptionally(t -> null);
        }
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
                if (autoPong && frame.equals("2")) {
                    inTurn(() -> webSocket.sendText("3", true)).thenRun(pongs::incrementAndGet);
                } else {
                    frames.add(frame);
                }
            }
            if (paused) {
                requestPending = true; // stop reading: the server's writes back up, as with a stuck client
            } else {
                webSocket.request(1);
            }
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode);
            webSocket.sendClose(WebSocket.NORMAL_CLOSURE, "").exceptionally(t -> null);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.complete(1006);
        }
    }
}
