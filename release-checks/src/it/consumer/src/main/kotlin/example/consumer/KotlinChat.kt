package example.consumer

import dev.svc.chat.ChatClient
import dev.svc.chat.EventType
import dev.svc.chat.Message
import dev.svc.chat.kotlin.events
import dev.svc.chat.kotlin.suspending
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout

/** A user's Kotlin on svc-chat-sdk-kotlin and kotlinx-coroutines. */
object KotlinChat {
  /** Joins the room, sends the text and returns the message the service stored, within 30 s. */
  @JvmStatic
  fun send(client: ChatClient, roomId: String, text: String): Message = runBlocking {
    withTimeout(30_000) {
      client.suspending().joinRoom(roomId)
      client.suspending().sendText(roomId, text)
    }
  }

  /** Returns the texts of the new messages the client receives. */
  @JvmStatic
  fun texts(client: ChatClient): Flow<String?> = client.events(EventType.NEW_MESSAGE).map { it.text() }
}
