/**
 * The session manager: fetches the session from the tenant's route (or a typed session for bots),
 * creates and connects the {@link dev.svc.chat.ChatClient}, refreshes the token before it expires and
 * when the service says it expired, and follows the network. Start with
 * {@link dev.svc.chat.session.SessionManager#create}.
 *
 * <p>Inside the manager: {@code StatusBoard} (status and listener), {@code RefreshTimer} (the refresh before expiry
 * and the fetch retries), {@code SessionClient} (the client and the ordered calls on it) and
 * {@code ConnectionVerdict} (what the client's connection means for the status), all under the manager's lock;
 * calls on the client run outside it, in the order they were decided.
 */
@NullMarked
package dev.svc.chat.session;

import org.jspecify.annotations.NullMarked;
