package dev.svc.chat.internal.files;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

import dev.svc.chat.ApiException;
import dev.svc.chat.FileException;
import dev.svc.chat.FileSource;
import dev.svc.chat.MessagePart;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.json.FileParts;
import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.outbox.SendProgress;
import okio.ByteString;

/**
 * The upload of one send's files, on an upload worker (it blocks): for each file part still to upload, measures
 * the source (length and sha256, recorded before the upload is created), creates the upload or asks the service
 * where an earlier one stands ({@code HEAD}), and sends the rest in {@code PATCH} chunks. The source is read from
 * its start at each attempt, so its sha256 is checked again before the last chunk goes: a source that changed
 * never completes an upload (it is terminated, and the send fails with {@link FileException}). Each step that a
 * restart needs (the measure, the upload's URL, the file's id) is recorded in the part before the next starts.
 */
final class SendUpload {
  /** Rounds of {@code 409} (the service's offset differs from ours) resolved with a HEAD within one attempt. */
  private static final int CONFLICT_ROUNDS = 3;

  /** Hears the bytes the service holds of the send's files, and their total. */
  interface Progress {
    void bytes(long sent, long total);
  }

  private final TusClient tus;
  private final int chunkBytes;
  private final SendProgress send;
  private final Progress progress;

  SendUpload(TusClient tus, int chunkBytes, SendProgress send, Progress progress) {
    this.tus = tus;
    this.chunkBytes = chunkBytes;
    this.send = send;
    this.progress = progress;
  }

  /** Returns whether {@code part} is a file part still to upload. */
  static boolean pending(MessagePart part) {
    return part.isFile() && part.rawFields().containsKey(MessagePart.UPLOAD_FIELD);
  }

  /** Uploads the files of {@code parts}; returns the parts with their file ids (and no upload state). */
  List<MessagePart> run(List<MessagePart> parts) {
    List<MessagePart> current = new ArrayList<>(parts);
    FileSource[] sources = new FileSource[current.size()];
    long[] lengths = new long[current.size()];
    long total = 0;
    for (int i = 0; i < current.size(); i++) {
      if (!pending(current.get(i))) continue;
      sources[i] = source(current.get(i));
      lengths[i] = length(sources[i]);
      total += lengths[i];
    }
    long done = 0;
    for (int i = 0; i < current.size(); i++) {
      if (sources[i] == null) continue;
      current.set(i, upload(current, i, sources[i], lengths[i], done, total));
      record(current);
      done += lengths[i];
    }
    progress.bytes(done, total);
    return current;
  }

  private MessagePart upload(List<MessagePart> parts, int index, FileSource source, long length, long before,
      long total) {
    MessagePart part = parts.get(index);
    UploadState state = UploadState.of(part);
    if (state.sha256 == null || state.length < 0) {
      state = state.measured(length, sha256(source, length));
      parts.set(index, part = state.applyTo(part));
      record(parts); // what the source was, before any byte of it is sent
    } else if (state.length != length) {
      throw changed(source, "its length is " + length + ", not " + state.length);
    }
    long offset = -1;
    if (state.url != null) {
      try {
        offset = tus.offset(state.url);
      } catch (ApiException e) {
        if (e.status() != 404 && e.status() != 410) throw e; // gone (expired): a new upload
      }
    }
    if (offset < 0) {
      state = state.at(tus.create(length, source.name(), source.contentType()));
      parts.set(index, part = state.applyTo(part));
      record(parts);
      offset = 0;
    }
    for (int round = 0; ; round++) {
      try {
        transfer(source, state, offset, before, total);
        break;
      } catch (OffsetConflict conflict) {
        if (round == CONFLICT_ROUNDS) throw new TransportException("the upload's offset kept moving", conflict);
        offset = tus.offset(state.url);
      }
    }
    String url = state.url;
    String fileId = url.substring(url.lastIndexOf('/') + 1);
    return part.newBuilder().upload(null).removeRawField(MessagePart.UPLOAD_FIELD)
        .rawField("fileId", Json.string(fileId)).build();
  }

  /** Sends the source's bytes from {@code offset} on, reading (and hashing) it from its start. */
  private void transfer(FileSource source, UploadState state, long offset, long before, long total) {
    MessageDigest digest = sha256();
    byte[] chunk = new byte[chunkBytes];
    try (InputStream in = source.open()) {
      for (long left = offset; left > 0; ) { // the bytes the service holds: hashed, not sent
        int n = in.read(chunk, 0, (int) Math.min(chunk.length, left));
        if (n < 0) throw changed(source, "it is shorter than " + state.length + " bytes");
        digest.update(chunk, 0, n);
        left -= n;
      }
      progress.bytes(before + offset, total);
      while (offset < state.length) {
        if (send.cancelled()) {
          tus.terminate(state.url);
          throw new CancellationException("the send was cancelled");
        }
        if (send.ended()) throw new TransportException("the send ended while its file was uploading");
        int n = readFully(in, chunk, (int) Math.min(chunk.length, state.length - offset));
        if (n < 0) throw changed(source, "it is shorter than " + state.length + " bytes");
        digest.update(chunk, 0, n);
        if (offset + n == state.length) { // the last chunk goes only for the very bytes measured at first
          String hex = ByteString.of(digest.digest()).hex();
          if (in.read() >= 0 || !hex.equals(state.sha256)) {
            tus.terminate(state.url);
            throw changed(source, "its sha256 is no longer " + state.sha256);
          }
        }
        long next;
        try {
          next = tus.patch(state.url, offset, chunk, n);
        } catch (ApiException e) {
          if (e.status() == 409) throw new OffsetConflict(e);
          if (e.status() == 460) throw new TransportException("a chunk arrived damaged (checksum mismatch)", e);
          throw e;
        }
        if (next != offset + n) throw new OffsetConflict(null);
        offset = next;
        progress.bytes(before + offset, total);
      }
    } catch (IOException e) {
      throw vanished(source, e);
    }
  }

  private void record(List<MessagePart> parts) {
    TusClient.await(send.partsChanged(new ArrayList<>(parts)));
  }

  /** Returns the source of a part: made in this process, or a file recorded in its state. */
  private static FileSource source(MessagePart part) {
    if (part.upload() != null) return part.upload();
    UploadState state = UploadState.of(part);
    if (state.file == null) {
      throw new FileException(FileException.Kind.SOURCE_VANISHED, "the source of file part "
          + FileParts.string(part.rawFields().get("name")) + " was a stream of a process that ended", null);
    }
    FileSource.Builder b = FileSource.builder(new File(state.file));
    String name = FileParts.string(part.rawFields().get("name"));
    if (name != null) b.name(name);
    return b.contentType(FileParts.string(part.rawFields().get("contentType"))).build();
  }

  private static long length(FileSource source) {
    if (source.file() == null) return source.length() >= 0 ? source.length() : count(source);
    if (!source.file().isFile()) throw vanished(source, null);
    return source.file().length();
  }

  /** Measures an opener's bytes by reading them once. */
  private static long count(FileSource source) {
    byte[] buffer = new byte[64 * 1024];
    long count = 0;
    try (InputStream in = source.open()) {
      for (int n; (n = in.read(buffer)) >= 0; ) count += n;
    } catch (IOException e) {
      throw vanished(source, e);
    }
    return count;
  }

  private static String sha256(FileSource source, long length) {
    MessageDigest digest = sha256();
    byte[] buffer = new byte[64 * 1024];
    long count = 0;
    try (InputStream in = source.open()) {
      for (int n; (n = in.read(buffer)) >= 0; count += n) digest.update(buffer, 0, n);
    } catch (IOException e) {
      throw vanished(source, e);
    }
    if (count != length) throw changed(source, "it holds " + count + " bytes, not " + length);
    return ByteString.of(digest.digest()).hex();
  }

  private static int readFully(InputStream in, byte[] buffer, int count) throws IOException {
    int read = 0;
    while (read < count) {
      int n = in.read(buffer, read, count - read);
      if (n < 0) return -1;
      read += n;
    }
    return read;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e); // every Java and Android platform has SHA-256
    }
  }

  private static FileException changed(FileSource source, String how) {
    return new FileException(FileException.Kind.SOURCE_CHANGED, "the file " + source + " changed: " + how, null);
  }

  private static FileException vanished(FileSource source, Throwable cause) {
    return new FileException(FileException.Kind.SOURCE_VANISHED, "the file " + source + " cannot be read"
        + (cause == null ? "" : ": " + cause.getMessage()), cause);
  }

  /** The service holds another offset than the one a PATCH was sent at: ask it (HEAD) and go on from there. */
  private static final class OffsetConflict extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OffsetConflict(Throwable cause) {
      super("the upload's offset differs from the service's", cause);
    }
  }
}
