package dev.svc.chat.internal.recovery;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ChangesPage;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;

/** The REST reads that recovery makes (contract section 4). Futures may complete on any thread. */
public interface RecoverySource {
  /** {@code GET /v1/chat/rooms}. */
  CompletableFuture<List<Room>> listRooms();

  /** {@code GET /v1/chat/rooms/{roomId}/messages}. */
  CompletableFuture<MessagePage> messages(String roomId, MessageQuery query);

  /** {@code GET /v1/chat/rooms/{roomId}/changes?since=}. */
  CompletableFuture<ChangesPage> changes(String roomId, long since);

  /** {@code GET /v1/chat/rooms/{roomId}/receipts}. */
  CompletableFuture<List<Receipt>> receipts(String roomId);

  /**
   * The gateway connection stalled (ping timeout): the path to the service may have stalled too, and with it
   * the idle pooled REST connections to it, which recovery's reads would reuse: close them.
   */
  default void evictIdleConnections() {
  }
}
