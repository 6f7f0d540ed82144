package dev.svc.chat.internal.files;

import java.io.IOException;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.json.Json;

/**
 * The state of one file part's upload, kept in the part's {@value MessagePart#UPLOAD_FIELD} raw field and so in the
 * send's outbox record: {@code {"file": path?, "length": n?, "chunk": n?, "digest": hex?, "chunks": n?, "url":
 * upload?}}. The source's path (a file source) lets a restart read it again; its length (taken before the upload was
 * created) and the digest ({@link SourceDigests}'s fingerprint of its first {@code chunks} chunks of {@code chunk}
 * bytes, recorded before any byte of the last of them was sent) tell whether the bytes the service holds are still
 * the source's; the upload's URL lets a restart resume it (HEAD) instead of starting over. A record without {@code
 * chunks} covers every chunk (the source was measured whole before its upload was created).
 */
final class UploadState {
  private static final JsonReader.Options NAMES = JsonReader.Options.of("file", "length", "chunk", "digest", "url",
      "chunks");

  final String file;
  final long length;
  final int chunk;
  final String digest;
  /** The chunks the digest covers, from the first. */
  final long chunks;
  final String url;

  UploadState(String file, long length, int chunk, String digest, long chunks, String url) {
    this.file = file;
    this.length = length;
    this.chunk = chunk;
    this.digest = digest;
    this.chunks = chunks;
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
    long chunks = -1;
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
          } else if (name == 5) {
            chunks = r.nextLong();
          } else {
            String value = r.nextString();
            if (name == 0) file = value;
            if (name == 3) digest = value;
            if (name == 4) url = value;
          }
        }
        r.endObject();
      } catch (IOException | JsonDataException | NumberFormatException e) {
        return new UploadState(file, -1, 0, null, 0, null);
      }
    }
    if (digest == null || chunk < 1 || length < 0) return new UploadState(file, -1, 0, null, 0, null);
    long all = (length + chunk - 1) / chunk;
    if (chunks < 0) chunks = all; // measured whole before the upload was created
    if (chunks > all) return new UploadState(file, -1, 0, null, 0, null);
    return new UploadState(file, length, chunk, digest, chunks, url);
  }

  /** Returns whether the source's length and chunk size were recorded (its upload may have begun). */
  boolean measured() {
    return digest != null;
  }

  /** Returns the state covering the chunks whose digests {@code digests} knows (none, before the upload begins). */
  UploadState covering(SourceDigests digests) {
    return new UploadState(file, digests.length, digests.chunkBytes, digests.fingerprint(), digests.count(), url);
  }

  UploadState at(String url) {
    return new UploadState(file, length, chunk, digest, chunks, url);
  }

  /** Returns the part with this state in its upload field. */
  MessagePart applyTo(MessagePart part) {
    StringBuilder json = new StringBuilder("{");
    if (file != null) json.append("\"file\":").append(Json.string(file)).append(',');
    if (length >= 0) json.append("\"length\":").append(length).append(',');
    if (chunk > 0) json.append("\"chunk\":").append(chunk).append(',');
    if (digest != null) json.append("\"digest\":").append(Json.string(digest)).append(',');
    if (digest != null) json.append("\"chunks\":").append(chunks).append(',');
    if (url != null) json.append("\"url\":").append(Json.string(url)).append(',');
    if (json.length() > 1) json.setLength(json.length() - 1);
    return part.newBuilder().rawField(MessagePart.UPLOAD_FIELD, json.append('}').toString()).build();
  }
}
