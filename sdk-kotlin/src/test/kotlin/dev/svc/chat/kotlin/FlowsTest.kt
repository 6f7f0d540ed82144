package dev.svc.chat.kotlin

import dev.svc.chat.ApiException
import dev.svc.chat.ConnectionState
import dev.svc.chat.EventType
import dev.svc.chat.Message
import dev.svc.chat.MessagePage
import dev.svc.chat.MessagePart
import dev.svc.chat.Room
import dev.svc.chat.TypingEvent
import dev.svc.chat.RoomList
import dev.svc.chat.SearchPage
import dev.svc.chat.SearchQuery
import dev.svc.chat.testing.FakeChatClient
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.async
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.advanceTimeBy
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** The flows and suspend forms over a fake client whose events the test delivers, on virtual time. */
@OptIn(ExperimentalCoroutinesApi::class)
class FlowsTest {
  private val client = FakeChatClient()

  @Test
  fun `typing users leave the set at typing=false or after the timeout, in virtual time`() = runTest {
    val sets = mutableListOf<Set<String>>()
    backgroundScope.launch { client.typingUsers("r1", timeout = 6.seconds).toList(sets) }
    runCurrent()
    assertEquals(listOf(emptySet<String>()), sets)

    client.emit(EventType.TYPING, TypingEvent.of("r1", "alice", true))
    client.emit(EventType.TYPING, TypingEvent.of("other-room", "carol", true))
    runCurrent()
    assertEquals(setOf("alice"), sets.last())

    advanceTimeBy(4.seconds)
    client.emit(EventType.TYPING, TypingEvent.of("r1", "bob", true))
    client.emit(EventType.TYPING, TypingEvent.of("r1", "alice", true)) // a repeat restarts alice's timer
    runCurrent()
    assertEquals(listOf("alice", "bob"), sets.last().toList(), "the order users started typing in")

    advanceTimeBy(5.seconds) // 9 s after alice's first true, 5 s after her repeat
    runCurrent()
    assertEquals(setOf("alice", "bob"), sets.last())

    client.emit(EventType.TYPING, TypingEvent.of("r1", "bob", false))
    runCurrent()
    assertEquals(setOf("alice"), sets.last())

    advanceTimeBy(1.seconds + 1.milliseconds) // 6 s after alice's repeat: expired
    runCurrent()
    assertEquals(emptySet<String>(), sets.last())
    assertEquals(
      listOf(emptySet(), setOf("alice"), setOf("alice", "bob"), setOf("alice"), emptySet()), sets,
      "each change once")
  }

  @Test
  fun `an event flow removes its handler when the collection is cancelled`() = runTest {
    val got = mutableListOf<Message>()
    val job = backgroundScope.launch { client.events(EventType.NEW_MESSAGE).toList(got) }
    runCurrent()
    assertEquals(1, client.handlerCount(EventType.NEW_MESSAGE))
    client.emit(EventType.NEW_MESSAGE, message("m1", 1))
    client.emit(EventType.NEW_MESSAGE, message("m2", 2))
    runCurrent()
    assertEquals(listOf("m1", "m2"), got.map { it.id() })

    job.cancel()
    runCurrent()
    assertEquals(0, client.handlerCount(), "no handler left")
  }

  @Test
  fun `a room's list merges history and live messages, each once, and destroys its subscription on cancel`() = runTest {
    val lists = mutableListOf<List<Message>>()
    val job = backgroundScope.launch { client.roomMessages("r1", "me").toList(lists) }
    runCurrent()
    client.joinResults.removeFirst().complete(Room.builder().id("r1").memberIds(listOf("me")).createdAt(1).build())
    val m1 = message("m1", 1).newBuilder().rev(1).build()
    client.historyResults.removeFirst().complete(MessagePage(listOf(m1), false))
    val m2 = message("m2", 2).newBuilder().rev(2).build()
    client.emit(EventType.NEW_MESSAGE, m2)
    client.emit(EventType.NEW_MESSAGE, m2)
    val m1Edited = m1.newBuilder().rev(3).parts(listOf(MessagePart.text("m1 edited"))).editedAt(5L).build()
    client.emit(EventType.MESSAGE_UPDATED, m1Edited)
    client.emit(EventType.NEW_MESSAGE, message("x", 1).newBuilder().roomId("other").build())
    runCurrent()
    assertEquals(listOf(m1Edited, m2), lists.last(), "by seq, each once, the update in place")
    assertTrue(client.handlerCount() > 0)

    job.cancel()
    runCurrent()
    assertEquals(0, client.handlerCount(), "the subscription is destroyed")
  }

  @Test
  fun `the connection state starts with the state now and skips repeats`() = runTest {
    client.setState(ConnectionState.CONNECTING)
    val states = mutableListOf<ConnectionState>()
    val job = backgroundScope.launch { client.connectionState().toList(states) }
    runCurrent()
    client.moveTo(ConnectionState.CONNECTED)
    runCurrent()
    client.moveTo(ConnectionState.CONNECTED)
    client.moveTo(ConnectionState.RECONNECTING)
    runCurrent()
    assertEquals(listOf(ConnectionState.CONNECTING, ConnectionState.CONNECTED, ConnectionState.RECONNECTING), states)

    val stateFlow = client.connectionStateIn(backgroundScope)
    assertEquals(ConnectionState.RECONNECTING, stateFlow.value)
    runCurrent()
    client.moveTo(ConnectionState.CONNECTED)
    runCurrent()
    assertEquals(ConnectionState.CONNECTED, stateFlow.value)

    job.cancel()
    runCurrent()
    assertEquals(1, client.handlerCount(), "only the StateFlow's handler, still shared in backgroundScope")
  }

  @Test
  fun `the room list flow gives each snapshot and removes its handler on cancel`() = runTest {
    val seen = mutableListOf<RoomList>()
    val job = backgroundScope.launch { client.roomList().toList(seen) }
    runCurrent()
    assertEquals(1, client.roomListHandlers.size)
    val first = RoomList(emptyList(), 0, false, true)
    val second = RoomList(emptyList(), 3, false, false)
    client.emitRoomList(first)
    runCurrent()
    client.emitRoomList(second)
    runCurrent()
    assertEquals(listOf(first, second), seen)
    job.cancel()
    runCurrent()
    assertEquals(0, client.roomListHandlers.size, "the handler goes with the collection")
  }

  @Test
  fun `a suspend call returns the value and throws the failure itself`() = runTest {
    val room = async { client.suspending().joinRoom("r1") }
    runCurrent()
    val stored = Room.builder().id("r1").memberIds(listOf("me")).createdAt(1).build()
    client.joinResults.removeFirst().complete(stored)
    assertSame(stored, room.await())

    val refused = async { runCatching { client.suspending().joinRoom("r2") } }
    runCurrent()
    client.joinResults.removeFirst().completeExceptionally(ApiException(403, "forbidden", "not a member"))
    val error = refused.await().exceptionOrNull()
    assertTrue(error is ApiException, "the ApiException, not a CompletionException: $error")
    assertEquals("forbidden", (error as ApiException).code())
  }

  @Test
  fun `the suspend searchStored returns the store's page and throws its refusal`() = runTest {
    val found = async { client.suspending().searchStored(SearchQuery.of("cafe")) }
    runCurrent()
    assertEquals(SearchQuery.of("cafe"), client.storedSearches.single())
    val page = SearchPage(emptyList(), null, true)
    client.storedSearchResults.removeFirst().complete(page)
    assertTrue(found.await().fromStore())

    val refused = async { runCatching { client.suspending().searchStored(SearchQuery.of("*")) } }
    runCurrent()
    client.storedSearchResults.removeFirst().completeExceptionally(ApiException(400, "bad_request", "no word"))
    assertEquals("bad_request", (refused.await().exceptionOrNull() as ApiException).code())
  }

  @Test
  fun `cancelling a suspend call stops the wait and leaves the SDK's future alone`() = runTest {
    val waiting = async { client.suspending().getMessages("r1") }
    runCurrent()
    val future = client.historyResults.removeFirst()
    waiting.cancel()
    runCurrent()
    assertTrue(waiting.isCancelled)
    assertFalse(future.isCancelled, "the client's own bookkeeping may hang off the future")
    assertTrue(runCatching { waiting.await() }.exceptionOrNull() is CancellationException)
    future.complete(MessagePage(emptyList(), false)) // completing later is harmless
  }

  private fun message(id: String, seq: Long): Message =
    Message.builder().id(id).roomId("r1").seq(seq).senderId("alice").parts(listOf(MessagePart.text(id)))
      .clientMessageId("c-$id").createdAt(seq).build()
}
