package dev.svc.chat.kotlin

import dev.svc.chat.ApiException
import dev.svc.chat.Message
import dev.svc.chat.SvcOptions
import dev.svc.chat.testkit.SvcTestServer
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.flow.collect
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.onEach
import kotlinx.coroutines.flow.takeWhile
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension

/** The room's message list as a Flow, against the reference server in-process (the test kit). */
class RoomMessagesFlowTest {
  companion object {
    @JvmField
    @RegisterExtension
    val svc: SvcTestServer = SvcTestServer.perClass()

    const val N = 20
  }

  @Test
  fun `a collector sees each message another client sends exactly once, in order`() = runBlocking {
    val room = svc.createRoom("kotlin", "alice", "bob")
    val alice = svc.connect("alice")
    val bob = svc.newClient(SvcOptions.builder(svc.apiUrl()).build()).suspending()
    bob.connect("bob", svc.mintToken("bob"))

    withTimeout(30.seconds) {
      val lists = mutableListOf<List<Message>>()
      val live = CompletableDeferred<Unit>()
      val collector = launch {
        alice.roomMessages(room, "alice")
          .onEach { lists += it; live.complete(Unit) }
          .takeWhile { it.size < N }
          .collect()
      }
      live.await() // the history (empty) is loaded: what follows arrives live
      val sent = (0 until N).map { i -> bob.sendText(room, "m$i") }
      collector.join()

      val last = lists.last()
      assertEquals(sent.map { it.id() }, last.map { it.id() }, "each message once, in the order sent")
      assertEquals((0 until N).map { "m$it" }, last.map { it.text() })
      for (list in lists) {
        assertEquals(list, last.subList(0, list.size), "every list is a prefix of the final one: no message twice or out of order")
      }
    }
  }

  @Test
  fun `a room the user cannot join ends the flow with the service's error`() = runBlocking {
    val room = svc.createRoom("private", "bob")
    val alice = svc.connect("alice")
    val error = withTimeout(30.seconds) {
      runCatching { alice.roomMessages(room, "alice").first() }.exceptionOrNull()
    }
    assertTrue(error is ApiException, "an ApiException: $error")
    assertEquals("forbidden", (error as ApiException).code())
  }
}
