/**
 * The server SDK ({@code svc-chat-server-sdk}), for tenant backends and bots only, never in apps:
 * {@link dev.svc.chat.server.ServerClient} calls the service's API-key routes (contract section 3): it mints
 * session tokens, upserts and gets users, creates rooms and manages their members, and reads and changes the
 * tenant's settings, blocking or asynchronously. {@link dev.svc.chat.server.WebhookVerifier} checks and parses
 * the service's webhooks (contract section 6).
 *
 * <p>The API key ({@code sk_...}) must never appear in a browser, an app bundle or a public environment:
 * a backend mints a session token for its signed-in user and hands only that token to the app, whose client
 * ({@code svc-chat-sdk-core}) holds no API-key code at all. This artifact does not depend on the client.
 *
 * <p>Every parameter, return value and field in this package is non-null unless it is annotated
 * {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package dev.svc.chat.server;

import org.jspecify.annotations.NullMarked;
