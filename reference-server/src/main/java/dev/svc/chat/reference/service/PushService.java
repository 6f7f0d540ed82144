package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.model.DeviceToken;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.PushRecord;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Push device tokens per user, and the push outbox: for each new message, one record per device token of
 * every member other than the sender who has no open session-token connection. Nothing is sent to FCM or
 * APNs; the tenant backend reads the outbox to test its push flow. The outbox keeps the latest
 * {@value #OUTBOX_LIMIT} records per tenant.
 */
public final class PushService {

    /** Records kept per tenant; older ones are dropped first. */
    public static final int OUTBOX_LIMIT = 1000;
    /** Device tokens are 1 to 4,096 of these characters (FCM and APNs tokens fit; they travel in a path). */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_\\-.:+=~]{1,4096}");
    private static final int MAX_BODY = 200;

    private final Store store;
    private final Clock clock;
    private final PresenceDirectory online;
    /** tenant \0 token -> registration; a token moves to whoever registers it last (a shared device). */
    private final Map<String, DeviceToken> devices = new ConcurrentHashMap<>();
    /** tenant \0 userId -> that user's registrations, kept in step with {@link #devices} under this lock. */
    private final Map<String, Map<String, DeviceToken>> byUser = new ConcurrentHashMap<>();
    private final Map<String, Deque<PushRecord>> outbox = new ConcurrentHashMap<>();

    /** Creates the service; {@code online} says who would get the message over the gateway instead. */
    public PushService(Store store, Clock clock, PresenceDirectory online) {
        this.store = store;
        this.clock = clock;
        this.online = online;
    }

    /** Returns whether {@code token} is a well-formed device token. */
    public static boolean isToken(String token) {
        return token != null && TOKEN.matcher(token).matches();
    }

    /** Registers (or moves to this user) a device token. */
    public DeviceToken register(Principal principal, String token, String platform) {
        String tenantId = principal.tenantId();
        DeviceToken device = new DeviceToken(token, platform, principal.userId());
        synchronized (devices) {
            DeviceToken previous = devices.put(key(tenantId, token), device);
            if (previous != null) {
                forget(tenantId, previous);
            }
            byUser.computeIfAbsent(key(tenantId, device.userId()), k -> new ConcurrentHashMap<>()).put(token, device);
        }
        return device;
    }

    /** Forgets a device token of the principal's; another user's token or an unknown one is left alone. */
    public void unregister(Principal principal, String token) {
        String tenantId = principal.tenantId();
        synchronized (devices) {
            DeviceToken d = devices.get(key(tenantId, token));
            if (d != null && d.userId().equals(principal.userId())) {
                devices.remove(key(tenantId, token));
                forget(tenantId, d);
            }
        }
    }

    private void forget(String tenantId, DeviceToken device) {
        byUser.computeIfPresent(key(tenantId, device.userId()), (k, tokens) -> {
            tokens.remove(device.token());
            return tokens.isEmpty() ? null : tokens;
        });
    }

    /** Records the pushes a new message would cause. Called with the room lock held: it only appends. */
    public void onNewMessage(String tenantId, Room room, Message message) {
        List<PushRecord> records = new ArrayList<>();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        for (String member : room.memberIds()) {
            Map<String, DeviceToken> tokens = byUser.get(key(tenantId, member));
            if (tokens == null || member.equals(message.senderId()) || online.isOnline(tenantId, member)) {
                continue;
            }
            for (DeviceToken d : tokens.values()) {
                records.add(new PushRecord(UUID.randomUUID().toString(), d.userId(), d.token(), d.platform(),
                    room.id(), message.id(), message.senderId(), title(tenantId, message.senderId()),
                    body(message), now));
            }
        }
        if (records.isEmpty()) {
            return;
        }
        Deque<PushRecord> queue = outbox.computeIfAbsent(tenantId, k -> new ArrayDeque<>());
        synchronized (queue) {
            for (PushRecord r : records) {
                queue.addLast(r);
                if (queue.size() > OUTBOX_LIMIT) {
                    queue.removeFirst();
                }
            }
        }
    }

    /** Returns the tenant's recorded pushes, oldest first, only those to {@code userId} unless it is null. */
    public List<PushRecord> outbox(String tenantId, String userId) {
        Deque<PushRecord> queue = outbox.get(tenantId);
        List<PushRecord> out = new ArrayList<>();
        if (queue == null) {
            return out;
        }
        synchronized (queue) {
            for (PushRecord r : queue) {
                if (userId == null || r.userId().equals(userId)) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** Empties the tenant's outbox. */
    public void clearOutbox(String tenantId) {
        Deque<PushRecord> queue = outbox.get(tenantId);
        if (queue != null) {
            synchronized (queue) {
                queue.clear();
            }
        }
    }

    private String title(String tenantId, String senderId) {
        return store.user(tenantId, senderId).map(u -> u.username() != null ? u.username() : senderId)
                .orElse(senderId);
    }

    private static String body(Message message) {
        for (JsonNode part : message.parts()) {
            if ("text".equals(part.path("type").asText()) && part.path("text").isTextual()) {
                String text = part.path("text").textValue();
                return text.codePointCount(0, text.length()) <= MAX_BODY
                        ? text : text.substring(0, text.offsetByCodePoints(0, MAX_BODY - 1)) + "\u2026";
            }
        }
        return "New message";
    }

    private static String key(String tenantId, String token) {
        return tenantId + '\u0000' + token;
    }
}
