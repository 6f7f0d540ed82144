package dev.svc.chat.internal.recovery;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ChangesPage;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.internal.rest.RestApi;

/** The {@link RecoverySource} of a real client: its REST API. */
public final class RecoveryReads implements RecoverySource {
  private final RestApi rest;

  private RecoveryReads(RestApi rest) {
    this.rest = rest;
  }

  /** Returns the recovery reads over {@code rest}. */
  public static RecoverySource over(RestApi rest) {
    return new RecoveryReads(rest);
  }

  @Override
  public CompletableFuture<List<Room>> listRooms() {
    return rest.listRooms();
  }

  @Override
  public CompletableFuture<MessagePage> messages(String roomId, MessageQuery query) {
    return rest.getMessages(roomId, query);
  }

  @Override
  public CompletableFuture<ChangesPage> changes(String roomId, long since) {
    return rest.getChanges(roomId, since, RoomBackfill.PAGE);
  }

  @Override
  public CompletableFuture<List<Receipt>> receipts(String roomId) {
    return rest.getReceipts(roomId);
  }

  @Override
  public void evictIdleConnections() {
    rest.evictIdleConnections();
  }
}
