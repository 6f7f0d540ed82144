package dev.svc.chat.internal;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Drops repeats of {@code new-message} by (room, seq). A message can arrive twice when two connections
 * overlap (the make-before-break of a token refresh); the service's per-room {@code seq} identifies it.
 * It remembers the latest {@value #WINDOW} seqs delivered per room, so a late message with a lower seq
 * that was never delivered is still delivered. Confined to the engine's actor thread.
 */
public final class SeqDeduplicator {
  static final int WINDOW = 512;
  private final Map<String, LinkedHashMap<Long, Boolean>> seen = new HashMap<>();

  /** Returns true the first time (room, seq) is offered, false for a repeat. */
  public boolean firstTime(String roomId, long seq) {
    LinkedHashMap<Long, Boolean> window = seen.get(roomId);
    if (window == null) {
      window = new LinkedHashMap<Long, Boolean>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
          return size() > WINDOW;
        }
      };
      seen.put(roomId, window);
    }
    return window.put(seq, Boolean.TRUE) == null;
  }
}
