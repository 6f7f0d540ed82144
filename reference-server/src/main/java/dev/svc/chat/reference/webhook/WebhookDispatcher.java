package dev.svc.chat.reference.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.model.Json;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.store.PendingWebhook;
import dev.svc.chat.reference.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers webhooks to a tenant's {@code webhookUrl} (contract section 6). {@link #emit} only schedules and
 * returns at once, so chat never waits for a receiver. A delivery is a POST of {@code {type, timestamp, data}}
 * with the Standard Webhooks headers; a non-2xx answer or an I/O error is retried with the same
 * {@code webhook-id} and body, re-signed with a fresh {@code webhook-timestamp}, after {@code firstDelay},
 * then 5 times longer each attempt, up to {@code maxAttempts} attempts in all.
 *
 * <p>With several servers on one database each attempt is first claimed ({@link WebhookClaims}): a
 * delivery is attempted by one server at a time, and {@link #resume()} takes over only what no server holds.
 */
public final class WebhookDispatcher {

    /** Event type of a new message. */
    public static final String MESSAGE_NEW = "message.new";
    /** Event type of an edited, reacted-to or deleted message. */
    public static final String MESSAGE_UPDATED = "message.updated";
    /** Event type of a read receipt that moved. */
    public static final String ROOM_READ = "room.read";
    /** Event type of a call that started ringing. */
    public static final String CALL_STARTED = "call.started";
    /** Event type of a call that ended (hung up, left, declined or missed). */
    public static final String CALL_ENDED = "call.ended";

    private static final Logger LOG = LoggerFactory.getLogger(WebhookDispatcher.class);
    private static final int BACKOFF_FACTOR = 5;
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int READ_TIMEOUT_MS = 10_000;

    private final ObjectMapper mapper;
    private final Store store;
    private final Clock clock;
    private final Function<String, TenantSettings> settings;
    private final ScheduledExecutorService executor;
    private final int maxAttempts;
    private final Duration firstDelay;
    private final java.util.Set<HttpURLConnection> inFlight = java.util.concurrent.ConcurrentHashMap.newKeySet();
    // the deliveries scheduled here and not finished (count of tasks), so that resume() never schedules one twice
    private final Map<String, Integer> scheduled = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile WebhookClaims claims = WebhookClaims.ALONE;
    private volatile WebhookObserver observer = WebhookObserver.NONE;
    private volatile Duration lease = Duration.ofSeconds(30);
    private volatile boolean closed;

    /**
     * Creates a dispatcher.
     *
     * @param store keeps each webhook until it is delivered or given up, so that {@link #resume()} after a
     *     restart goes on with what was pending
     * @param settings the current settings of a tenant id (read when an event is emitted)
     * @param executor runs deliveries and retries; owned by the caller
     * @param maxAttempts attempts per webhook, at least 1
     * @param firstDelay the wait before the first retry
     */
    public WebhookDispatcher(ObjectMapper mapper, Store store, Clock clock, Function<String, TenantSettings> settings,
                             ScheduledExecutorService executor, int maxAttempts, Duration firstDelay) {
        this.mapper = mapper;
        this.store = store;
        this.clock = clock;
        this.settings = settings;
        this.executor = executor;
        this.maxAttempts = maxAttempts;
        this.firstDelay = firstDelay;
    }

    /**
     * Claims every attempt through {@code claims} first, each for {@code lease} (longer than an attempt can
     * take); called before the server starts, on a cluster.
     */
    public void claimWith(WebhookClaims claims, Duration lease) {
        this.claims = claims;
        this.lease = lease;
    }

    /** Tells {@code observer} about every delivery and attempt from now on; called before the server starts. */
    public void observe(WebhookObserver observer) {
        this.observer = observer;
    }

    /**
     * Queues a webhook of {@code type} with {@code data} for the tenant, if it has a {@code webhookUrl}. Never
     * blocks and never throws for a delivery problem. Other update paths (edits, reactions, receipts) call
     * this, or publish their realtime event, which {@code WebhookEvents} turns into a webhook.
     */
    public void emit(String tenantId, String type, Object data) {
        TenantSettings current = settings.apply(tenantId);
        if (current == null || current.webhookUrl() == null || current.webhookSecret() == null) {
            return;
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("type", type);
        envelope.put("timestamp", Json.timestamp(now));
        envelope.put("data", data);
        String body;
        try {
            body = mapper.writeValueAsString(envelope);
        } catch (JsonProcessingException e) {
            LOG.error("cannot serialize a {} webhook", type, e);
            return;
        }
        Delivery delivery = new Delivery("msg_" + UUID.randomUUID().toString().replace("-", ""), tenantId, type,
                current.webhookUrl(), WebhookSigner.of(current.webhookSecret()), body);
        observer.queued(tenantId, delivery.id, type, body, now, false);
        store.putWebhook(delivery.pending(1, now));
        schedule(delivery, 1, 0);
    }

    /**
     * Delivers webhook {@code id} of the tenant again, as a new series of attempts with the same
     * {@code webhook-id} and body (a receiver sees a duplicate, as after a lost answer), to the tenant's current
     * {@code webhookUrl}, signed with its current secret. Returns false when the tenant has no webhook URL.
     */
    public boolean redeliver(String tenantId, String id, String type, String body) {
        TenantSettings current = settings.apply(tenantId);
        if (current == null || current.webhookUrl() == null || current.webhookSecret() == null) {
            return false;
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Delivery delivery = new Delivery(id, tenantId, type, current.webhookUrl(),
                WebhookSigner.of(current.webhookSecret()), body);
        observer.queued(tenantId, id, type, body, now, true);
        store.putWebhook(delivery.pending(1, now));
        schedule(delivery, 1, 0);
        return true;
    }

    /**
     * Schedules the deliveries a previous run of the server left pending (none in memory), each when it is
     * due, signed with its tenant's current webhook secret.
     */
    public void resume() {
        Instant now = clock.instant();
        for (PendingWebhook pending : claims.takeable(store.pendingWebhooks())) {
            if (scheduled.containsKey(pending.id())) {
                continue;
            }
            TenantSettings current = settings.apply(pending.tenantId());
            if (current == null || current.webhookSecret() == null) {
                store.removeWebhook(pending.id());
                continue;
            }
            Delivery delivery = new Delivery(pending.id(), pending.tenantId(), pending.type(), pending.url(),
                    WebhookSigner.of(current.webhookSecret()), pending.body());
            schedule(delivery, pending.attempt(), Math.max(0, Duration.between(now, pending.dueAt()).toMillis()));
        }
    }

    /**
     * Stops delivering: aborts requests in flight (a hanging receiver cannot hold a thread past close) and
     * drops the rest. The executor is the caller's to shut down.
     */
    public void close() {
        closed = true;
        for (HttpURLConnection c : inFlight) {
            c.disconnect();
        }
    }

    private void schedule(Delivery delivery, int attempt, long delayMillis) {
        scheduled.merge(delivery.id, 1, Integer::sum);
        try {
            executor.schedule(() -> {
                try {
                    attempt(delivery, attempt);
                } finally {
                    unscheduled(delivery.id);
                }
            }, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            unscheduled(delivery.id);
            // The server is closing: pending webhooks are dropped, as a restart of the service would.
        }
    }

    private void unscheduled(String id) {
        scheduled.computeIfPresent(id, (k, n) -> n > 1 ? n - 1 : null);
    }

    private void attempt(Delivery delivery, int attempt) {
        if (closed || !claims.claim(delivery.id, clock.instant().plus(lease))) {
            return; // another server holds it (or it is done)
        }
        String outcome = send(delivery);
        if (outcome == null) {
            store.removeWebhook(delivery.id);
            observer.attempted(delivery.tenantId, delivery.id, attempt, clock.instant(), null, null);
            return;
        }
        if (closed) {
            return;
        }
        if (attempt >= maxAttempts) {
            store.removeWebhook(delivery.id);
            observer.attempted(delivery.tenantId, delivery.id, attempt, clock.instant(), outcome, null);
            LOG.warn("webhook {} ({}) to the tenant's webhookUrl gave up after {} attempts: {}",
                    delivery.id, delivery.type, attempt, outcome);
            return;
        }
        long delay = firstDelay.toMillis();
        for (int i = 1; i < attempt; i++) {
            delay = Math.min(delay * BACKOFF_FACTOR, TimeUnit.HOURS.toMillis(1));
        }
        LOG.info("webhook {} attempt {} failed ({}); retrying in {} ms", delivery.id, attempt, outcome, delay);
        Instant due = clock.instant().plusMillis(delay);
        observer.attempted(delivery.tenantId, delivery.id, attempt, clock.instant(), outcome, due);
        store.putWebhook(delivery.pending(attempt + 1, due));
        claims.claim(delivery.id, due.plus(lease)); // still this server's until its retry is due and made
        schedule(delivery, attempt + 1, delay);
    }

    /** Sends once; returns null on a 2xx answer, else what went wrong. */
    private String send(Delivery delivery) {
        long timestamp = clock.instant().getEpochSecond();
        HttpURLConnection connection = null;
        try {
            connection = (HttpURLConnection) new URL(delivery.url).openConnection();
            inFlight.add(connection);
            if (closed) {
                return "closed";
            }
            connection.setConnectTimeout(CONNECT_TIMEOUT_MS);
            connection.setReadTimeout(READ_TIMEOUT_MS);
            connection.setInstanceFollowRedirects(false);
            connection.setRequestMethod("POST");
            connection.setDoOutput(true);
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setRequestProperty("User-Agent", "svc-chat-reference-server-webhooks");
            connection.setRequestProperty("webhook-id", delivery.id);
            connection.setRequestProperty("webhook-timestamp", Long.toString(timestamp));
            connection.setRequestProperty("webhook-signature", delivery.signer.sign(delivery.id, timestamp, delivery.body));
            byte[] bytes = delivery.body.getBytes(StandardCharsets.UTF_8);
            connection.setFixedLengthStreamingMode(bytes.length);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(bytes);
            }
            int status = connection.getResponseCode();
            drain(connection, status);
            return status >= 200 && status < 300 ? null : "HTTP " + status;
        } catch (IOException | RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        } finally {
            if (connection != null) {
                inFlight.remove(connection);
                connection.disconnect();
            }
        }
    }

    private static void drain(HttpURLConnection connection, int status) throws IOException {
        try (InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream()) {
            if (in != null) {
                in.skip(Long.MAX_VALUE);
            }
        }
    }

    private record Delivery(String id, String tenantId, String type, String url, WebhookSigner signer,
                            String body) {
        PendingWebhook pending(int attempt, Instant dueAt) {
            return new PendingWebhook(id, tenantId, type, url, body, attempt, dueAt);
        }
    }
}
