package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.contract.Inputs;
import java.util.List;
import java.util.function.Function;

/**
 * The fields of a send, read and checked the same way for REST ({@code POST .../messages}) and the gateway's
 * {@code send-message}: 1 to 10 valid parts, a required {@code clientMessageId} of 1 to 64 characters without
 * control characters, an optional {@code senderId} string (checked against the token by the service), and
 * section 10's optional {@code replyToId} and {@code threadId} strings and {@code mentions} array (what they
 * name is checked by the service, {@link ThreadRules}).
 *
 * @param parts the validated parts (deep copies)
 * @param clientMessageId the client's id of the send
 * @param senderId the sender the body named, or null
 * @param replyToId the message it answers, or null
 * @param threadId the root of the thread it is a reply in, or null
 * @param mentions the distinct user ids it mentions, or null when the body has none
 */
public record SendInput(List<JsonNode> parts, String clientMessageId, String senderId, String replyToId,
                        String threadId, List<String> mentions) {

    /** Creates the input of a send that answers none, is in no thread and mentions nobody. */
    public SendInput(List<JsonNode> parts, String clientMessageId, String senderId) {
        this(parts, clientMessageId, senderId, null, null, null);
    }

    /**
     * Reads the fields through {@code field}, which returns a field's node or null when it is absent or JSON
     * {@code null}; throws 400 for any field that is not valid.
     */
    public static SendInput read(Function<String, JsonNode> field) {
        List<JsonNode> parts = MessageParts.validate(field.apply("parts"));
        JsonNode id = field.apply("clientMessageId");
        if (id == null) {
            throw ApiException.badRequest("clientMessageId is required");
        }
        if (!id.isTextual()) {
            throw ApiException.badRequest("clientMessageId must be a string");
        }
        String clientMessageId = Inputs.id(Inputs.text(id.textValue(), "clientMessageId",
                Inputs.MAX_CLIENT_MESSAGE_ID), "clientMessageId");
        JsonNode sender = field.apply("senderId");
        if (sender != null && !sender.isTextual()) {
            throw ApiException.badRequest("senderId must be a string");
        }
        return new SendInput(parts, clientMessageId, sender == null ? null : sender.textValue(),
                ThreadRules.optionalId(field.apply("replyToId"), "replyToId"),
                ThreadRules.optionalId(field.apply("threadId"), "threadId"),
                ThreadRules.mentions(field.apply("mentions")));
    }

    /** Returns the field of a JSON object, null when absent, JSON {@code null}, or {@code object} is no object. */
    public static JsonNode field(JsonNode object, String name) {
        JsonNode value = object != null && object.isObject() ? object.get(name) : null;
        return value == null || value.isNull() ? null : value;
    }
}
