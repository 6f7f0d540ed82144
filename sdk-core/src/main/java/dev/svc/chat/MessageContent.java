package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/** What a {@link Message} derives from its parts and reactions: its text, its files, its frozen reactions. */
final class MessageContent {
  private MessageContent() {
  }

  /** The concatenated text of the text parts; empty when there is none. */
  static String text(List<MessagePart> parts) {
    StringBuilder sb = new StringBuilder();
    for (MessagePart p : parts) {
      if (p.isText() && p.text() != null) sb.append(p.text());
    }
    return sb.toString();
  }

  /** The files of the file parts, in order, as an unmodifiable list. */
  static List<FileAttachment> files(List<MessagePart> parts) {
    List<FileAttachment> files = new ArrayList<>();
    for (MessagePart p : parts) {
      FileAttachment f = p.file();
      if (f != null) files.add(f);
    }
    return Collections.unmodifiableList(files);
  }

  /** An unmodifiable copy of a builder's reactions, its lists copied too; the shared empty map for none. */
  static Map<String, List<String>> frozen(@Nullable Map<String, List<String>> reactions) {
    if (reactions == null || reactions.isEmpty()) return Collections.emptyMap(); // the commonest case: no map per message
    Map<String, List<String>> r = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : reactions.entrySet()) {
      r.put(e.getKey(), Collections.unmodifiableList(new ArrayList<>(e.getValue())));
    }
    return Collections.unmodifiableMap(r);
  }
}
