package dev.svc.chat.kotlin.internal

// Not API: public for the extensions of dev.svc.chat.kotlin only (the API guard skips internal packages).

import dev.svc.chat.Message
import dev.svc.chat.MessageLists
import dev.svc.chat.ThreadSubscriptionListener

/**
 * Keeps a thread's root and its replies (merged with [MessageLists.mergeMessagesById]) and hands each new state to
 * `emit`; an error of the subscription goes to `fail`. Called on the client's callback executor, one call at a
 * time; the lock only orders the reads of the state.
 */
public class ThreadFeed(
  private val emit: (Message, List<Message>) -> Unit,
  private val fail: (Throwable) -> Unit,
) : ThreadSubscriptionListener {
  private val lock = Any()
  private var root: Message? = null
  private var replies: List<Message> = emptyList()

  override fun onInitialReplies(root: Message, replies: List<Message>) {
    synchronized(lock) { this.root = root }
    merge(replies)
  }

  override fun onReply(reply: Message): Unit = merge(listOf(reply))

  override fun onReplyUpdated(reply: Message): Unit = merge(listOf(reply))

  override fun onRootUpdated(root: Message) {
    synchronized(lock) { this.root = root }
    merge(emptyList())
  }

  override fun onError(error: Throwable): Unit = fail(unwrap(error))

  private fun merge(messages: Collection<Message>) {
    val (r, list) = synchronized(lock) {
      replies = MessageLists.mergeMessagesById(replies, messages)
      Pair(root, replies)
    }
    if (r != null) emit(r, list)
  }
}
