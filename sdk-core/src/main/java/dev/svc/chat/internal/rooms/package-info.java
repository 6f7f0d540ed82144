/**
 * The live room list and its unread counts: {@link dev.svc.chat.internal.rooms.RoomListModel} follows what
 * recovery delivers, the app's sends and reads, keeps a {@link dev.svc.chat.internal.rooms.RoomTally} per room,
 * and hands coalesced snapshots to the app's handlers; {@link dev.svc.chat.internal.rooms.UnreadFill} reads what
 * a count needs that the client never received.
 */
package dev.svc.chat.internal.rooms;
