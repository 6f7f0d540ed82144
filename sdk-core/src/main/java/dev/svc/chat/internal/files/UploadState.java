package dev.svc.chat.internal.files;

import java.io.IOException;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.json.Json;

/**
 * The state of one file part's upload, kept in the part's {@value MessagePart#UPLOAD_FIELD} raw field and so in the
 * send's outbox record: {@code {"file": path?, "length": n?, "chunk": n?, "digest": hex?, "url": upload?}}. The
 * source's path (a file source) lets a restart read it again; its length and digest ({@link SourceDigests}'s
 * fingerprint over chunks of {@code chunk} bytes), measured before the upload was created, tell whether it changed
 * since; the upload's URL lets a restart resume it (HEAD) instead of starting over.
 */
final class UploadState {
  private static final JsonReader.Options NAMES = JsonReader.Options.of("file", "length", "chunk", "digest", "url");

  final String file;
  final long length;
  final int chunk;
  final String digest;
  final String url;

  UploadState(String file, long length, int chunk, String digest, String url) {
    this.file = file;
    this.length = length;
    this.chunk = chunk;
    this.digest = digest;
    this.url = url;
  }

  /**
   * Reads the state of {@code part}; an unreadable one counts as empty (the upload starts over), and so does one
   * without a digest or chunk size (then the upload's bytes cannot be checked against the source).
   */
  static UploadState of(MessagePart part) {
    String raw = part.rawFields().get(MessagePart.UPLOAD_FIELD);
    String file = null;
    long length = -1;
    int chunk = 0;
    String digest = null;
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
          } else if (name == 2) {
            chunk = r.nextInt();
          } else {
            String value = r.nextString();
            if (name == 0) file = value;
            if (name == 3) digest = value;
            if (name == 4) url = value;
          }
        }
        r.endObject();
      } catch (IOException | JsonDataException | NumberFormatException e) {
        return new UploadState(file, -1, 0, null, null);
      }
    }
    if (digest == null || chunk < 1 || length < 0) return new UploadState(file, -1, 0, null, null);
    return new UploadState(file, length, chunk, digest, url);
  }

  /** Returns whether the source was measured before its upload was created. */
  boolean measured() {
    return digest != null;
  }

  UploadState measured(SourceDigests digests) {
    return new UploadState(file, digests.length, digests.chunkBytes, digests.fingerprint, null);
  }

  UploadState at(String url) {
    return new UploadState(file, length, chunk, digest, url);
  }

  /** Returns the part with this state in its upload field. */
  MessagePart applyTo(MessagePart part) {
    StringBuilder json = new StringBuilder("{");
    if (file != null) json.append("\"file\":").append(Json.string(file)).append(',');
    if (length >= 0) json.append("\"length\":").append(length).append(',');
    if (chunk > 0) json.append("\"chunk\":").append(chunk).append(',');
    if (digest != null) json.append("\"digest\":").append(Json.string(digest)).append(',');
    if (url != null) json.append("\"url\":").append(Json.string(url)).append(',');
    if (json.length() > 1) json.setLength(json.length() - 1);
    return part.newBuilder().rawField(MessagePart.UPLOAD_FIELD, json.append('}').toString()).build();
  }
}
