package dev.svc.chat.kotlin

import dev.svc.chat.Call
import dev.svc.chat.CallKind
import dev.svc.chat.ChangesPage
import dev.svc.chat.ChatClient
import dev.svc.chat.FileAttachment
import dev.svc.chat.Message
import dev.svc.chat.MessagePage
import dev.svc.chat.MessagePart
import dev.svc.chat.MessageQuery
import dev.svc.chat.PushPlatform
import dev.svc.chat.Receipt
import dev.svc.chat.Room
import dev.svc.chat.SearchPage
import dev.svc.chat.SearchQuery
import dev.svc.chat.SendOptions
import dev.svc.chat.kotlin.internal.awaitResult

/**
 * The suspend forms of a [ChatClient]'s operations, with the same names and arguments as the Java methods:
 * each suspends until the operation's future completes and returns its value, or throws its failure itself
 * (an `ApiException`, `ChatStateException`, `SendTimeoutException` or `TransportException`, never a
 * `CompletionException` around it). Get one with [ChatClient.suspending] (or this constructor); it holds
 * nothing but the client.
 *
 * Cancelling a suspended call stops the wait and throws `CancellationException` in the caller; it does not
 * undo the operation, which the Java API cannot cancel once started: a REST call runs to its end and a
 * message given to [sendMessage] stays in the client's outbox until it is sent (see `pendingSends()`).
 * To give up on a send, remember its `clientMessageId` and check `pendingSends()`.
 *
 * Argument checks (an invalid user id, an empty text, ...) throw at the call, as in Java.
 */
public class SuspendChatClient(
  /** The Java client these calls go to. */
  public val client: ChatClient,
) {
  /** Connects the realtime gateway; see [ChatClient.connect]. */
  public suspend fun connect(userId: String, token: String) {
    client.connect(userId, token).awaitResult()
  }

  /** Disconnects politely, keeping handlers; see [ChatClient.disconnect]. */
  public suspend fun disconnect() {
    client.disconnect().awaitResult()
  }

  /** Joins a room and returns it; see [ChatClient.joinRoom]. */
  public suspend fun joinRoom(roomId: String): Room = client.joinRoom(roomId).awaitResult()

  /** Leaves the joined room; see [ChatClient.leaveRoom]. */
  public suspend fun leaveRoom(roomId: String) {
    client.leaveRoom(roomId).awaitResult()
  }

  /** Lists the user's rooms; see [ChatClient.listRooms]. */
  public suspend fun listRooms(): List<Room> = client.listRooms().awaitResult()

  /** Returns the latest messages of a room; see [ChatClient.getMessages]. */
  public suspend fun getMessages(roomId: String): MessagePage = client.getMessages(roomId).awaitResult()

  /** Returns a page of a room's messages; see [ChatClient.getMessages]. */
  public suspend fun getMessages(roomId: String, query: MessageQuery): MessagePage =
    client.getMessages(roomId, query).awaitResult()

  /** Sends a message through the outbox and returns the stored message; see [ChatClient.sendMessage]. */
  public suspend fun sendMessage(roomId: String, parts: List<MessagePart>): Message =
    client.sendMessage(roomId, parts).awaitResult()

  /** Sends a message with a given `clientMessageId`; see [ChatClient.sendMessage]. */
  public suspend fun sendMessage(roomId: String, parts: List<MessagePart>, clientMessageId: String): Message =
    client.sendMessage(roomId, parts, clientMessageId).awaitResult()

  /** Sends a reply, a thread reply or a message with mentions; see [ChatClient.sendMessage]. */
  public suspend fun sendMessage(roomId: String, parts: List<MessagePart>, options: SendOptions): Message =
    client.sendMessage(roomId, parts, options).awaitResult()

  /** Fetches one message, deleted or not; see [ChatClient.getMessage]. */
  public suspend fun getMessage(roomId: String, messageId: String): Message =
    client.getMessage(roomId, messageId).awaitResult()

  /** Sends a message of one text part; see [ChatClient.sendText]. */
  public suspend fun sendText(roomId: String, text: String): Message = client.sendText(roomId, text).awaitResult()

  /** Replaces a message's parts; see [ChatClient.updateMessage]. */
  public suspend fun updateMessage(roomId: String, messageId: String, parts: List<MessagePart>): Message =
    client.updateMessage(roomId, messageId, parts).awaitResult()

  /** Replaces a message's parts and mentions; see [ChatClient.updateMessage]. */
  public suspend fun updateMessage(roomId: String, messageId: String, parts: List<MessagePart>,
    mentions: List<String>): Message = client.updateMessage(roomId, messageId, parts, mentions).awaitResult()

  /** Deletes a message; see [ChatClient.deleteMessage]. */
  public suspend fun deleteMessage(roomId: String, messageId: String): Message =
    client.deleteMessage(roomId, messageId).awaitResult()

  /** Adds or removes the user's reaction; see [ChatClient.toggleReaction]. */
  public suspend fun toggleReaction(roomId: String, messageId: String, emoji: String): Message =
    client.toggleReaction(roomId, messageId, emoji).awaitResult()

  /** Marks a room read up to a message; see [ChatClient.markRead]. */
  public suspend fun markRead(roomId: String, messageId: String): Receipt =
    client.markRead(roomId, messageId).awaitResult()

  /** Returns a room's changes since a revision; see [ChatClient.getChanges]. */
  public suspend fun getChanges(roomId: String, since: Long): ChangesPage =
    client.getChanges(roomId, since).awaitResult()

  /** Returns at most `limit` of a room's changes since a revision; see [ChatClient.getChanges]. */
  public suspend fun getChanges(roomId: String, since: Long, limit: Int): ChangesPage =
    client.getChanges(roomId, since, limit).awaitResult()

  /** Returns a room's read receipts; see [ChatClient.getReceipts]. */
  public suspend fun getReceipts(roomId: String): List<Receipt> = client.getReceipts(roomId).awaitResult()

  /** Returns a page of the messages whose words match; see [ChatClient.searchMessages]. */
  public suspend fun searchMessages(query: SearchQuery): SearchPage = client.searchMessages(query).awaitResult()

  /** Returns a page of the stored messages whose words match, without the network; see [ChatClient.searchStored]. */
  public suspend fun searchStored(query: SearchQuery): SearchPage = client.searchStored(query).awaitResult()

  /** Returns the tenant's online users; see [ChatClient.getPresence]. */
  public suspend fun getPresence(): List<String> = client.getPresence().awaitResult()

  /** Says whether the user is typing in the joined room; see [ChatClient.setTyping]. */
  public suspend fun setTyping(roomId: String, isTyping: Boolean) {
    client.setTyping(roomId, isTyping).awaitResult()
  }

  /** Starts a call in a room; see [ChatClient.startCall]. */
  public suspend fun startCall(roomId: String, kind: CallKind): Call = client.startCall(roomId, kind).awaitResult()

  /** Accepts a ringing call; see [ChatClient.acceptCall]. */
  public suspend fun acceptCall(callId: String): Call = client.acceptCall(callId).awaitResult()

  /** Declines a ringing call; see [ChatClient.declineCall]. */
  public suspend fun declineCall(callId: String): Call = client.declineCall(callId).awaitResult()

  /** Ends a call; see [ChatClient.endCall]. */
  public suspend fun endCall(callId: String): Call = client.endCall(callId).awaitResult()

  /** Returns the ringing or active call of a room, or null when it has none; see [ChatClient.getActiveCall]. */
  public suspend fun getActiveCall(roomId: String): Call? = client.getActiveCall(roomId).awaitResult()

  /** Registers a device's push token; see [ChatClient.registerDeviceToken]. */
  public suspend fun registerDeviceToken(token: String, platform: PushPlatform) {
    client.registerDeviceToken(token, platform).awaitResult()
  }

  /** Unregisters a device's push token; see [ChatClient.unregisterDeviceToken]. */
  public suspend fun unregisterDeviceToken(token: String) {
    client.unregisterDeviceToken(token).awaitResult()
  }

  override fun toString(): String = "SuspendChatClient($client)"

  /** Cancels a pending send whose message has not gone out; see [ChatClient.cancelSend]. */
  public suspend fun cancelSend(roomId: String, clientMessageId: String): Boolean =
    client.cancelSend(roomId, clientMessageId).awaitResult()

  /** Downloads a file to [target] and returns it; see [ChatClient.downloadFile] and [downloadWithProgress]. */
  public suspend fun downloadFile(file: FileAttachment, target: java.io.File): java.io.File =
    client.downloadFile(file, target, null).awaitResult()

  /** Returns an image's thumbnail, from the cache when it holds it; see [ChatClient.thumbnail]. */
  public suspend fun thumbnail(file: FileAttachment, size: Int = 320): ByteArray =
    client.thumbnail(file, size).awaitResult()
}

/** Returns the suspend forms of this client's operations: `client.suspending().sendText(roomId, "hi")`. */
public fun ChatClient.suspending(): SuspendChatClient = SuspendChatClient(this)
