/**
 * The session manager: fetches the session from the tenant's route (or a typed session for bots),
 * creates and connects the {@link dev.svc.chat.ChatClient}, refreshes the token before it expires and
 * when the service says it expired, and follows the network. Start with
 * {@link dev.svc.chat.session.SessionManager#create}.
 *
 * <p>Inside the manager: {@code SessionManager} holds the public methods and options, {@code SessionLifecycle}
 * what they do (the runs, the session held, the fetches and what a fetched session does), whose lock is "the
 * manager's lock"; under it {@code StatusBoard} (status and listener), {@code RefreshTimer} (the refresh before
 * expiry and the fetch retries), {@code SessionClient} (the client and the ordered calls on it),
 * {@code ConnectionVerdict} (what the client's connection means for the status) and {@code FetchFailures} (a
 * failed fetch: the end of the session, or an outage retried). Calls on the client run outside the lock, in
 * the order they were decided.
 */
@NullMarked
package dev.svc.chat.session;

import org.jspecify.annotations.NullMarked;
