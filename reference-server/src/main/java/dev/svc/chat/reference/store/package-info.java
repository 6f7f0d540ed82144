/**
 * Storage behind the {@link dev.svc.chat.reference.store.Store} interface; in memory for now.
 */
package dev.svc.chat.reference.store;
