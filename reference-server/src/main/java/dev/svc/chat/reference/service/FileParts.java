package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.model.Message;
import java.util.List;

/**
 * What the service asks of the files of contract section 9: a message's {@code file} parts filled in from the
 * stored bytes, and each stored message that references a file made known, so that its room's members may
 * read it. The service knows no more of files; the reference server's {@code files} package implements it.
 */
public interface FileParts {

    /** Keeps every part as it came: for a service without files (tests of other parts). */
    FileParts OPAQUE = new FileParts() {
        @Override
        public List<JsonNode> resolve(Principal sender, List<JsonNode> parts) {
            return parts;
        }

        @Override
        public void referenced(String tenantId, Message message) {
        }
    };

    /**
     * Returns the parts with each {@code file} part replaced by the stored part of the file it names, else
     * throws 400 {@code bad_request} naming the part: a file that is unknown, unfinished, of another tenant or
     * uploaded by another user than the sender.
     */
    List<JsonNode> resolve(Principal sender, List<JsonNode> parts);

    /** Records that {@code message}, now stored, holds the file parts it holds (it may hold none). */
    void referenced(String tenantId, Message message);

    /** Returns {@link #resolve}'s parts as the immutable copies a stored message keeps. */
    default List<JsonNode> resolveStored(Principal sender, List<JsonNode> parts) {
        List<JsonNode> stored = new java.util.ArrayList<>(parts.size());
        for (JsonNode part : resolve(sender, parts)) {
            stored.add(PartFields.storedCopy(part));
        }
        return stored;
    }

    /** Returns whether any of the parts is a {@code file} part. */
    static boolean anyFile(List<JsonNode> parts) {
        for (JsonNode part : parts) {
            if ("file".equals(part.path("type").asText(null))) {
                return true;
            }
        }
        return false;
    }
}
