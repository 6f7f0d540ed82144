package dev.svc.chat.kotlin.internal

// Not API: public for the extensions of dev.svc.chat.kotlin only (the API guard skips internal packages).

import dev.svc.chat.Message
import dev.svc.chat.MessageLists
import dev.svc.chat.RoomSubscriptionListener

/**
 * Keeps a room's list with [MessageLists.mergeMessagesById] and hands each new list to `emit`; an error of the
 * subscription goes to `fail`. The subscription calls it on the client's callback executor, one call at a time;
 * the lock only orders the reads of the list.
 */
public class MessageListFeed(
  private val emit: (List<Message>) -> Unit,
  private val fail: (Throwable) -> Unit,
) : RoomSubscriptionListener {
  private val lock = Any()
  private var list: List<Message> = emptyList()

  override fun onInitialMessages(messages: List<Message>): Unit = merge(messages)

  override fun onMessage(message: Message): Unit = merge(listOf(message))

  override fun onMessageUpdated(message: Message): Unit = merge(listOf(message))

  override fun onError(error: Throwable): Unit = fail(unwrap(error))

  private fun merge(messages: Collection<Message>) {
    val next = synchronized(lock) {
      list = MessageLists.mergeMessagesById(list, messages)
      list
    }
    emit(next)
  }
}
