package dev.svc.chat.kotlin

import dev.svc.chat.ChatClient
import dev.svc.chat.EventType
import dev.svc.chat.FileAttachment
import dev.svc.chat.Message
import dev.svc.chat.MessagePart
import dev.svc.chat.kotlin.internal.unwrap
import java.io.File
import java.util.UUID
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.buffer
import kotlinx.coroutines.flow.callbackFlow

/** One step of an upload or a download, as the flows of [sendWithProgress] and [downloadWithProgress] emit it. */
public sealed class Transfer<out T> {
  /** The bytes done so far (those the service holds, for an upload) of [bytesTotal]. */
  public data class Progress(public val bytesDone: Long, public val bytesTotal: Long) : Transfer<Nothing>()

  /** The transfer ended with [result]: the sent message, or the downloaded file. The flow ends after it. */
  public data class Done<T>(public val result: T) : Transfer<T>()
}

/**
 * Sends a message with files ([MessagePart.file]) through the outbox and emits the upload's progress
 * ([EventType.UPLOAD_PROGRESS] of this send), then [Transfer.Done] with the stored message; the flow fails with
 * the send's failure (a `FileException` for a source that vanished or changed). Each collection sends anew, so
 * collect it once.
 *
 * Cancelling the collection stops the flow only: the send stays in the outbox, as every send does (see
 * [SuspendChatClient]); call [ChatClient.cancelSend] with [clientMessageId] to stop it.
 */
public fun ChatClient.sendWithProgress(
  roomId: String,
  parts: List<MessagePart>,
  clientMessageId: String = UUID.randomUUID().toString(),
): Flow<Transfer<Message>> = callbackFlow {
  val subscription = on(EventType.UPLOAD_PROGRESS) { p ->
    if (p.roomId() == roomId && p.clientMessageId() == clientMessageId) {
      trySend(Transfer.Progress(p.bytesSent(), p.bytesTotal()))
    }
  }
  sendMessage(roomId, parts, clientMessageId).whenComplete { message, error ->
    if (error == null) {
      trySend(Transfer.Done(message))
      close()
    } else {
      close(unwrap(error))
    }
  }
  awaitClose { subscription.remove() }
}.buffer(Channel.UNLIMITED)

/**
 * Downloads [file] to [target] ([ChatClient.downloadFile]: resumed with `Range` after a cut, checked against its
 * sha256) and emits its progress, then [Transfer.Done] with [target]; the flow fails with the download's failure.
 * Cancelling the collection stops the flow only; the download runs to its end.
 */
public fun ChatClient.downloadWithProgress(file: FileAttachment, target: File): Flow<Transfer<File>> = callbackFlow {
  downloadFile(file, target) { done, total -> trySend(Transfer.Progress(done, total)) }.whenComplete { f, error ->
    if (error == null) {
      trySend(Transfer.Done(f))
      close()
    } else {
      close(unwrap(error))
    }
  }
  awaitClose { }
}.buffer(Channel.UNLIMITED)
