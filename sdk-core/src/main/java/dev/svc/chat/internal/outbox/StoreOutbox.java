package dev.svc.chat.internal.outbox;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.internal.offline.OfflineStore;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredSend;

/**
 * The outbox in the offline store: each send is a row written in its own transaction before its first
 * attempt, and removed when it ends. The sends a user left are those the store's open read.
 */
final class StoreOutbox implements OutboxPersistence {
  private final OfflineStore offline;

  StoreOutbox(OfflineStore offline) {
    this.offline = offline;
  }

  @Override
  public Object write(OutboxEntry e) throws IOException {
    StoredSend send = new StoredSend(e.roomId, e.clientMessageId, e.senderId, e.parts, e.links.replyToId,
        e.links.threadId, e.links.mentions, e.createdAt, e.sequence);
    apply(new StoreWrite().send(send));
    return send;
  }

  @Override
  public void delete(Object handle) throws IOException {
    StoredSend send = (StoredSend) handle; // a send is its room's and clientMessageId's, as the service keys it
    apply(new StoreWrite().endSend(send.roomId(), send.clientMessageId()));
  }

  private void apply(StoreWrite write) throws IOException {
    ChatStore store = offline.store();
    if (store == null) throw new IOException("the offline store is not open");
    try {
      store.write(write);
    } catch (StoreException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  @Override
  public List<OutboxEntry> load(String userId, long nowMillis, FileOutboxStore.Reporter reporter) {
    List<OutboxEntry> entries = new ArrayList<>();
    List<StoredSend> sends = offline.takeLoadedSends();
    if (sends == null) return entries;
    for (StoredSend s : sends) {
      if (!s.senderId().equals(userId)) continue;
      OutboxEntry e = new OutboxEntry(s.roomId(), s.parts(), SendLinks.of(s.replyToId(), s.threadId(), s.mentions()),
          s.clientMessageId(), s.senderId(), s.createdAt(), null, nowMillis);
      e.sequence = s.sequence();
      e.handle = s;
      entries.add(e);
    }
    return entries;
  }

  @Override
  public String where() {
    return "the offline store";
  }
}
