/**
 * The client's offline store on SQLite for the JVM: {@link dev.svc.chat.store.sqlite.SqliteChatStore}, a
 * {@link dev.svc.chat.store.ChatStoreProvider} with one database file per user, on sqlite-jdbc.
 */
@org.jspecify.annotations.NullMarked
package dev.svc.chat.store.sqlite;
