package dev.svc.chat.internal.recovery;

import dev.svc.chat.Message;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;

/**
 * What recovery tells the offline store, on the actor, in the order it happens: each delivery with the room's
 * watermarks after it, so that a store holds the messages a watermark covers in the same write. Called before
 * the delivery's event is published; {@link #NONE} without a store.
 */
public interface RecoveryJournal {
  /** Records nothing: a client without a store. */
  RecoveryJournal NONE = new RecoveryJournal() {
  };

  /** {@code m} was delivered (new or changed); the room's watermarks are now {@code seq} and {@code rev}. */
  default void delivered(Message m, long seq, long rev) {
  }

  /** {@code receipt} was delivered. */
  default void receipt(Receipt receipt) {
  }

  /** The room's watermarks moved without a delivery (a start from a listing, a scan of the changes). */
  default void watermarks(String roomId, long seq, long rev) {
  }

  /**
   * The service's time of the latest thing the client saw from it moved to {@code at} (epoch milliseconds, by the
   * service's clock). A store keeps it ({@code StoredState.writtenAt}), so that after a restart a room the user
   * joined meanwhile delivers what was sent from then on.
   */
  default void serviceTime(long at) {
  }

  /** The room was listed. */
  default void listed(Room room) {
  }

  /** Every room of a listing was handed to {@link #listed}. */
  default void listingDone() {
  }

  /** The user can no longer read the room: it is forgotten. */
  default void forgotten(String roomId) {
  }

  /** Returns a journal that tells {@code a}, then {@code b}. */
  static RecoveryJournal both(final RecoveryJournal a, final RecoveryJournal b) {
    return new RecoveryJournal() {
      @Override
      public void delivered(Message m, long seq, long rev) {
        a.delivered(m, seq, rev);
        b.delivered(m, seq, rev);
      }

      @Override
      public void receipt(Receipt receipt) {
        a.receipt(receipt);
        b.receipt(receipt);
      }

      @Override
      public void watermarks(String roomId, long seq, long rev) {
        a.watermarks(roomId, seq, rev);
        b.watermarks(roomId, seq, rev);
      }

      @Override
      public void serviceTime(long at) {
        a.serviceTime(at);
        b.serviceTime(at);
      }

      @Override
      public void listed(Room room) {
        a.listed(room);
        b.listed(room);
      }

      @Override
      public void listingDone() {
        a.listingDone();
        b.listingDone();
      }

      @Override
      public void forgotten(String roomId) {
        a.forgotten(roomId);
        b.forgotten(roomId);
      }
    };
  }
}
