/**
 * The chat client SDK: {@link dev.svc.chat.Svc#init(SvcOptions)} creates a {@link dev.svc.chat.ChatClient}
 * that speaks the service's REST API and its realtime gateway (Socket.IO v4 over a WebSocket).
 *
 * <p>Every parameter, return value and field in this package is non-null unless it is annotated
 * {@link org.jspecify.annotations.Nullable}. Passing {@code null} where it is not allowed throws
 * {@link java.lang.NullPointerException}.
 *
 * <p>Callbacks (event handlers and the completion of every returned
 * {@link java.util.concurrent.CompletableFuture}) run on the client's callback executor, in order, never on
 * a socket thread.
 */
@NullMarked
package dev.svc.chat;

import org.jspecify.annotations.NullMarked;
