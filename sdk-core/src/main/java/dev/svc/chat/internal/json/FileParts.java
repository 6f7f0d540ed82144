package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.Map;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.MessagePart;

/**
 * The fields of a {@code file} part (contract section 9): the service's {@code {type: "file", fileId, name,
 * contentType, size, sha256, width?, height?}}, read from a part's raw fields into a {@link FileAttachment}.
 */
public final class FileParts {
  private FileParts() {
  }

  /** Returns the part's file as the service stored it, or null when it is not a file part with a fileId. */
  public static FileAttachment attachment(MessagePart part) {
    if (!MessagePart.TYPE_FILE.equals(part.type())) return null;
    Map<String, String> raw = part.rawFields();
    String fileId = string(raw.get("fileId"));
    if (fileId == null || fileId.isEmpty()) return null;
    FileAttachment.Builder b = FileAttachment.builder(fileId);
    String name = string(raw.get("name"));
    if (name != null) b.name(name);
    String contentType = string(raw.get("contentType"));
    if (contentType != null) b.contentType(contentType);
    Long size = number(raw.get("size"));
    if (size != null && size >= 0) b.size(size);
    String sha256 = string(raw.get("sha256"));
    if (sha256 != null) b.sha256(sha256);
    Long width = number(raw.get("width"));
    Long height = number(raw.get("height"));
    if (width != null && height != null && width > 0 && height > 0 && width <= Integer.MAX_VALUE
        && height <= Integer.MAX_VALUE) {
      b.dimensions(width.intValue(), height.intValue());
    }
    return b.build();
  }

  /** Returns the JSON string {@code raw} holds, or null for none, null, or another type. */
  public static String string(String raw) {
    if (raw == null) return null;
    try {
      JsonReader r = Json.reader(raw);
      return r.peek() == JsonReader.Token.STRING ? r.nextString() : null;
    } catch (IOException | JsonDataException e) {
      return null;
    }
  }

  /** Returns the whole number {@code raw} holds, or null for none or another type. */
  public static Long number(String raw) {
    if (raw == null) return null;
    try {
      JsonReader r = Json.reader(raw);
      return r.peek() == JsonReader.Token.NUMBER ? r.nextLong() : null;
    } catch (IOException | JsonDataException | NumberFormatException e) {
      return null;
    }
  }
}
