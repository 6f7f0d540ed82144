/**
 * The session manager: fetches the session from the tenant's route (or a typed session for bots),
 * creates and connects the {@link dev.svc.chat.ChatClient}, refreshes the token before it expires and
 * when the service says it expired, and follows the network. Start with
 * {@link dev.svc.chat.session.SessionManager#create}.
 */
@NullMarked
package dev.svc.chat.session;

import org.jspecify.annotations.NullMarked;
