package dev.svc.chat.kotlin

import dev.svc.chat.ChatClient
import dev.svc.chat.ConnectionState
import dev.svc.chat.EventType
import dev.svc.chat.RoomList
import dev.svc.chat.Message
import dev.svc.chat.MessageLists
import dev.svc.chat.RoomSubscription
import dev.svc.chat.Svc
import dev.svc.chat.kotlin.internal.MessageListFeed
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.SharingStarted
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.buffer
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.flow.conflate
import kotlinx.coroutines.flow.distinctUntilChanged
import kotlinx.coroutines.flow.stateIn

/**
 * The client's events of one type as a cold [Flow]: `client.events(EventType.NEW_MESSAGE).collect { ... }`.
 *
 * Each collection adds a handler with [ChatClient.on] and removes it when the collection ends or is cancelled.
 * Events delivered before the handler was added are not replayed. None is dropped: they are buffered without
 * bound until the collector takes them (collect on a dispatcher that keeps up, or add `conflate()` for state
 * where only the latest counts).
 */
public fun <T : Any> ChatClient.events(type: EventType<T>): Flow<T> = callbackFlow {
  val subscription = on(type) { event -> trySend(event) }
  awaitClose { subscription.remove() }
}.buffer(Channel.UNLIMITED)

/**
 * The connection state: the state now, then each new state, never the same one twice in a row. A change
 * event makes the flow read [ChatClient.state] again, so a slow collector sees the latest state, never an
 * older one after it.
 */
public fun ChatClient.connectionState(): Flow<ConnectionState> = callbackFlow {
  val subscription = on(EventType.CONNECTION_STATE) { trySend(state()) }
  trySend(state())
  awaitClose { subscription.remove() }
}.conflate().distinctUntilChanged()

/**
 * The user's room list ([ChatClient.roomList]): the current snapshot when the rooms are known (from the offline
 * store at once, even offline), then a new [RoomList] for each change, most recently active first, with unread
 * counts. Snapshots are state: a slow collector gets the latest, never a stale one after it (conflated).
 */
public fun ChatClient.roomList(): Flow<RoomList> = callbackFlow {
  val subscription = roomList { snapshot -> trySend(snapshot) }
  awaitClose { subscription.remove() }
}.conflate()

/** The connection state as a [StateFlow] in `scope`, starting with the state now; see [connectionState]. */
public fun ChatClient.connectionStateIn(scope: CoroutineScope): StateFlow<ConnectionState> =
  connectionState().stateIn(scope, SharingStarted.Eagerly, state())

/**
 * A room's messages as a list, kept by a [RoomSubscription] ([Svc.createRoomSubscription]) and merged with
 * [MessageLists.mergeMessagesById]: the latest `historyLimit` messages once loaded, then a new list for each
 * new or updated message. Sent messages are ordered by `seq`, each id once; an update replaces the
 * message's older version.
 *
 * Collecting joins the room (waiting for the connection if needed); ending or cancelling the collection
 * destroys the subscription (the room stays joined, as in Java). The lists are snapshots and a slow collector
 * gets the latest one (conflated). A subscription that fails (for example the room cannot be joined) ends
 * the flow with its error.
 *
 * @param roomId the room
 * @param userId the client's user
 * @param historyLimit how many of the latest messages to load first, 1 to 100
 */
public fun ChatClient.roomMessages(
  roomId: String,
  userId: String,
  historyLimit: Int = RoomSubscription.DEFAULT_HISTORY_LIMIT,
): Flow<List<Message>> = callbackFlow {
  val feed = MessageListFeed(emit = { trySend(it) }, fail = { close(it) })
  val subscription = Svc.createRoomSubscription(this@roomMessages, roomId, userId, historyLimit, feed)
  awaitClose { subscription.destroy() }
}.conflate()
