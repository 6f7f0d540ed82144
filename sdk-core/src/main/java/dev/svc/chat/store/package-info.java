/**
 * The offline store's service-provider interface: what a client keeps of one user across restarts (rooms,
 * messages at their latest revision, receipts, each room's recovery watermarks, pending sends), so that an
 * app started without a network shows its rooms and messages, and recovery resumes from where delivery
 * stopped. A client uses a store when {@link dev.svc.chat.SvcOptions.Builder#store} names a
 * {@link dev.svc.chat.store.ChatStoreProvider}; the SDK ships one on SQLite for the JVM
 * ({@code svc-chat-sdk-store-sqlite}) and one on Android's framework SQLite ({@code svc-chat-sdk-android}).
 *
 * <p>The client calls a store from its I/O queue only, one call at a time, never from the engine's thread,
 * the app's callback thread or Android's main thread. Implementations need no locking of their own.
 */
@org.jspecify.annotations.NullMarked
package dev.svc.chat.store;
