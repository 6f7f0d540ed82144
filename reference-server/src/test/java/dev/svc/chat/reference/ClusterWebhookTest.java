package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Webhooks on a cluster (the PostgreSQL run only): each delivery is claimed in the database before each
 * attempt, so several servers on one schema deliver each webhook once, retries included, a server that starts
 * while others have retries pending takes none of them, and a delivery whose server died mid-attempt is taken
 * over by another once its lease ran out.
 */
class ClusterWebhookTest {

    private static final String KEY = "sk_test_hooks_0123456789";

    private String schema;
    private EmbeddedPg pg;
    private HttpServer receiver;
    /** webhook-id -> requests received, and 2xx answered. */
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> acknowledged = new ConcurrentHashMap<>();
    /** What the receiver does with a webhook's first request: "fail" (500) or "hang" (until released). */
    private volatile String firstRequest = "fail";
    private final CountDownLatch hanging = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void setUp() throws IOException {
        assumeTrue("postgres".equals(Backends.current()), "needs the PostgreSQL backend");
        schema = "hooks_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
        pg = EmbeddedPg.shared();
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.setExecutor(Executors.newCachedThreadPool());
        receiver.createContext("/hooks", exchange -> {
            exchange.getRequestBody().readAllBytes();
            String id = exchange.getRequestHeaders().getFirst("webhook-id");
            int n = requests.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
            int status = 200;
            if (n == 1 && "fail".equals(firstRequest)) {
                status = 500;
            } else if (n == 1 && "hang".equals(firstRequest)) {
                hanging.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                status = 500;
            }
            if (status == 200) {
                acknowledged.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void tearDown() {
        release.countDown();
        if (receiver != null) {
            receiver.stop(0);
            ((java.util.concurrent.ExecutorService) receiver.getExecutor()).shutdownNow();
        }
    }

    @Test
    void twoServersDeliverEachWebhookOnceWithRetriesAndAThirdStartingMeanwhileDuplicatesNone() throws Exception {
        try (ReferenceServer nodeA = node(); ReferenceServer nodeB = node()) {
            Http httpA = new Http(nodeA);
            Http httpB = new Http(nodeB);
            pointWebhooksAtReceiver(httpA);
            String room = httpA.createRoom(KEY, "alice", "bob");
            String alice = httpA.mint(KEY, "alice");
            int sent = 0;
            for (int i = 0; i < 6; i++) {
                assertEquals(201, (i % 2 == 0 ? httpA : httpB).sendText(alice, room, "m" + i, "hello " + i).status());
                sent++;
            }
            int expected = sent;
            // every first attempt failed (500): retries are pending when a third server starts on the schema
            Conditions.until("every webhook's first attempt", () -> requests.size() >= expected);
            try (ReferenceServer nodeC = node()) {
                assertEquals(201, new Http(nodeC).sendText(alice, room, "m-c", "through C").status());
                Conditions.until("every webhook acknowledged", () -> acknowledged.size() >= expected + 1);
            }
            for (Map.Entry<String, AtomicInteger> e : acknowledged.entrySet()) {
                assertEquals(1, e.getValue().get(), "webhook " + e.getKey() + " acknowledged more than once");
                assertEquals(2, requests.get(e.getKey()).get(), "webhook " + e.getKey() + ": one failure, one success");
            }
        }
    }

    @Test
    void aDeliveryWhoseServerDiedMidAttemptIsTakenOverWhenItsLeaseRunsOut() throws Exception {
        firstRequest = "hang";
        try (ReferenceServer survivor = node()) {
            Http http = new Http(survivor);
            pointWebhooksAtReceiver(http);
            String room = http.createRoom(KEY, "alice", "bob");
            String alice = http.mint(KEY, "alice");
            ReferenceServer dying = node();
            try {
                assertEquals(201, new Http(dying).sendText(alice, room, "m", "hello").status());
                assertTrue(hanging.await(20, TimeUnit.SECONDS), "the dying server's attempt reached the receiver");
            } finally {
                dying.close(); // mid-attempt: its claim stays in the database until its lease runs out
            }
            Conditions.until("the survivor delivered it", () -> acknowledged.size() == 1);
            String id = acknowledged.keySet().iterator().next();
            assertEquals(1, acknowledged.get(id).get());
            assertEquals(2, requests.get(id).get(), "the dying server's attempt, then the survivor's");
        }
    }

    private void pointWebhooksAtReceiver(Http http) {
        Http.Response r = http.apiKey("PATCH", "/v1/tenant/settings", KEY,
                Map.of("webhookUrl", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks"));
        assertEquals(200, r.status(), r.json().toString());
    }

    private ReferenceServer node() {
        return ReferenceServer.builder().apiKey(KEY).webhookRetries(4, Duration.ofMillis(200))
                .webhookLease(Duration.ofSeconds(2)).databaseUrl(pg.jdbcUrl(), pg.user(), null)
                .databaseSchema(schema).build().start();
    }
}
