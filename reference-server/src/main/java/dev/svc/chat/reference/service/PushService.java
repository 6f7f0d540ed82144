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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
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
        DeviceToken device = new DeviceToken(token, platform, principal.userId());
        store.putDeviceToken(principal.tenantId(), device);
        return device;
    }

    /** Forgets a device token of the principal's; another user's token or an unknown one is left alone. */
    public void unregister(Principal principal, String token) {
        store.removeDeviceToken(principal.tenantId(), principal.userId(), token);
    }

    /** Records the pushes a new message would cause. Called with the room lock held: it only appends. */
    public void onNewMessage(String tenantId, Room room, Message message) {
        List<PushRecord> records = new ArrayList<>();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        List<String> offline = new ArrayList<>();
        for (String member : room.memberIds()) {
            if (!member.equals(message.senderId()) && !online.isOnline(tenantId, member)) {
                offline.add(member);
            }
        }
        if (offline.isEmpty()) {
            return;
        }
        List<DeviceToken> devices = store.deviceTokens(tenantId, offline); // one read for the whole room
        if (devices.isEmpty()) {
            return;
        }
        String title = title(tenantId, message.senderId()); // the same for every device: read once
        String body = body(message);
        for (DeviceToken d : devices) {
            records.add(new PushRecord(UUID.randomUUID().toString(), d.userId(), d.token(), d.platform(),
                room.id(), message.id(), message.senderId(), title, body, now));
        }
        if (!records.isEmpty()) {
            store.appendPushes(tenantId, records, OUTBOX_LIMIT);
        }
    }

    /** Returns the tenant's recorded pushes, oldest first, only those to {@code userId} unless it is null. */
    public List<PushRecord> outbox(String tenantId, String userId) {
        return store.pushes(tenantId, userId);
    }

    /** Empties the tenant's outbox. */
    public void clearOutbox(String tenantId) {
        store.clearPushes(tenantId);
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
}
