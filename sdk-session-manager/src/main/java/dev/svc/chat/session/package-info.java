/**
 * The session manager: fetches the session from the tenant's route, connects, and refreshes the
 * token before it expires. This module is a placeholder until the session issue is built.
 */
package dev.svc.chat.session;
