package dev.svc.chat.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.BufferedSink;

/**
 * The body of one {@code PATCH} that streams the rest of a file from {@code offset}: OkHttp's thread reads the
 * source a chunk at a time, compares each chunk with its measured sha256, and only then writes it (the part from
 * {@code offset} on, for the chunk holding it). A chunk that fails its check is never written: the write fails
 * and the request is cut after the last checked byte (the service keeps what arrived, tus's rule for a PATCH
 * without a checksum); {@link #stopped} then says why, for the upload to terminate and fail with the right error.
 * It also stops at a chunk's edge when the send was cancelled or ended. Holds one chunk. Written once: OkHttp never
 * repeats a one-shot body, and a second write fails.
 */
final class ChunkStream extends RequestBody {
  private static final MediaType OFFSET_STREAM = MediaType.get("application/offset+octet-stream");

  /** Why a body stopped before its end. */
  enum Stop {
    /** A chunk's bytes were not those measured (or the source ended early, or went on past its length). */
    CHANGED,
    /** The source could not be read. */
    UNREADABLE,
    /** The send was cancelled. */
    CANCELLED,
    /** The send ended (its client closed). */
    ENDED
  }

  /** What the body asks of its send at each chunk's edge. */
  interface Checks {
    boolean cancelled();

    boolean ended();

    /** Hears the bytes of the body written so far (each chunk). */
    void written(long bytes);
  }

  private final InputStream in;
  private final SourceDigests measure;
  private final long start;
  private final long offset;
  private final long end;
  private final int chunkBytes;
  private final Checks checks;
  private boolean started;
  private volatile Stop stopped;
  private volatile long stoppedAt = -1;
  private volatile IOException readFailure;

  /**
   * A body of the bytes from {@code offset} to {@code end} of a source whose stream {@code in} stands at {@code
   * start}, the first byte of the chunk holding {@code offset}; chunks of {@code chunkBytes}, as measured.
   */
  ChunkStream(InputStream in, SourceDigests measure, long start, long offset, long end, int chunkBytes,
      Checks checks) {
    this.in = in;
    this.measure = measure;
    this.start = start;
    this.offset = offset;
    this.end = end;
    this.chunkBytes = chunkBytes;
    this.checks = checks;
  }

  @Override
  public MediaType contentType() {
    return OFFSET_STREAM;
  }

  @Override
  public long contentLength() {
    return end - offset;
  }

  @Override
  public boolean isOneShot() {
    return true;
  }

  @Override
  public void writeTo(BufferedSink sink) throws IOException {
    synchronized (this) {
      if (started) throw new IOException("a streamed PATCH body is written once");
      started = true;
    }
    MessageDigest digest = FileDownload.sha256();
    byte[] chunk = new byte[chunkBytes];
    for (long at = start; at < end; ) {
      int n;
      boolean same;
      try {
        n = SourceDigests.readFully(in, chunk, (int) Math.min(chunk.length, end - at));
        digest.update(chunk, 0, n);
        same = measure.matches(at / chunkBytes, digest.digest()) && (at + n < end || in.read() < 0);
      } catch (IOException e) {
        readFailure = e;
        throw stop(Stop.UNREADABLE, at);
      }
      if (!same) throw stop(Stop.CHANGED, at);
      if (checks.cancelled()) throw stop(Stop.CANCELLED, at);
      if (checks.ended()) throw stop(Stop.ENDED, at);
      int from = (int) Math.max(0, offset - at);
      sink.write(chunk, from, n - from);
      at += n;
      checks.written(at - offset);
    }
  }

  private IOException stop(Stop why, long at) {
    stoppedAt = at;
    stopped = why;
    return new IOException("the upload stopped at byte " + at + " (" + why + "): the rest is not sent");
  }

  /** Returns why the body stopped before its end, or null. */
  Stop stopped() {
    return stopped;
  }

  /** Returns the first byte of the chunk the body stopped at. */
  long stoppedAt() {
    return stoppedAt;
  }

  /** Returns the source's read failure, when it {@link Stop#UNREADABLE stopped} for one. */
  IOException readFailure() {
    return readFailure;
  }
}
