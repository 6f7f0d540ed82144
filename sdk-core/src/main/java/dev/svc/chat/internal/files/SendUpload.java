package dev.svc.chat.internal.files;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ApiException;
import dev.svc.chat.FileException;
import dev.svc.chat.FileSource;
import dev.svc.chat.MessagePart;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.json.FileParts;
import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.outbox.SendProgress;

/**
 * The upload of one send's files, on an upload worker (it blocks): for each file part still to upload, records the
 * source's length and chunk size, creates the upload or asks the service where an earlier one stands ({@code HEAD}),
 * and sends the rest in one streamed {@code PATCH} ({@link ChunkStream}), reading the source once. Each chunk's
 * sha256 is taken as it is read to be sent and recorded ({@link SourceDigests}, the part's {@link UploadState})
 * before any byte of it goes; a resume (the next attempt, or a restart) reads the recorded chunks again and compares
 * their fingerprint, and each chunk sent again must have its recorded sha256. So the bytes the service holds are
 * always those of the source as it is now: a source that changed where they were taken from never completes an
 * upload (it is terminated, and the send fails with {@link FileException}); one that changed only beyond them is
 * sent as it is now. The PATCH carries no {@code Upload-Checksum} (optional in tus): the service keeps what a cut
 * PATCH delivered, and the next attempt sends from there. Each step that a restart needs (the length, the upload's
 * URL, the digests, the file's id) is recorded in the part before the next starts.
 */
final class SendUpload {
  /** Rounds of {@code 409} (the service's offset differs from ours) resolved with a HEAD within one attempt. */
  private static final int CONFLICT_ROUNDS = 3;

  /** Hears the bytes of the send's files written to the connection (from the service's offset after a cut). */
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
      UploadState state = UploadState.of(current.get(i));
      lengths[i] = state.measured() ? state.length : lengthOf(sources[i]);
      total += lengths[i];
    }
    long done = 0;
    for (int i = 0; i < current.size(); i++) {
      if (sources[i] == null) continue;
      current.set(i, upload(current, i, sources[i], done, total));
      record(current);
      done += lengths[i];
    }
    progress.bytes(done, total);
    return current;
  }

  private MessagePart upload(List<MessagePart> parts, int index, FileSource source, long before, long total) {
    MessagePart part = parts.get(index);
    UploadState state = UploadState.of(part);
    SourceDigests digests;
    if (!state.measured()) {
      digests = new SourceDigests(chunkBytes, lengthOf(source));
      state = state.covering(digests);
      parts.set(index, part = state.applyTo(part));
      record(parts); // the source's length, before any byte of it is sent
    } else {
      digests = verified(source, state);
    }
    long offset = -1;
    if (state.url != null) {
      try {
        offset = tus.offset(state.url);
      } catch (ApiException e) {
        if (e.status() != 404 && e.status() != 410) throw e; // gone (expired): a new upload
      }
      if (offset > 0 && digests.count() < (offset + state.chunk - 1) / state.chunk) {
        tus.terminate(state.url); // the service holds bytes whose digests no record kept: they cannot be checked
        offset = -1;
      }
    }
    if (offset < 0) {
      state = state.at(tus.create(state.length, source.name(), source.contentType()));
      parts.set(index, part = state.applyTo(part));
      record(parts);
      offset = 0;
    }
    for (int round = 0; ; round++) {
      try {
        transfer(source, parts, index, state, digests, offset, before, total);
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

  /**
   * Reads again the chunks whose digests the state recorded and compares their fingerprint: a source whose length
   * or recorded chunks changed terminates its upload and fails the send.
   */
  private SourceDigests verified(FileSource source, UploadState state) {
    long length = lengthOf(source);
    if (length != state.length) {
      if (state.url != null) tus.terminate(state.url);
      throw changed(source, "its length is " + length + ", not " + state.length);
    }
    SourceDigests measured;
    try (InputStream in = source.open()) {
      measured = SourceDigests.measure(in, new byte[state.chunk], state.length, (int) state.chunks);
    } catch (IOException e) {
      throw vanished(source, e);
    }
    if (measured == null || !measured.fingerprint().equals(state.digest)) {
      if (state.url != null) tus.terminate(state.url);
      throw changed(source, "its bytes are no longer those of its upload's first " + state.chunks + " chunks");
    }
    return measured;
  }

  /**
   * Sends the source's bytes from {@code offset} on, in one {@code PATCH} whose body ({@link ChunkStream}) reads,
   * checks (or records) and writes them a chunk at a time. The chunk holding {@code offset} is read whole (a cut
   * leaves the service's offset inside a chunk) so that it can be compared with its recorded sha256 before any of
   * it goes. A chunk that fails its check is never written: the request is cut after the last checked byte, the
   * upload terminated, and the send fails.
   */
  private void transfer(final FileSource source, final List<MessagePart> parts, final int index, UploadState state,
      SourceDigests digests, long offset, final long before, final long total) {
    long start = offset - offset % state.chunk;
    try (InputStream in = source.open()) {
      if (skipFully(in, start) < start) throw changed(source, "it is shorter than " + state.length + " bytes");
      progress.bytes(before + offset, total);
      if (offset >= state.length) return; // the service holds every byte (a last PATCH answered too late)
      final long from = before + offset;
      final UploadState at = state;
      ChunkStream body = new ChunkStream(in, digests, start, offset, state.length, state.chunk,
          new ChunkStream.Checks() {
            @Override
            public boolean cancelled() {
              return send.cancelled();
            }

            @Override
            public boolean ended() {
              return send.ended();
            }

            @Override
            public void written(long bytes) {
              progress.bytes(from + bytes, total);
            }

            @Override
            public CompletableFuture<Void> covered(SourceDigests known) {
              parts.set(index, at.covering(known).applyTo(parts.get(index)));
              return send.partsChanged(new ArrayList<>(parts));
            }
          });
      long end;
      try {
        end = answered(tus.patch(state.url, offset, body), state.length);
      } catch (RuntimeException e) {
        ChunkStream.Stop stop = body.stopped();
        if (stop == null) throw e;
        throw stopped(stop, body, source, state);
      }
      progress.bytes(before + end, total);
      if (send.cancelled()) throw stopped(ChunkStream.Stop.CANCELLED, body, source, state); // the message never goes
    } catch (IOException e) {
      throw vanished(source, e);
    }
  }

  /** The failure of an upload whose body stopped: terminated unless the send only ended (a restart goes on). */
  private RuntimeException stopped(ChunkStream.Stop stop, ChunkStream body, FileSource source, UploadState state) {
    switch (stop) {
      case CHANGED:
        tus.terminate(state.url); // only the very bytes sent before go
        return changed(source, "its bytes from " + body.stoppedAt() + " on are no longer those sent before");
      case UNREADABLE:
        return vanished(source, body.readFailure());
      case CANCELLED:
        tus.terminate(state.url);
        return new CancellationException("the send was cancelled");
      default:
        return new TransportException("the send ended while its file was uploading");
    }
  }

  /** Waits for a PATCH's answer; returns the service's new offset, which must be {@code end}. */
  private static long answered(CompletableFuture<Long> patch, long end) {
    long next;
    try {
      next = TusClient.await(patch);
    } catch (ApiException e) {
      if (e.status() == 409) throw new OffsetConflict(e);
      if (e.status() == 460) throw new TransportException("a chunk arrived damaged (checksum mismatch)", e);
      throw e;
    }
    if (next != end) throw new OffsetConflict(null);
    return next;
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

  /** Returns the source's length: a file's now, the one a stream source was given, else counted in a pass. */
  private static long lengthOf(FileSource source) {
    if (source.file() == null && source.length() >= 0) return source.length();
    if (source.file() != null) {
      if (!source.file().isFile()) throw vanished(source, null);
      return source.file().length();
    }
    try (InputStream in = source.open()) { // read, not skipped: a stream may skip past its end
      byte[] scratch = new byte[64 * 1024];
      long length = 0;
      for (int n; (n = in.read(scratch)) >= 0; ) length += n;
      return length;
    } catch (IOException e) {
      throw vanished(source, e);
    }
  }

  /** Skips {@code count} bytes of {@code in}, reading where it cannot skip; returns how many it passed. */
  private static long skipFully(InputStream in, long count) throws IOException {
    long left = count;
    byte[] scratch = null;
    while (left > 0) {
      long n = in.skip(left);
      if (n <= 0) {
        if (scratch == null) scratch = new byte[8192];
        n = in.read(scratch, 0, (int) Math.min(scratch.length, left));
        if (n < 0) break;
      }
      left -= n;
    }
    return count - left;
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
