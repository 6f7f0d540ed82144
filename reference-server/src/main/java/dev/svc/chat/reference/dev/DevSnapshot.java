package dev.svc.chat.reference.dev;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.MessagePage;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.model.User;
import dev.svc.chat.reference.store.Store;
import dev.svc.chat.reference.store.PageRequest;
import java.time.Clock;
import java.time.Instant;

/**
 * A tenant's data as one JSON document, the format of {@code GET /v1/dev/export}, {@code POST /v1/dev/import}
 * and {@code --seed}: {@code {"format":"svc-chat-snapshot","version":1,"tenants":[{"id","users":[...],
 * "rooms":[{"id","name","members","createdAt","messages":[...]}]}]}} (docs/console.md has the fields). Never a
 * key or a secret. The reading side is {@link SnapshotImport}.
 */
public final class DevSnapshot {

    /** The value of the {@code format} field. */
    public static final String FORMAT = "svc-chat-snapshot";
    /** The version this server writes and reads. */
    public static final int VERSION = 1;

    private final Store store;
    private final ObjectMapper mapper;
    private final Clock clock;

    /** Creates the exporter over {@code store}. */
    public DevSnapshot(Store store, ObjectMapper mapper, Clock clock) {
        this.store = store;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** Returns the tenant's users, rooms and every message in the snapshot format. */
    public ObjectNode export(String tenantId) {
        ObjectNode root = mapper.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        root.put("exportedAt", clock.instant().toString());
        ObjectNode tenant = root.putArray("tenants").addObject();
        tenant.put("id", tenantId);
        ArrayNode users = tenant.putArray("users");
        for (User user : store.users(tenantId)) {
            ObjectNode u = users.addObject();
            u.put("userId", user.userId());
            if (user.username() != null) {
                u.put("username", user.username());
            }
            u.put("createdAt", user.createdAt().toString());
        }
        ArrayNode rooms = tenant.putArray("rooms");
        for (Room room : store.rooms(tenantId)) {
            ObjectNode r = rooms.addObject();
            r.put("id", room.id());
            if (room.name() != null) {
                r.put("name", room.name());
            }
            ArrayNode members = r.putArray("members");
            room.memberIds().forEach(members::add);
            r.put("createdAt", room.createdAt().toString());
            ArrayNode messages = r.putArray("messages");
            long after = 0;
            while (true) {
                MessagePage page = store.messages(tenantId, room.id(), new PageRequest(Inputs.MAX_PAGE, null, after));
                for (Message message : page.messages()) {
                    messages.add(message(message));
                    after = message.seq();
                }
                if (!page.hasMore() || page.messages().isEmpty()) {
                    break;
                }
            }
        }
        return root;
    }

    private ObjectNode message(Message message) {
        ObjectNode m = mapper.createObjectNode();
        m.put("seq", message.seq());
        m.put("senderId", message.senderId());
        m.put("clientMessageId", message.clientMessageId() != null ? message.clientMessageId() : message.id());
        ArrayNode parts = m.putArray("parts");
        message.parts().forEach(parts::add);
        m.put("createdAt", message.createdAt().toString());
        putInstant(m, "editedAt", message.editedAt());
        putInstant(m, "deletedAt", message.deletedAt());
        if (!message.reactions().isEmpty()) {
            m.set("reactions", mapper.valueToTree(message.reactions()));
        }
        return m;
    }

    private static void putInstant(ObjectNode node, String field, Instant value) {
        if (value != null) {
            node.put(field, value.toString());
        }
    }

    /** Throws 400 unless {@code root} is a snapshot of this format and version. */
    public static void checkFormat(JsonNode root) {
        if (root == null || !root.isObject() || !FORMAT.equals(root.path("format").asText())) {
            throw ApiException.badRequest("not a snapshot: format must be \"" + FORMAT + "\"");
        }
        if (root.path("version").asInt() != VERSION) {
            throw ApiException.badRequest("unsupported snapshot version (this server reads " + VERSION + ")");
        }
        if (!root.path("tenants").isArray()) {
            throw ApiException.badRequest("tenants must be an array");
        }
    }
}
