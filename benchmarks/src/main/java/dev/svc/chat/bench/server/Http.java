package dev.svc.chat.bench.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/** The benchmarks' HTTP side: setting up users and rooms on our server, and the REST sender (N in flight). */
final class Http {
    static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /** POSTs {@code body} with an {@code x-api-key} (key starting sk_) or a bearer token; returns the JSON answer. */
    JsonNode post(String url, String credential, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(request(url, credential, body),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("POST " + url + ": " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** Mints session tokens for {@code userIds} on our server, 8 at a time. */
    List<String> tokens(String apiUrl, List<String> userIds) throws InterruptedException {
        List<CompletableFuture<String>> futures = new ArrayList<>();
        Semaphore inFlight = new Semaphore(8);
        for (String userId : userIds) {
            inFlight.acquire();
            String body = "{\"userId\":\"" + userId + "\",\"expiresIn\":86400}";
            futures.add(client.sendAsync(request(apiUrl + "/auth/token", ServerUnderTest.API_KEY, body),
                    HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> inFlight.release())
                    .thenApply(r -> {
                        try {
                            return JSON.readTree(r.body()).get("token").textValue();
                        } catch (IOException e) {
                            throw new IllegalStateException(r.statusCode() + " " + r.body(), e);
                        }
                    }));
        }
        List<String> tokens = new ArrayList<>();
        for (CompletableFuture<String> f : futures) {
            tokens.add(f.join());
        }
        return tokens;
    }

    /**
     * Sends {@code count} POSTs to {@code url} with {@code inFlight} at most outstanding; {@code body}
     * makes the i-th body (stamped as it is sent). Returns the number of failed requests.
     */
    int send(String url, String credential, int count, int inFlight, IntFunction<String> body)
            throws InterruptedException {
        return send(url, credential, count, inFlight, body, 0);
    }

    /**
     * As {@link #send(String, String, int, int, IntFunction)}, and when {@code perSecond} is positive no faster
     * than that: the i-th request starts no sooner than i / perSecond seconds after the first.
     */
    int send(String url, String credential, int count, int inFlight, IntFunction<String> body, double perSecond)
            throws InterruptedException {
        Semaphore window = new Semaphore(inFlight);
        AtomicInteger failed = new AtomicInteger();
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            if (perSecond > 0) {
                long due = start + (long) (i * 1e9 / perSecond);
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
            }
            window.acquire();
            client.sendAsync(request(url, credential, body.apply(i)), HttpResponse.BodyHandlers.discarding())
                    .whenComplete((r, e) -> {
                        if (e != null || r.statusCode() / 100 != 2) {
                            failed.incrementAndGet();
                        }
                        window.release();
                    });
        }
        window.acquire(inFlight);
        return failed.get();
    }

    private static HttpRequest request(String url, String credential, String body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (credential.startsWith("sk_")) {
            builder.header("x-api-key", credential);
        } else if (credential.length() > 0) {
            builder.header("authorization", "Bearer " + credential);
        }
        return builder.build();
    }

    /** Returns the current time in microseconds since the epoch (the members compare it with their own clock). */
    static long epochMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
