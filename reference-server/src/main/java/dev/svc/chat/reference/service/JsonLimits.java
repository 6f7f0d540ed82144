package dev.svc.chat.reference.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;

/**
 * Names the Jackson limit a client's JSON went over, for the 400's message. Jackson reports every limit with
 * one exception type; its message says which ("Document nesting depth (33) exceeds the maximum allowed
 * (32, ...)"), and only its leading words are used: the numbers Jackson prints are not repeated verbatim.
 */
final class JsonLimits {

    private JsonLimits() {
    }

    /** Returns the 400 message for a limit Jackson refused. */
    static String describe(StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage());
        if (m.startsWith("Document nesting depth")) {
            return "JSON nested deeper than " + StrictJson.MAX_DEPTH + " levels";
        }
        if (m.startsWith("Number value length") || m.startsWith("Number length")) {
            return "JSON number longer than " + StrictJson.MAX_NUMBER_LENGTH + " characters";
        }
        if (m.startsWith("String value length") || m.startsWith("String length")) {
            return "JSON string longer than " + StrictJson.MAX_STRING_LENGTH + " characters";
        }
        if (m.startsWith("Name length")) {
            return "JSON field name longer than " + StrictJson.MAX_NAME_LENGTH + " characters";
        }
        if (m.startsWith("Document length")) {
            return "JSON document too large";
        }
        if (m.startsWith("Token count")) {
            return "JSON document has too many tokens";
        }
        return "JSON exceeds a parser limit";
    }

    /** Returns whether {@code e} is Jackson's STRICT_DUPLICATE_DETECTION refusal ("Duplicate field 'x'"). */
    static boolean isDuplicateKey(IOException e) {
        return e instanceof JsonProcessingException p && p.getOriginalMessage() != null
                && p.getOriginalMessage().startsWith("Duplicate field");
    }
}
