package dev.svc.chat.internal.files;

import java.io.IOException;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.json.Json;

/**
 * The state of one file part's upload, kept in the part's {@value MessagePart#UPLOAD_FIELD} raw field and so in the
 * send's outbox record: {@code {"file": path?, "length": n?, "sha256": hex?, "url": upload?}}. The source's path
 * (a file source) lets a restart read it again; its length and sha256, measured before the upload was created,
 * tell whether it changed since; the upload's URL lets a restart resume it (HEAD) instead of starting over.
 */
final class UploadState {
  private static final JsonReader.Options NAMES = JsonReader.Options.of("file", "length", "sha256", "url");

  final String file;
  final long length;
  final String sha256;
  final String url;

  UploadState(String file, long length, String sha256, String url) {
    this.file = file;
    this.length = length;
    this.sha256 = sha256;
    this.url = url;
  }

  /** Reads the state of {@code part}; an unreadable one counts as empty (the upload starts over). */
  static UploadState of(MessagePart part) {
    String raw = part.rawFields().get(MessagePart.UPLOAD_FIELD);
    String file = null;
    long length = -1;
    String sha256 = null;
    String url = null;
    if (raw != null) {
      try {
        JsonReader r = Json.reader(raw);
        r.beginObject();
        while (r.hasNext()) {
          int name = r.selectName(NAMES);
          if (name < 0 || r.peek() == JsonReader.Token.NULL) {
            if (name < 0) r.skipName();
            r.skipValue();
          } else if (name == 1) {
            length = r.nextLong();
          } else {
            String value = r.nextString();
            if (name == 0) file = value;
            if (name == 2) sha256 = value;
            if (name == 3) url = value;
          }
        }
        r.endObject();
      } catch (IOException | JsonDataException | NumberFormatException e) {
        return new UploadState(file, -1, null, null);
      }
    }
    return new UploadState(file, length, sha256, url);
  }

  UploadState measured(long length, String sha256) {
    return new UploadState(file, length, sha256, null);
  }

  UploadState at(String url) {
    return new UploadState(file, length, sha256, url);
  }

  /** Returns the part with this state in its upload field. */
  MessagePart applyTo(MessagePart part) {
    StringBuilder json = new StringBuilder("{");
    if (file != null) json.append("\"file\":").append(Json.string(file)).append(',');
    if (length >= 0) json.append("\"length\":").append(length).append(',');
    if (sha256 != null) json.append("\"sha256\":").append(Json.string(sha256)).append(',');
    if (url != null) json.append("\"url\":").append(Json.string(url)).append(',');
    if (json.length() > 1) json.setLength(json.length() - 1);
    return part.newBuilder().rawField(MessagePart.UPLOAD_FIELD, json.append('}').toString()).build();
  }
}
