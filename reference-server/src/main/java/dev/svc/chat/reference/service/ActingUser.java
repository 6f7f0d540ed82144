package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import java.util.function.Function;

/**
 * Seed rule 10: a session token acts as its own user only. A request body or event payload that names a user
 * ({@code userId} or {@code senderId}) must name the token's user: another one is 403 {@code forbidden}
 * "Cannot act as another user", never ignored, so that a client that believes it speaks for someone else
 * learns it does not. An API-key principal is nobody and is not checked here.
 */
public final class ActingUser {

    private static final String[] FIELDS = {"userId", "senderId"};

    private ActingUser() {
    }

    /**
     * Throws 400 if a naming field is not a string, 403 if it names another user than {@code principal}'s;
     * {@code field} returns a field's node, or null when absent or JSON {@code null}.
     */
    public static void require(Principal principal, Function<String, JsonNode> field) {
        require(principal, field, () -> { });
    }

    /**
     * As {@link #require(Principal, Function)}, for a request about a room: when the body names another user,
     * {@code existence} runs first and throws 404 if the room is unknown, since the contract answers existence
     * before permission. It runs only then, so a request that names nobody costs no extra lookup.
     */
    public static void require(Principal principal, Function<String, JsonNode> field, Runnable existence) {
        if (principal.isApiKey()) {
            return;
        }
        for (String name : FIELDS) {
            JsonNode value = field.apply(name);
            if (value == null) {
                continue;
            }
            if (!value.isTextual()) {
                throw ApiException.badRequest(name + " must be a string");
            }
            if (!value.textValue().equals(principal.userId())) {
                existence.run();
                throw ApiException.impersonation();
            }
        }
    }
}
