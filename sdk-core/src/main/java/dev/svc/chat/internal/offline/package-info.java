/**
 * The client's side of the offline store: {@link dev.svc.chat.internal.offline.OfflineStore} opens the user's
 * {@link dev.svc.chat.store.ChatStore} and runs every call on the client's I/O queue;
 * {@link dev.svc.chat.internal.offline.StoreJournal} gathers what recovery delivers in one actor task into one
 * write and hands its events to the handlers once that write committed.
 */
package dev.svc.chat.internal.offline;
