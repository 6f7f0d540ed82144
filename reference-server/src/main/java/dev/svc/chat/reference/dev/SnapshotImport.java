package dev.svc.chat.reference.dev;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.service.SendInput;
import dev.svc.chat.reference.store.AppendResult;
import dev.svc.chat.reference.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads one tenant's part of a snapshot ({@link DevSnapshot}) into the store, idempotently: users are upserted,
 * rooms found by id (or, without one, by name) or created, and messages appended under their
 * {@code clientMessageId}, so a message already there is not added again. A message's edit, delete and
 * reactions are applied when it is first added. Nothing is published: clients see imported messages through
 * history and changes. Every field is checked as the REST API checks it (400 naming the field).
 */
public final class SnapshotImport {

    /**
     * What an import added.
     *
     * @param users users stored (new or updated)
     * @param rooms rooms created
     * @param messages messages added
     */
    public record Counts(int users, int rooms, int messages) {
    }

    private final Store store;
    private final ObjectMapper mapper;
    private final Clock clock;

    /** Creates the importer into {@code store}. */
    public SnapshotImport(Store store, ObjectMapper mapper, Clock clock) {
        this.store = store;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** Loads {@code tenant} (one element of a snapshot's {@code tenants}) into the tenant {@code tenantId}. */
    public Counts load(String tenantId, JsonNode tenant) {
        int users = 0;
        int rooms = 0;
        int messages = 0;
        Instant now = clock.instant();
        for (JsonNode user : array(tenant, "users")) {
            String userId = Inputs.userId(text(user, "userId"), "userId");
            String username = user.hasNonNull("username") ? Inputs.text(text(user, "username"), "username",
                    Inputs.MAX_USERNAME) : null;
            store.upsertUser(tenantId, userId, username, instant(user, "createdAt", now));
            users++;
        }
        for (JsonNode room : array(tenant, "rooms")) {
            List<String> members = new ArrayList<>();
            for (JsonNode member : array(room, "members")) {
                String userId = Inputs.userId(member.asText(null), "members");
                store.ensureUser(tenantId, userId, now);
                members.add(userId);
            }
            int before = store.rooms(tenantId).size();
            Room stored = room(tenantId, room, members, now);
            rooms += store.rooms(tenantId).size() - before;
            messages += messages(tenantId, stored, array(room, "messages"), now);
        }
        return new Counts(users, rooms, messages);
    }

    private Room room(String tenantId, JsonNode room, List<String> members, Instant now) {
        String name = room.hasNonNull("name") ? Inputs.text(text(room, "name"), "name", Inputs.MAX_ROOM_NAME) : null;
        Instant createdAt = instant(room, "createdAt", now);
        if (room.hasNonNull("id")) {
            String id = text(room, "id");
            if (!Inputs.isServerId(id)) {
                throw ApiException.badRequest("a room id must be a lower-case UUID: " + id);
            }
            return store.importRoom(tenantId, id, name, members, createdAt);
        }
        if (name == null) {
            throw ApiException.badRequest("a room needs an id or a name");
        }
        for (Room existing : store.rooms(tenantId)) {
            if (name.equals(existing.name())) {
                return store.addMembers(tenantId, existing.id(), members).orElseThrow();
            }
        }
        return store.createRoom(tenantId, name, members, createdAt);
    }

    private int messages(String tenantId, Room room, List<JsonNode> messages, Instant now) {
        int added = 0;
        int index = 0;
        for (JsonNode message : messages) {
            index++;
            ObjectNode fields = message.isObject() ? ((ObjectNode) message).deepCopy() : mapper.createObjectNode();
            if (!fields.has("clientMessageId")) {
                fields.put("clientMessageId", "import-" + index); // a seed's messages, in their order
            }
            if (!fields.has("parts") && fields.hasNonNull("text")) {
                fields.putArray("parts").addObject().put("type", "text").put("text", fields.get("text").asText());
            }
            Instant deletedAt = instant(fields, "deletedAt", null);
            if (deletedAt != null) {
                // A deleted message keeps no parts; it is added with a stand-in, then deleted.
                fields.putArray("parts").addObject().put("type", "text").put("text", "(deleted)");
            }
            SendInput input = SendInput.read(name -> SendInput.field(fields, name));
            String senderId = Inputs.userId(input.senderId(), "senderId");
            store.ensureUser(tenantId, senderId, now);
            AppendResult result = store.appendMessage(tenantId, room.id(), senderId, input.clientMessageId(),
                    input.parts(), instant(fields, "createdAt", now));
            if (!result.created()) {
                continue;
            }
            added++;
            Instant editedAt = instant(fields, "editedAt", null);
            Map<String, List<String>> reactions = reactions(fields.get("reactions"));
            if (editedAt != null || deletedAt != null || !reactions.isEmpty()) {
                Message m = result.message();
                store.replaceMessage(tenantId, new Message(m.id(), m.roomId(), m.seq(), m.rev(), m.senderId(),
                        deletedAt != null ? List.of() : m.parts(), m.clientMessageId(), m.createdAt(), editedAt,
                        deletedAt, deletedAt != null ? Map.of() : reactions));
            }
        }
        return added;
    }

    private static Map<String, List<String>> reactions(JsonNode node) {
        Map<String, List<String>> reactions = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return reactions;
        }
        if (!node.isObject()) {
            throw ApiException.badRequest("reactions must be an object of emoji to userIds");
        }
        node.fields().forEachRemaining(e -> {
            List<String> users = new ArrayList<>();
            for (JsonNode user : e.getValue()) {
                users.add(Inputs.userId(user.asText(null), "reactions"));
            }
            reactions.put(Inputs.text(e.getKey(), "emoji", Inputs.MAX_EMOJI), users);
        });
        return reactions;
    }

    private static List<JsonNode> array(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw ApiException.badRequest(field + " must be an array");
        }
        List<JsonNode> items = new ArrayList<>();
        ((ArrayNode) value).forEach(items::add);
        return items;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw ApiException.badRequest(field + " must be a string");
        }
        return value.textValue();
    }

    private static Instant instant(JsonNode node, String field, Instant otherwise) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return otherwise;
        }
        try {
            return Instant.parse(value.asText());
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(field + " must be an ISO-8601 instant: " + value.asText());
        }
    }
}
