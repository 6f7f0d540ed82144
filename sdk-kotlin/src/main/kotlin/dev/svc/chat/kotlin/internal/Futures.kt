package dev.svc.chat.kotlin.internal

// Not API: public for the extensions of dev.svc.chat.kotlin only (the API guard skips internal packages).

import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionException
import java.util.concurrent.ExecutionException
import kotlin.coroutines.resume
import kotlin.coroutines.resumeWithException
import kotlinx.coroutines.suspendCancellableCoroutine

/**
 * Waits for the SDK's future without blocking a thread and returns its value, or throws its failure itself
 * (the `ApiException`, not a `CompletionException` around it).
 *
 * Cancelling the waiting coroutine stops the wait only: the SDK's futures do not cancel the request behind
 * them (an HTTP call or a socket acknowledgement runs to its end, a send stays in the outbox), and the future
 * is left alone, because the client's own bookkeeping may hang off it.
 */
public suspend fun <T> CompletableFuture<T>.awaitResult(): T {
  if (isDone) return resultNow()
  return suspendCancellableCoroutine { cont ->
    whenComplete { value, error ->
      if (error == null) {
        @Suppress("UNCHECKED_CAST")
        cont.resume(value as T)
      } else {
        cont.resumeWithException(unwrap(error))
      }
    }
  }
}

private fun <T> CompletableFuture<T>.resultNow(): T =
  try {
    @Suppress("UNCHECKED_CAST")
    (getNow(null) as T)
  } catch (e: CompletionException) {
    throw unwrap(e)
  }

public fun unwrap(error: Throwable): Throwable {
  var e = error
  while ((e is CompletionException || e is ExecutionException) && e.cause != null) e = e.cause!!
  return e
}
