package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Turns composer text with {@code @name} tokens into a message's text and {@link Message#mentions()}, and a
 * message's text back into {@code @name} for display. A token is an {@code @} at the start of the text or after a
 * character that is no letter or digit (so {@code bob@example.com} is none), followed by a member's user id or
 * display name (compared without case, the longest that fits) and then by no letter, digit or {@code _}. In the
 * sent text each recognised token reads {@code @userId}, which stays true when a member changes their name.
 * Unknown names are left as they were typed; a member named twice is mentioned once; past the
 * {@value SendOptions#MAX_MENTIONS} distinct members the service allows, further names are left as text.
 */
public final class MentionText {
  private final String text;
  private final List<String> mentions;

  private MentionText(String text, List<String> mentions) {
    this.text = text;
    this.mentions = Collections.unmodifiableList(mentions);
  }

  /**
   * Parses composer text against the room's members, named by their user ids.
   *
   * @param text what the user typed
   * @param memberIds the room's members ({@link Room#memberIds()})
   * @return the text to send and its mentions
   */
  public static MentionText parse(String text, Collection<String> memberIds) {
    if (memberIds == null) throw new NullPointerException("memberIds == null");
    Map<String, String> names = new LinkedHashMap<>();
    for (String id : memberIds) names.put(id, id);
    return parse(text, names);
  }

  /**
   * Parses composer text against the room's members and their display names: {@code @} followed by either a
   * member's user id or its display name is a mention.
   *
   * @param text what the user typed
   * @param names each member's user id to its display name (a name may hold spaces)
   * @return the text to send and its mentions
   */
  public static MentionText parse(String text, Map<String, String> names) {
    if (text == null) throw new NullPointerException("text == null");
    if (names == null) throw new NullPointerException("names == null");
    StringBuilder out = new StringBuilder(text.length());
    Set<String> mentioned = new LinkedHashSet<>();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '@' && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)))) {
        String[] match = longestMatch(text, i + 1, names);
        if (match != null && (mentioned.contains(match[0]) || mentioned.size() < SendOptions.MAX_MENTIONS)) {
          mentioned.add(match[0]);
          out.append('@').append(match[0]);
          i += 1 + match[1].length();
          continue;
        }
      }
      out.append(c);
      i++;
    }
    return new MentionText(out.toString(), new ArrayList<>(mentioned));
  }

  /** Returns {userId, the matched text} of the longest id or name at {@code at}, or null. */
  private static String @Nullable [] longestMatch(String text, int at, Map<String, String> names) {
    String[] best = null;
    for (Map.Entry<String, String> e : names.entrySet()) {
      for (String candidate : new String[] {e.getKey(), e.getValue()}) {
        if (candidate == null || candidate.isEmpty()) continue;
        int end = at + candidate.length();
        if (end > text.length() || !text.regionMatches(true, at, candidate, 0, candidate.length())) continue;
        if (end < text.length() && isNameChar(text.charAt(end))) continue;
        if (best == null || candidate.length() > best[1].length()) {
          best = new String[] {e.getKey(), text.substring(at, end)};
        }
      }
    }
    return best;
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /**
   * Returns a message's text for display: each {@code @userId} token of a user the message mentions reads
   * {@code @} and their display name; other text is as sent.
   *
   * @param message the message
   * @param names user id to display name; a user without one keeps their id
   * @return the text to show
   */
  public static String display(Message message, Map<String, String> names) {
    if (message == null) throw new NullPointerException("message == null");
    return display(message.text(), message.mentions(), names);
  }

  /**
   * Returns text for display: each {@code @userId} token of a user in {@code mentions} reads {@code @} and their
   * display name.
   *
   * @param text the sent text
   * @param mentions the users the message mentions
   * @param names user id to display name; a user without one keeps their id
   * @return the text to show
   */
  public static String display(String text, List<String> mentions, Map<String, String> names) {
    if (text == null) throw new NullPointerException("text == null");
    if (mentions.isEmpty()) return text;
    Map<String, String> mentioned = new LinkedHashMap<>();
    for (String id : mentions) {
      String name = names.get(id);
      mentioned.put(id, name == null || name.isEmpty() ? id : name);
    }
    Map<String, String> ids = identity(mentioned.keySet());
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    String s = text;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '@' && (i == 0 || !Character.isLetterOrDigit(s.charAt(i - 1)))) {
        String[] match = longestMatch(s, i + 1, ids);
        if (match != null) {
          out.append('@').append(mentioned.get(match[0]));
          i += 1 + match[1].length();
          continue;
        }
      }
      out.append(c);
      i++;
    }
    return out.toString();
  }

  private static Map<String, String> identity(Set<String> ids) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String id : ids) m.put(id, id);
    return m;
  }

  /**
   * Returns the text to send: the composer's text with each recognised token as {@code @userId}.
   *
   * @return the text
   */
  public String text() {
    return text;
  }

  /**
   * Returns the distinct members mentioned, in the order first named, at most {@value SendOptions#MAX_MENTIONS}.
   *
   * @return an unmodifiable list of user ids
   */
  public List<String> mentions() {
    return mentions;
  }

  /**
   * Returns the message's parts: one text part.
   *
   * @return an unmodifiable list of one part
   */
  public List<MessagePart> parts() {
    return Collections.singletonList(MessagePart.text(text));
  }

  /**
   * Returns send options that carry the mentions, to add a reply or a thread to before {@code build()}.
   *
   * @return a new builder
   */
  public SendOptions.Builder options() {
    return SendOptions.builder().mentions(mentions);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof MentionText)) return false;
    MentionText m = (MentionText) o;
    return text.equals(m.text) && mentions.equals(m.mentions);
  }

  @Override
  public int hashCode() {
    return 31 * text.hashCode() + mentions.hashCode();
  }

  @Override
  public String toString() {
    return "MentionText{text=" + text + ", mentions=" + mentions + "}";
  }
}
