package dev.svc.chat.kotlin

import dev.svc.chat.ChatClient
import dev.svc.chat.Message
import dev.svc.chat.Svc
import dev.svc.chat.ThreadSubscription
import dev.svc.chat.kotlin.internal.ThreadFeed
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.flow.conflate
import kotlinx.coroutines.channels.awaitClose

/**
 * One state of a thread: its root as the service has it now (with its [Message.thread] summary) and its replies,
 * ordered by `seq`, each once.
 */
public class ThreadView(
  /** The thread's root, maybe deleted (it keeps its summary). */
  public val root: Message,
  /** The replies loaded and received since, ordered by `seq`; deleted ones as tombstones. */
  public val replies: List<Message>,
) {
  override fun equals(other: Any?): Boolean = other is ThreadView && root == other.root && replies == other.replies

  override fun hashCode(): Int = 31 * root.hashCode() + replies.hashCode()

  override fun toString(): String = "ThreadView(root=${root.id()}, replies=${replies.size})"
}

/**
 * A thread as a [Flow] of [ThreadView], kept by a [ThreadSubscription] ([Svc.createThreadSubscription]): the root
 * and the latest `historyLimit` replies once loaded, then a new view for each new or changed reply and each change
 * of the root (its reply count among them). Views are state: a slow collector gets the latest (conflated).
 * Collecting joins the room (waiting for the connection if needed); ending the collection destroys the
 * subscription. A refusal (an unknown root, a room the user is not in) ends the flow with its error.
 *
 * @param roomId the room of the thread
 * @param rootId the id of the thread's root
 * @param historyLimit how many of the latest replies to load first, 1 to 100
 */
public fun ChatClient.thread(
  roomId: String,
  rootId: String,
  historyLimit: Int = ThreadSubscription.DEFAULT_HISTORY_LIMIT,
): Flow<ThreadView> = callbackFlow {
  val feed = ThreadFeed(emit = { root, replies -> trySend(ThreadView(root, replies)) }, fail = { close(it) })
  val subscription = Svc.createThreadSubscription(this@thread, roomId, rootId, historyLimit, feed)
  awaitClose { subscription.destroy() }
}.conflate()
