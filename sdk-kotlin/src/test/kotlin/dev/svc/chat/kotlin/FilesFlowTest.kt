package dev.svc.chat.kotlin

import dev.svc.chat.EventType
import dev.svc.chat.FileAttachment
import dev.svc.chat.FileException
import dev.svc.chat.FileSource
import dev.svc.chat.Message
import dev.svc.chat.MessagePart
import dev.svc.chat.UploadProgress
import dev.svc.chat.testing.FakeChatClient
import java.io.ByteArrayInputStream
import java.io.File
import java.util.concurrent.CompletableFuture
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.flow.catch
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** The upload and download flows over a fake client whose events and futures the test drives. */
@OptIn(ExperimentalCoroutinesApi::class)
class FilesFlowTest {
  private val client = FakeChatClient()
  private val part = MessagePart.file(FileSource.builder({ ByteArrayInputStream(ByteArray(10)) }, 10).build())

  @Test
  fun `a send's flow emits its own upload progress then the message, and ends`() = runTest {
    val sent = CompletableFuture<Message>()
    client.sendResults.add(sent)
    val steps = mutableListOf<Transfer<Message>>()
    val job = launch { client.sendWithProgress("r1", listOf(part), "c1").toList(steps) }
    runCurrent()
    assertEquals(listOf("c1"), client.sentIds)
    client.emit(EventType.UPLOAD_PROGRESS, UploadProgress("r1", "c1", 4, 10))
    client.emit(EventType.UPLOAD_PROGRESS, UploadProgress("r1", "other", 1, 10))
    client.emit(EventType.UPLOAD_PROGRESS, UploadProgress("r1", "c1", 10, 10))
    val message = Message.builder().id("m1").roomId("r1").seq(1).senderId("alice").clientMessageId("c1")
      .parts(listOf(MessagePart.fileId("f1"))).createdAt(0).build()
    sent.complete(message)
    job.join()
    assertEquals(listOf(Transfer.Progress(4, 10), Transfer.Progress(10, 10), Transfer.Done(message)), steps)
  }

  @Test
  fun `a send that fails ends its flow with the failure itself`() = runTest {
    val sent = CompletableFuture<Message>()
    client.sendResults.add(sent)
    var failure: Throwable? = null
    val job = launch { client.sendWithProgress("r1", listOf(part), "c1").catch { failure = it }.toList() }
    runCurrent()
    sent.completeExceptionally(FileException(FileException.Kind.SOURCE_CHANGED, "changed", null))
    job.join()
    assertTrue(failure is FileException, "got $failure")
  }

  @Test
  fun `a download's flow emits its progress then the file`() = runTest {
    val done = CompletableFuture<File>()
    client.downloadResults.add(done)
    val target = File("copy.bin")
    val steps = mutableListOf<Transfer<File>>()
    val job = launch {
      client.downloadWithProgress(FileAttachment.builder("f1").size(10).build(), target).toList(steps)
    }
    runCurrent()
    client.downloadListener.onProgress(5, 10)
    client.downloadListener.onProgress(10, 10)
    done.complete(target)
    job.join()
    assertEquals(listOf(Transfer.Progress(5, 10), Transfer.Progress(10, 10), Transfer.Done(target)), steps)
  }
}
