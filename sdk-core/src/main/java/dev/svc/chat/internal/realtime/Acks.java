package dev.svc.chat.internal.realtime;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import com.squareup.moshi.JsonDataException;
import dev.svc.chat.ChatException;
import dev.svc.chat.internal.json.AckReply;

/** Turns a gateway acknowledgement into the outcome of an operation. */
public final class Acks {
  private Acks() {
  }

  /**
   * Returns a future completed when the acknowledgement {@code ack} (its raw argument array) says
   * {@code ok: true}, failed with the ack's error as an {@link dev.svc.chat.ApiException} otherwise.
   */
  public static CompletableFuture<Void> expectOk(CompletableFuture<String> ack, final String event) {
    final CompletableFuture<Void> result = new CompletableFuture<>();
    ack.whenComplete(new BiConsumer<String, Throwable>() {
      @Override
      public void accept(String argsJson, Throwable error) {
        if (error != null) {
          result.completeExceptionally(error);
          return;
        }
        try {
          AckReply reply = AckReply.parse(argsJson);
          if (reply.ok) {
            result.complete(null);
          } else {
            result.completeExceptionally(reply.error.toApiException());
          }
        } catch (JsonDataException e) {
          result.completeExceptionally(new ChatException("malformed " + event + " acknowledgement", e));
        }
      }
    });
    return result;
  }
}
