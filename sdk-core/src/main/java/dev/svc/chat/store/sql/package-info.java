/**
 * The SQL store shared by the SDK's SQLite stores: one schema, one set of forward migrations and one
 * implementation of {@link dev.svc.chat.store.ChatStore}'s rules ({@code SqlChatStore}),
 * over a small {@link dev.svc.chat.store.sql.SqlDatabase} that each platform's SQLite binding implements (JDBC
 * on the JVM, {@code android.database.sqlite} on Android).
 */
@org.jspecify.annotations.NullMarked
package dev.svc.chat.store.sql;
