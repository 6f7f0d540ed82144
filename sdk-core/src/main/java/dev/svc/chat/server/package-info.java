/**
 * For tenant backends and bots only, never in apps: calls of the service's API-key routes (contract
 * section 3): {@link dev.svc.chat.server.ServerClient} mints session tokens, upserts and gets users, creates
 * rooms and manages their members, and reads and changes the tenant's settings.
 *
 * <p>The API key ({@code sk_...}) must never appear in a browser, an app bundle or a public environment:
 * a backend mints a session token for its signed-in user and hands only that token to the app.
 *
 * <p>Every parameter, return value and field in this package is non-null unless it is annotated
 * {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package dev.svc.chat.server;

import org.jspecify.annotations.NullMarked;
