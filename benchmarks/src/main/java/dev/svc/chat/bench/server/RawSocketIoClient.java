package dev.svc.chat.bench.server;

import java.io.IOException;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;

/**
 * {@link LatencyPeer}'s diagnosis client without the SDK ({@code --transport raw-okhttp}): one OkHttp WebSocket
 * speaking just enough Engine.IO 4 and Socket.IO 5 to connect with a session token, answer pings, send
 * {@code send-message} events (their acknowledgements are read and dropped) and hand the text of each
 * {@code new-message} to a handler on OkHttp's reader thread. Nothing is checked, stored, ordered or handed to
 * another thread of ours: what OkHttp and the JVM cost a message through the same server, the floor under an
 * SDK built on them. The WebSocket's client is configured as the SDK's sockets are (no OkHttp ping, no read or
 * write timeout), so the writes go through OkHttp's writer task as the SDK's do.
 */
final class RawSocketIoClient implements AutoCloseable {

    /** The text of a {@code new-message} and the reader's clock when its frame was handed over. */
    interface Handler {
        void received(String text, long nanos);
    }

    private static final OkHttpClient HTTP = new OkHttpClient.Builder()
            .pingInterval(0, TimeUnit.MILLISECONDS).readTimeout(0, TimeUnit.MILLISECONDS)
            .writeTimeout(0, TimeUnit.MILLISECONDS).build();
    private static final String NEW_MESSAGE = "42[\"new-message\",";
    private static final String TEXT = "\"text\":\"";

    private final String userId;
    private final WebSocket socket;
    private final CompletableFuture<Void> connected = new CompletableFuture<>();
    private volatile Handler handler;
    private long nextAck;

    private RawSocketIoClient(String api, String userId, String token) {
        this.userId = userId;
        // the gateway is at the API URL's origin, as the SDK finds it
        String url = java.net.URI.create(api).resolve("/socket.io/?EIO=4&transport=websocket").toString();
        socket = HTTP.newWebSocket(new Request.Builder().url(url).build(), new WebSocketListener() {
            @Override
            public void onMessage(WebSocket ws, String text) {
                long now = System.nanoTime();
                if (text.startsWith(NEW_MESSAGE)) {
                    Handler h = handler;
                    int at = text.indexOf(TEXT);
                    if (h != null && at > 0) {
                        int from = at + TEXT.length();
                        h.received(text.substring(from, text.indexOf('"', from)), now);
                    }
                } else if (text.equals("2")) {
                    ws.send("3");
                } else if (text.startsWith("0")) {
                    ws.send("40{\"token\":\"" + token + "\"}");
                } else if (text.startsWith("40")) {
                    connected.complete(null);
                } else if (text.startsWith("44")) {
                    connected.completeExceptionally(new IOException("CONNECT refused: " + text));
                }
            }

            @Override
            public void onFailure(WebSocket ws, Throwable t, Response response) {
                connected.completeExceptionally(t);
            }
        });
    }

    /**
     * Connects {@code userId} with {@code token} to the server at {@code api} and waits for the CONNECT answer; a
     * connect that fails or times out leaves no socket open.
     */
    static RawSocketIoClient connect(String api, String userId, String token) throws Exception {
        RawSocketIoClient client = new RawSocketIoClient(api, userId, token);
        try {
            client.connected.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            client.socket.cancel();
            throw e;
        }
        return client;
    }

    /** Hands the text of every {@code new-message} from now on to {@code h}, on OkHttp's reader thread. */
    void onNewMessage(Handler h) {
        handler = h;
    }

    /** Sends a text message to {@code roomId} as a {@code send-message} event (one thread sends). */
    void send(String roomId, String text) {
        socket.send("42" + nextAck++ + "[\"send-message\",{\"roomId\":\"" + roomId
                + "\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}],\"clientMessageId\":\""
                + UUID.randomUUID() + "\",\"senderId\":\"" + userId + "\"}]");
    }

    @Override
    public void close() {
        socket.close(1000, null);
    }

    /** Lets OkHttp's threads go (its dispatcher's are not daemons): the process then ends with its main thread. */
    static void shutdown() {
        HTTP.dispatcher().executorService().shutdown();
        HTTP.connectionPool().evictAll();
    }
}
