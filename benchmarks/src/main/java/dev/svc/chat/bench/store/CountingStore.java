package dev.svc.chat.bench.store;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.svc.chat.MessagePage;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.ChatStoreProvider;
import dev.svc.chat.store.RoomDigest;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import dev.svc.chat.store.StoredRoom;
import dev.svc.chat.store.StoredState;

/** A provider that counts the writes of the stores it opens: how many, how many messages, time inside write. */
final class CountingStore implements ChatStoreProvider {
  private final ChatStoreProvider delegate;
  final AtomicLong writes = new AtomicLong();
  final AtomicLong messages = new AtomicLong();
  final AtomicLong writeNanos = new AtomicLong();
  final AtomicLong largest = new AtomicLong();
  /** Nanos (System.nanoTime) when open was called, and inside open, load and every digest. */
  volatile long openAt;
  volatile long openNanos;
  volatile long loadNanos;
  final AtomicLong digestNanos = new AtomicLong();

  CountingStore(ChatStoreProvider delegate) {
    this.delegate = delegate;
  }

  @Override
  public ChatStore open(String userId) throws StoreException {
    openAt = System.nanoTime();
    final ChatStore store = delegate.open(userId);
    openNanos = System.nanoTime() - openAt;
    return new ChatStore() {
      @Override
      public StoredState load() throws StoreException {
        long t0 = System.nanoTime();
        StoredState state = store.load();
        loadNanos = System.nanoTime() - t0;
        return state;
      }

      @Override
      public MessagePage messages(String roomId, MessageQuery query) throws StoreException {
        return store.messages(roomId, query);
      }

      @Override
      public RoomDigest digest(String roomId, String user, long readSeq, int recent, int limit)
          throws StoreException {
        long t0 = System.nanoTime();
        RoomDigest digest = store.digest(roomId, user, readSeq, recent, limit);
        digestNanos.addAndGet(System.nanoTime() - t0);
        return digest;
      }

      @Override
      public void write(StoreWrite write) throws StoreException {
        long t0 = System.nanoTime();
        store.write(write);
        writeNanos.addAndGet(System.nanoTime() - t0);
        int n = write.messages().size();
        writes.incrementAndGet();
        messages.addAndGet(n);
        largest.accumulateAndGet(n, Math::max);
      }

      @Override
      public void clear() throws StoreException {
        store.clear();
      }

      @Override
      public void close() {
        store.close();
      }

      @Override
      public List<StoredRoom> rooms() throws StoreException {
        return store.rooms();
      }
    };
  }

  @Override
  public void delete(String userId) throws StoreException {
    delegate.delete(userId);
  }
}
