/**
 * Credentials: session tokens (JWT HS256 per tenant), principals, random keys and ids.
 */
package dev.svc.chat.reference.auth;
