package dev.svc.chat.reference.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * A user of one tenant, as the contract's User shape: {@code {userId, username?, createdAt, updatedAt}}.
 *
 * @param userId the tenant-chosen id
 * @param username the display name, or null when none was given
 * @param createdAt when the user was first stored
 * @param updatedAt when the user last changed
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record User(String userId, String username, Instant createdAt, Instant updatedAt) {
}
