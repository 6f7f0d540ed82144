/**
 * The contract's error (status, code and message of the error body) and its input rules and limits, shared by
 * every layer that refuses an input: tokens, services, REST handlers and the gateway. Depends on no other
 * package of the server.
 */
package dev.svc.chat.reference.contract;
