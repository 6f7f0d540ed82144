package dev.svc.chat.kotlin

import dev.svc.chat.ApiException
import dev.svc.chat.MessagePart
import dev.svc.chat.SendOptions
import dev.svc.chat.SvcOptions
import dev.svc.chat.testkit.SvcTestServer
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.onEach
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension

/** A thread as a Flow, against the reference server in-process (the test kit). */
class ThreadFlowTest {
  companion object {
    @JvmField
    @RegisterExtension
    val svc: SvcTestServer = SvcTestServer.perClass()
  }

  @Test
  fun `a collector sees the history then each reply and the root's count`() = runBlocking {
    val room = svc.createRoom("threads", "alice", "bob")
    val alice = svc.connect("alice")
    val bob = svc.newClient(SvcOptions.builder(svc.apiUrl()).build()).suspending()
    bob.connect("bob", svc.mintToken("bob"))
    val root = bob.sendText(room, "root")
    val first = bob.sendMessage(room, listOf(MessagePart.text("first")), SendOptions.inThread(root.id()))

    withTimeout(30.seconds) {
      val loaded = CompletableDeferred<ThreadView>()
      val done = CompletableDeferred<ThreadView>()
      val collector = launch {
        alice.thread(room, root.id())
          .onEach { if (!loaded.isCompleted) loaded.complete(it) }
          .first { it.replies.size == 3 && it.root.thread()?.replyCount() == 3 }
          .let { done.complete(it) }
      }
      assertEquals(listOf(first.id()), loaded.await().replies.map { it.id() })
      val more = (2..3).map { i ->
        bob.sendMessage(room, listOf(MessagePart.text("r$i")), SendOptions.inThread(root.id())).id()
      }
      val last = done.await()
      collector.join()
      assertEquals(listOf(first.id()) + more, last.replies.map { it.id() })
      assertEquals(bob.getMessage(room, root.id()), last.root, "the root as the service has it")
    }
  }

  @Test
  fun `an unknown root ends the flow with the service's refusal`() {
    val room = svc.createRoom("threads-refused", "alice")
    val alice = svc.connect("alice")
    val error = assertThrows(ApiException::class.java) {
      runBlocking { withTimeout(30.seconds) { alice.thread(room, "no-such-root").first() } }
    }
    assertEquals("not_found", error.code())
  }
}
