package dev.svc.chat.reference.dev;

import dev.svc.chat.reference.model.Call;
import dev.svc.chat.reference.model.JsonText;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.EventPublisher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dev API's place between the services and the realtime side: every room event goes on to the gateway
 * (less the users whose fan-out a fault drops, {@link DevFanOutDrops}) and, when a console of the tenant is
 * connected, to the dev channel as {@code room-event} {@code {event, roomId, seq, rev, data}} (and, when a
 * drop took effect, {@code fan-out-drops}). It only enqueues, as an
 * {@link EventPublisher} must (it is called with the room's lock held).
 */
public final class DevEvents implements EventPublisher {

    /** The dev channel's event carrying a room event. */
    public static final String ROOM_EVENT = "room-event";
    /** The dev channel's event of the fan-out drops in force, after one dropped an event. */
    public static final String FAN_OUT_DROPS = "fan-out-drops";

    private final EventPublisher gateway;
    private final DevFanOutDrops drops;
    private final DevChannel channel;

    /** Creates the tap in front of {@code gateway}. */
    public DevEvents(EventPublisher gateway, DevFanOutDrops drops, DevChannel channel) {
        this.gateway = gateway;
        this.drops = drops;
        this.channel = channel;
    }

    @Override
    public void toRoomMembers(String tenantId, Room room, String event, Object payload) {
        gateway.toRoomMembers(tenantId, reached(tenantId, room), event, payload);
        watch(tenantId, room, event, payload);
    }

    @Override
    public void toRoomMembers(String tenantId, Room room, String event, Object payload, String payloadJson) {
        gateway.toRoomMembers(tenantId, reached(tenantId, room), event, payload, payloadJson);
        watch(tenantId, room, event, new JsonText(payloadJson));
    }

    @Override
    public void callChanged(String tenantId, Room room, String event, Call call, long version) {
        gateway.callChanged(tenantId, reached(tenantId, room), event, call, version);
        watch(tenantId, room, event, call);
    }

    @Override
    public void memberRemoved(String tenantId, String roomId, String userId) {
        gateway.memberRemoved(tenantId, roomId, userId);
    }

    /** Returns the room as the gateway is to see it: without the members whose fan-out is dropped. */
    private Room reached(String tenantId, Room room) {
        if (!drops.any()) {
            return room;
        }
        List<String> dropped = drops.take(tenantId, room.memberIds());
        if (dropped.isEmpty()) {
            return room;
        }
        if (channel.watched(tenantId)) {
            channel.publish(tenantId, FAN_OUT_DROPS, Map.of("fanOutDrops", drops.list(tenantId)));
        }
        List<String> members = new ArrayList<>(room.memberIds());
        members.removeAll(dropped);
        return new Room(room.id(), room.name(), members, room.createdAt(), room.lastMessageSeq(),
                room.lastMessageAt(), room.rev());
    }

    private void watch(String tenantId, Room room, String event, Object data) {
        if (!channel.watched(tenantId)) {
            return;
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("event", event);
        payload.put("roomId", room.id());
        payload.put("seq", room.lastMessageSeq());
        payload.put("rev", room.rev());
        payload.put("data", data);
        channel.publish(tenantId, ROOM_EVENT, payload);
    }
}
