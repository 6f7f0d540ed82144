package dev.svc.chat.reference.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.chat.reference.model.ThreadSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A root's thread summary as the SQL column {@code thread}: JSON, {@code lastReplyAt} in epoch milliseconds. */
final class ThreadColumns {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ThreadColumns() {
    }

    /** Returns the column's text of {@code summary}, null for none. */
    static String json(ThreadSummary summary) {
        if (summary == null) {
            return null;
        }
        ObjectNode node = MAPPER.createObjectNode();
        node.put("replyCount", summary.replyCount());
        if (summary.lastReplyAt() != null) {
            node.put("lastReplyAt", summary.lastReplyAt().toEpochMilli());
        }
        ArrayNode participants = node.putArray("participantIds");
        summary.participantIds().forEach(participants::add);
        return node.toString();
    }

    /** Returns the summary the column's text holds, null for none. */
    static ThreadSummary summary(String json) {
        if (json == null) {
            return null;
        }
        try {
            JsonNode node = MAPPER.readTree(json);
            JsonNode last = node.get("lastReplyAt");
            List<String> participants = new ArrayList<>();
            node.get("participantIds").forEach(p -> participants.add(p.asText()));
            return new ThreadSummary(node.get("replyCount").asInt(),
                    last == null ? null : Instant.ofEpochMilli(last.asLong()), participants);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
