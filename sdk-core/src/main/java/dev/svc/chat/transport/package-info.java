/**
 * The realtime transport's service-provider interface: what the client's realtime engine needs from a WebSocket
 * to the gateway. A client uses the transport {@link dev.svc.chat.SvcOptions.Builder#transport} names; by default
 * (and on Android) it is OkHttp's WebSocket on the client's {@code OkHttpClient}. The module
 * {@code svc-chat-sdk-transport-jdk} (Java 11+) implements it on {@code java.net.http.WebSocket}, whose sockets
 * share one selector thread and a small executor instead of a reader thread each: the choice for a fleet of bots
 * in one JVM. REST calls go over OkHttp whatever the transport.
 *
 * <p>The engine opens one socket per connection attempt and never reuses it. It sends from its own serial
 * thread; a transport's listener calls may come from any thread, one at a time per socket.
 */
@org.jspecify.annotations.NullMarked
package dev.svc.chat.transport;
