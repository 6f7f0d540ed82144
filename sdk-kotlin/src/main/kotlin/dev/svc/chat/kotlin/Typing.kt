package dev.svc.chat.kotlin

import dev.svc.chat.ChatClient
import dev.svc.chat.ComposerTypingController
import dev.svc.chat.EventType
import dev.svc.chat.TypingEvent
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlinx.coroutines.Job
import kotlinx.coroutines.delay
import kotlinx.coroutines.job
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.channelFlow
import kotlinx.coroutines.flow.distinctUntilChanged
import kotlinx.coroutines.launch
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock

/**
 * How long a user counts as typing after their latest `typing=true` when no `typing=false` follows (a closed
 * app, a lost connection): the sender's [ComposerTypingController] repeats `true` every 3 seconds while the user
 * types, so 6 seconds leaves room for one late repeat.
 */
public val DEFAULT_TYPING_TIMEOUT: Duration = (2 * ComposerTypingController.DEFAULT_THROTTLE_MILLIS).milliseconds

/**
 * The users typing in a room, from the client's [EventType.TYPING] events (the joined room's, never the
 * user's own): an empty set first, then the set after each change. A user leaves the set at their
 * `typing=false`, or `timeout` after their latest `typing=true` (the timer runs on the collector's
 * dispatcher, so `kotlinx-coroutines-test` drives it in virtual time). The sets keep the order users started
 * typing in.
 *
 * @param roomId the room
 * @param timeout how long a `typing=true` lasts without a repeat
 */
public fun ChatClient.typingUsers(roomId: String, timeout: Duration = DEFAULT_TYPING_TIMEOUT): Flow<Set<String>> {
  require(timeout.isPositive()) { "timeout must be positive: $timeout" }
  return channelFlow {
    val lock = Mutex()
    val typing = LinkedHashMap<String, Job>()
    send(emptySet())
    events(EventType.TYPING).collect { event: TypingEvent ->
      if (event.roomId() != roomId) return@collect
      val user = event.userId()
      lock.withLock {
        typing[user]?.cancel()
        if (event.isTyping()) {
          // a repeat restarts the timer and keeps the user's place in the set
          typing[user] = launch {
            delay(timeout)
            val self = coroutineContext.job
            lock.withLock {
              if (typing[user] === self) {
                typing.remove(user)
                send(LinkedHashSet(typing.keys))
              }
            }
          }
        } else {
          typing.remove(user)
        }
        send(LinkedHashSet(typing.keys))
      }
    }
  }.distinctUntilChanged()
}
