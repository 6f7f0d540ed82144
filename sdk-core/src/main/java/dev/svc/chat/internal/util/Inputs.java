package dev.svc.chat.internal.util;

import java.util.List;

import dev.svc.chat.MessagePart;

/** Checks of user input against the contract, made where the input is given, with clear messages. */
public final class Inputs {
  /** The most parts a message may have. */
  public static final int MAX_PARTS = 10;
  /** The largest (and default) page of changes. */
  public static final int MAX_CHANGES = 100;

  private Inputs() {
  }

  /** Checks a user id: 1 to 128 characters of {@code A-Z a-z 0-9 _ - . @ :}. */
  public static String userId(String userId) {
    nonNull(userId, "userId");
    if (userId.isEmpty() || userId.length() > 128) {
      throw new IllegalArgumentException("userId must be 1 to 128 characters: " + userId.length());
    }
    for (int i = 0; i < userId.length(); i++) {
      char c = userId.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '_' || c == '-' || c == '.' || c == '@' || c == ':';
      if (!ok) {
        throw new IllegalArgumentException("userId may only hold A-Z a-z 0-9 _ - . @ : (found '" + c + "')");
      }
    }
    return userId;
  }

  /** Checks a session token; refuses API keys, which never belong in client code. */
  public static String sessionToken(String token) {
    nonNull(token, "token");
    if (token.trim().isEmpty()) throw new IllegalArgumentException("token is empty");
    if (token.startsWith("sk_")) {
      throw new IllegalArgumentException("an API key (sk_...) was given as the session token: API keys never "
          + "belong in client code; have your backend mint a session token with it and pass that instead");
    }
    return token;
  }

  /** Checks a room id (made by the service: any non-empty string). */
  public static String roomId(String roomId) {
    nonNull(roomId, "roomId");
    if (roomId.isEmpty()) throw new IllegalArgumentException("roomId is empty");
    return roomId;
  }

  /** Checks a client message id: 1 to 64 characters. */
  public static String clientMessageId(String id) {
    nonNull(id, "clientMessageId");
    if (id.isEmpty() || id.length() > 64) {
      throw new IllegalArgumentException("clientMessageId must be 1 to 64 characters: " + id.length());
    }
    return id;
  }

  /** Checks message parts: 1 to 10, none null. */
  public static List<MessagePart> parts(List<MessagePart> parts) {
    nonNull(parts, "parts");
    if (parts.isEmpty() || parts.size() > MAX_PARTS) {
      throw new IllegalArgumentException("a message has 1 to " + MAX_PARTS + " parts: " + parts.size());
    }
    for (MessagePart p : parts) nonNull(p, "part");
    return parts;
  }

  /** Checks a message id (made by the service: any non-empty string). */
  public static String messageId(String messageId) {
    nonNull(messageId, "messageId");
    if (messageId.isEmpty()) throw new IllegalArgumentException("messageId is empty");
    return messageId;
  }

  /** Checks a reaction: 1 to 32 code points, no whitespace or control characters. */
  public static String emoji(String emoji) {
    nonNull(emoji, "emoji");
    int n = emoji.codePointCount(0, emoji.length());
    if (n < 1 || n > 32) throw new IllegalArgumentException("emoji must be 1 to 32 characters: " + n);
    for (int i = 0; i < emoji.length(); ) {
      int cp = emoji.codePointAt(i);
      if (Character.isWhitespace(cp) || Character.isISOControl(cp)) {
        throw new IllegalArgumentException("emoji must not contain whitespace or control characters");
      }
      i += Character.charCount(cp);
    }
    return emoji;
  }

  /** Checks the {@code since} of a changes request: a room revision, at least 0. */
  public static long since(long since) {
    if (since < 0) throw new IllegalArgumentException("since must be a revision of at least 0: " + since);
    return since;
  }

  /** Checks the page size of a changes request: 1 to 100. */
  public static int changesLimit(int limit) {
    if (limit < 1 || limit > MAX_CHANGES) {
      throw new IllegalArgumentException("limit must be 1 to " + MAX_CHANGES + ": " + limit);
    }
    return limit;
  }

  /** Throws {@link NullPointerException} naming the argument when it is null. */
  public static <T> T nonNull(T value, String name) {
    if (value == null) throw new NullPointerException(name + " == null");
    return value;
  }
}
