package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Clients that handshake again and again on their sockets ({@code 41}, then {@code 40{token}}) in busy rooms
 * with REST and socket senders. A re-handshake during a fan-out to its connection once stopped the node's
 * fan-out for good while REST sends were still answered for seconds, so this test checks what every member
 * receives, to the end: each steady member every message of its room in seq order, without a gap, and every
 * member, re-handshaking ones included, an end marker sent after the storm. Loopback, a few seconds of load.
 */
class RehandshakeStormTest {

    private static final int ROOMS = 4;
    private static final int STEADY = 3;
    private static final int CHURNERS = 3;
    private static final Duration LOAD = Duration.ofSeconds(3);
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final int SOCKET_SENDS_IN_FLIGHT = 8;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @Test
    void everyMemberKeepsReceivingWhileOthersHandshakeAgainAndAgain() throws Exception {
        try (ReferenceServer server = ReferenceServer.builder().sendRateLimit(10_000, 10_000).build().start()) {
            Http http = new Http(server);
            List<Member> members = new ArrayList<>();
            List<String> roomIds = new ArrayList<>();
            List<String> senderTokens = new ArrayList<>();
            try {
                for (int r = 0; r < ROOMS; r++) {
                    List<String> users = new ArrayList<>();
                    for (int i = 0; i < STEADY + CHURNERS; i++) {
                        users.add("r" + r + (i < STEADY ? "s" : "c") + i);
                    }
                    String roomId = http.createRoom(server.apiKey(), users.toArray(new String[0]));
                    roomIds.add(roomId);
                    for (int i = 0; i < users.size(); i++) {
                        String token = http.mint(server.apiKey(), users.get(i));
                        if (i == 0) {
                            senderTokens.add(token);
                        }
                        members.add(Member.connect(server.socketUrl(), users.get(i), token, roomId, i >= STEADY));
                    }
                }
                for (Member member : members) {
                    assertTrue(member.connected.await(DEADLINE.toSeconds(), TimeUnit.SECONDS),
                            member.name + " connected");
                }

                // The storm: churners handshake again on every answer; rooms 0 and 1 get REST sends (two senders
                // each), rooms 2 and 3 socket sends (their first steady member's send-message events, a few in
                // flight).
                long loadEnd = System.nanoTime() + LOAD.toNanos();
                members.stream().filter(m -> m.churner).forEach(Member::startChurning);
                List<Thread> restSenders = new ArrayList<>();
                AtomicInteger restAnswered = new AtomicInteger();
                for (int r = 0; r < 2 * 2; r++) {
                    String token = senderTokens.get(r / 2);
                    String roomId = roomIds.get(r / 2);
                    String prefix = "rest-" + r + "-";
                    Thread sender = new Thread(() -> sendOverRest(http, token, roomId, prefix, loadEnd, restAnswered),
                            "rest-sender-" + r);
                    sender.start();
                    restSenders.add(sender);
                }
                for (int r = 2; r < ROOMS; r++) {
                    members.get(r * (STEADY + CHURNERS)).startSending(SOCKET_SENDS_IN_FLIGHT);
                }
                // The REST senders stop at the end of the load (or when a request times out).
                long deadline = loadEnd + DEADLINE.toNanos();
                for (Thread sender : restSenders) {
                    sender.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                }
                members.forEach(Member::stopChurningAndSending);
                // Every churner's last handshake answered, every socket send acknowledged: then the end marker.
                for (Member member : members) {
                    member.settled.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                }
                for (int r = 0; r < ROOMS; r++) {
                    Http.Response end = http.sendText(senderTokens.get(r), roomIds.get(r), "end", "end");
                    assertEquals(201, end.status(), "end marker of room " + r);
                }
                List<String> without = new ArrayList<>();
                for (Member member : members) {
                    if (!member.marker.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                        without.add(member.name);
                    }
                }
                if (!without.isEmpty()) {
                    fail("the fan-out stopped: " + without.size() + " of " + members.size() + " members got no end"
                            + " marker within " + DEADLINE + " (" + without + "); " + summary(members, restAnswered));
                }
                for (Member member : members) {
                    assertTrue(member.anomalies.isEmpty(), member.name + ": " + member.anomalies);
                    if (!member.churner) {
                        assertEquals(member.markerSeq, member.received.get(),
                                member.name + " got every message of its room, each once");
                    }
                }
                int rehandshakes = members.stream().mapToInt(m -> m.answers.get() - 1).sum();
                assertTrue(rehandshakes >= ROOMS * CHURNERS, "the churners handshook again: " + rehandshakes);
            } finally {
                members.forEach(Member::close);
            }
        }
    }

    private static void sendOverRest(Http http, String token, String roomId, String prefix, long loadEnd,
                                     AtomicInteger answered) {
        for (int n = 0; System.nanoTime() < loadEnd; n++) {
            try {
                if (http.sendText(token, roomId, prefix + n, "m" + n).status() == 201) {
                    answered.incrementAndGet();
                }
            } catch (RuntimeException e) {
                return; // the request timed out: the members' markers tell what happened
            }
        }
    }

    private static String summary(List<Member> members, AtomicInteger restAnswered) {
        StringBuilder text = new StringBuilder("REST sends answered ").append(restAnswered.get())
                .append(" (answers prove nothing: a send is answered before its fan-out); per member");
        for (Member member : members) {
            text.append(' ').append(member.name).append("=[received ").append(member.received.get())
                    .append(", last seq ").append(member.lastSeq).append(", answers ").append(member.answers.get())
                    .append(']');
        }
        return text.toString();
    }

    /**
     * A member's socket on the JDK WebSocket, driven by the frames it receives: it answers pings, handshakes
     * again on each answer while churning, keeps a few {@code send-message} events in flight while sending,
     * and checks the order of the room's messages it receives.
     */
    private static final class Member implements WebSocket.Listener {
        final String name;
        final boolean churner;
        private final String token;
        private final String roomId;
        final CountDownLatch connected = new CountDownLatch(1);
        final CountDownLatch settled = new CountDownLatch(1);
        final CountDownLatch marker = new CountDownLatch(1);
        final AtomicInteger answers = new AtomicInteger();
        final AtomicInteger received = new AtomicInteger();
        final List<String> anomalies = Collections.synchronizedList(new ArrayList<>());
        private volatile boolean churning;
        private volatile boolean sending;
        private final AtomicInteger inFlight = new AtomicInteger();
        private final AtomicInteger sent = new AtomicInteger();
        private final StringBuilder partial = new StringBuilder();
        // Written by the WebSocket's listener calls only, one at a time.
        volatile long lastSeq;
        volatile long markerSeq;
        private volatile WebSocket ws;
        // Sends one at a time (the JDK WebSocket refuses a send while another is pending); guarded by this.
        private CompletableFuture<?> queue = CompletableFuture.completedFuture(null);

        private Member(String name, String token, String roomId, boolean churner) {
            this.name = name;
            this.token = token;
            this.roomId = roomId;
            this.churner = churner;
        }

        static Member connect(String url, String name, String token, String roomId, boolean churner) {
            Member member = new Member(name, token, roomId, churner);
            CLIENT.newWebSocketBuilder().connectTimeout(DEADLINE).buildAsync(URI.create(url), member).join();
            return member;
        }

        @Override
        public void onOpen(WebSocket webSocket) {
            ws = webSocket;
            webSocket.request(1);
        }

        void startChurning() {
            churning = true;
            send("41", "40{\"token\":\"" + token + "\"}");
        }

        void startSending(int window) {
            sending = true;
            for (int i = 0; i < window; i++) {
                sendNext();
            }
        }

        void stopChurningAndSending() {
            churning = false;
            sending = false;
            if (!churner && inFlight.get() == 0) {
                settled.countDown();
            }
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String frame = partial.toString();
                partial.setLength(0);
                try {
                    onFrame(frame);
                } catch (IOException | RuntimeException e) {
                    anomalies.add("cannot read " + frame + ": " + e);
                }
            }
            webSocket.request(1);
            return null;
        }

        private void onFrame(String frame) throws IOException {
            if (frame.startsWith("0{")) {
                send("40{\"token\":\"" + token + "\"}");
            } else if (frame.equals("2")) {
                send("3");
            } else if (frame.startsWith("40{")) {
                answers.incrementAndGet();
                connected.countDown();
                if (churning) {
                    send("41", "40{\"token\":\"" + token + "\"}");
                } else if (churner) {
                    settled.countDown();
                }
            } else if (frame.startsWith("42[\"new-message\"")) {
                JsonNode message = Http.JSON.readTree(frame.substring(2)).get(1);
                long seq = message.get("seq").asLong();
                received.incrementAndGet();
                if (!churner && seq != lastSeq + 1) {
                    anomalies.add("seq " + seq + " after " + lastSeq);
                }
                lastSeq = seq;
                if ("end".equals(message.path("clientMessageId").asText())) {
                    markerSeq = seq;
                    marker.countDown();
                }
            } else if (frame.startsWith("43")) {
                JsonNode ack = Http.JSON.readTree(frame.substring(frame.indexOf('['))).get(0);
                if (!ack.path("ok").asBoolean()) {
                    anomalies.add("send refused: " + ack);
                }
                inFlight.decrementAndGet();
                if (sending) {
                    sendNext();
                } else if (inFlight.get() == 0) {
                    settled.countDown();
                }
            } else if (frame.startsWith("44")) {
                anomalies.add("handshake refused: " + frame);
            }
        }

        private void sendNext() {
            int n = sent.incrementAndGet();
            inFlight.incrementAndGet();
            send("42" + n + "[\"send-message\",{\"roomId\":\"" + roomId + "\",\"clientMessageId\":\"socket-" + n
                    + "\",\"parts\":[{\"type\":\"text\",\"text\":\"s" + n + "\"}]}]");
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            anomalies.add("closed by the server: " + statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            anomalies.add("socket failed: " + error);
        }

        private synchronized void send(String... frames) {
            for (String frame : frames) {
                queue = queue.exceptionally(failure -> null).thenCompose(done -> ws.sendText(frame, true));
            }
        }

        void close() {
            if (ws != null) {
                ws.abort();
            }
        }
    }
}
