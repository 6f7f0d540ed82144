package dev.svc.chat.reference.service;

import dev.svc.chat.reference.model.Call;
import dev.svc.chat.reference.model.JsonText;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.webhook.WebhookDispatcher;
import java.util.Map;

/**
 * An {@link EventPublisher} that hands every realtime event to the gateway and derives what else an event
 * causes: a {@code new-message} records pushes for offline members, and the events the contract lists become
 * webhooks ({@code new-message} to {@code message.new}, {@code message-updated} to {@code message.updated},
 * {@code room-read} to {@code room.read}, {@code call-invite} to {@code call.started}, {@code call-ended} to
 * {@code call.ended}). Update paths that publish these events get their webhooks without further code.
 * Like the gateway it only enqueues, so it may be called with a room lock held.
 */
public final class NotifyingPublisher implements EventPublisher {

    private static final Map<String, String> WEBHOOK_TYPES = Map.of(
            ChatService.NEW_MESSAGE, WebhookDispatcher.MESSAGE_NEW,
            MessageActions.MESSAGE_UPDATED, WebhookDispatcher.MESSAGE_UPDATED,
            MessageActions.ROOM_READ, WebhookDispatcher.ROOM_READ,
            CallService.CALL_INVITE, WebhookDispatcher.CALL_STARTED,
            CallService.CALL_ENDED, WebhookDispatcher.CALL_ENDED);

    private final EventPublisher gateway;
    private final PushService push;
    private final WebhookDispatcher webhooks;

    /** Creates a publisher that forwards to {@code gateway} first. */
    public NotifyingPublisher(EventPublisher gateway, PushService push, WebhookDispatcher webhooks) {
        this.gateway = gateway;
        this.push = push;
        this.webhooks = webhooks;
    }

    @Override
    public void toRoomMembers(String tenantId, Room room, String event, Object payload) {
        gateway.toRoomMembers(tenantId, room, event, payload);
        derived(tenantId, room, event, payload, payload);
    }

    /** As the other, the webhook's {@code data} being the caller's encoding of the payload, written as it is. */
    @Override
    public void toRoomMembers(String tenantId, Room room, String event, Object payload, String payloadJson) {
        gateway.toRoomMembers(tenantId, room, event, payload, payloadJson);
        derived(tenantId, room, event, payload, new JsonText(payloadJson));
    }

    @Override
    public void callChanged(String tenantId, Room room, String event, Call call, long version) {
        gateway.callChanged(tenantId, room, event, call, version);
        derived(tenantId, room, event, call, call);
    }

    private void derived(String tenantId, Room room, String event, Object payload, Object webhookData) {
        if (ChatService.NEW_MESSAGE.equals(event) && payload instanceof Message message) {
            push.onNewMessage(tenantId, room, message);
        }
        String type = WEBHOOK_TYPES.get(event);
        if (type != null) {
            webhooks.emit(tenantId, type, webhookData);
        }
    }

    @Override
    public void memberRemoved(String tenantId, String roomId, String userId) {
        gateway.memberRemoved(tenantId, roomId, userId);
    }
}
