package dev.svc.chat.internal.search;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The cursor of a search of the offline store: the position of a page's last result (creation time, seq, room)
 * and a check over that position and the search it belongs to (user, canonical terms, filters). A cursor of
 * another search, of the service, or altered fails {@link #decode}. It is no secret: it guards against mistakes,
 * not against the store's own user, who can read the store anyway.
 */
public final class StoredCursor {
  private static final String PREFIX = "s1.";

  private final long createdAt;
  private final long seq;
  private final String roomId;

  /** Creates the position after a result. */
  public StoredCursor(long createdAt, long seq, String roomId) {
    this.createdAt = createdAt;
    this.seq = seq;
    this.roomId = roomId;
  }

  /** Returns the creation time of the last result given. */
  public long createdAt() {
    return createdAt;
  }

  /** Returns the seq of the last result given. */
  public long seq() {
    return seq;
  }

  /** Returns the room of the last result given. */
  public String roomId() {
    return roomId;
  }

  /** Returns the text of this cursor for the search {@code search} ({@link #searchKey}). */
  public String encode(String search) {
    String position = createdAt + "." + seq + "." + hex(roomId.getBytes(StandardCharsets.UTF_8));
    return PREFIX + position + "." + check(search, position);
  }

  /** Returns the cursor of {@code text}, or null when this search did not give it. */
  public static StoredCursor decode(String text, String search) {
    if (!text.startsWith(PREFIX)) return null;
    String[] fields = text.substring(PREFIX.length()).split("\\.", -1);
    if (fields.length != 4) return null;
    String position = fields[0] + "." + fields[1] + "." + fields[2];
    if (!check(search, position).equals(fields[3])) return null;
    try {
      byte[] room = unhex(fields[2]);
      if (room == null || room.length == 0) return null;
      return new StoredCursor(Long.parseLong(fields[0]), Long.parseLong(fields[1]),
          new String(room, StandardCharsets.UTF_8));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Returns what binds a cursor to its search: the user, the canonical terms and the filters. */
  public static String searchKey(String userId, String canonical, String roomId, String senderId) {
    return userId + '\u0000' + canonical + '\u0000' + (roomId == null ? "" : "r" + roomId) + '\u0000'
        + (senderId == null ? "" : "s" + senderId);
  }

  private static String check(String search, String position) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(search.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      byte[] digest = sha.digest(position.getBytes(StandardCharsets.UTF_8));
      byte[] head = new byte[12];
      System.arraycopy(digest, 0, head, 0, head.length);
      return hex(head);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("SHA-256 is in every Java platform", e);
    }
  }

  private static String hex(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    return out.toString();
  }

  private static byte[] unhex(String text) {
    if (text.length() % 2 != 0) return null;
    byte[] out = new byte[text.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = Character.digit(text.charAt(2 * i), 16);
      int lo = Character.digit(text.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) return null;
      out[i] = (byte) (hi << 4 | lo);
    }
    return out;
  }
}
