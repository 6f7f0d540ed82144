/**
 * The realtime transport on {@code java.net.http.WebSocket} (Java 11+):
 * {@link dev.svc.chat.transport.jdk.JdkTransport}, given to {@link dev.svc.chat.SvcOptions.Builder#transport}. Every socket of the JVM shares one {@code HttpClient}'s
 * selector thread and a small executor, so a fleet of bots costs a few threads in all rather than one per socket.
 */
@org.jspecify.annotations.NullMarked
package dev.svc.chat.transport.jdk;
