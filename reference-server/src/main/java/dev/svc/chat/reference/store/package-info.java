/**
 * Storage behind the {@link dev.svc.chat.reference.store.Store} interface: in memory
 * ({@link dev.svc.chat.reference.store.InMemoryStore}), or in SQLite or PostgreSQL
 * ({@link dev.svc.chat.reference.store.JdbcStore} over a {@link dev.svc.chat.reference.store.Database} migrated
 * by Flyway from {@code db/sqlite} or {@code db/migration}).
 */
package dev.svc.chat.reference.store;
