package dev.svc.chat.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.svc.chat.internal.util.NamedThreadFactory;
import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.BufferedSink;

/**
 * The body of one {@code PATCH} that streams the rest of a file from {@code offset}. The source is read a chunk at a
 * time, up to {@value #AHEAD} chunks ahead of the connection, on a reader thread of the body's own: each chunk is
 * hashed as it is read; a chunk whose digest is known (sent before, by an earlier attempt or process) must have it,
 * and a new one's digest is added and recorded ({@link Checks#covered}) before any byte of it is written, so that a
 * resume can tell whether the bytes the service holds are still the source's. OkHttp's thread writes each checked
 * chunk (the part from {@code offset} on, for the chunk holding it) while the next ones are read. A chunk that fails its check is
 * never written: the write fails and the request is cut after the last checked byte (the service keeps what arrived,
 * tus's rule for a PATCH without a checksum); {@link #stopped} then says why, for the upload to terminate and fail
 * with the right error. It also stops at a chunk's edge when the send was cancelled or ended. Holds {@value
 * #AHEAD} chunks.
 * Written once: OkHttp never repeats a one-shot body, and a second write fails.
 */
final class ChunkStream extends RequestBody {
  private static final MediaType OFFSET_STREAM = MediaType.get("application/offset+octet-stream");
  private static final NamedThreadFactory READERS = new NamedThreadFactory("svc-chat-upload-read", false);
  /**
   * Chunks read ahead of the connection, each in a buffer of its own: the records of their digests (a hop to the
   * client's actor and a store write each) overlap the writes of the chunks before them.
   */
  private static final int AHEAD = 3;
  /** The bytes handed to the request's sink at a time (see {@link #write(BufferedSink, Chunk)}). */
  static final int SLICE = 32 * 1024;

  /** Why a body stopped before its end. */
  enum Stop {
    /** A chunk's bytes were not those sent before (or the source ended early, or went on past its length). */
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

    /** Records the digests known now; completes once the record holds them. */
    CompletableFuture<Void> covered(SourceDigests digests);
  }

  /** One chunk read and checked, or why it cannot go. */
  private static final class Chunk {
    final long at;
    final byte[] bytes;
    final int length;
    final Stop stop;
    /** The record of the chunk's digest (a new chunk's), which must be done before the chunk is written. */
    final CompletableFuture<Void> recorded;

    Chunk(long at, byte[] bytes, int length, Stop stop, CompletableFuture<Void> recorded) {
      this.at = at;
      this.bytes = bytes;
      this.length = length;
      this.stop = stop;
      this.recorded = recorded;
    }
  }

  private final InputStream in;
  private final SourceDigests digests;
  private final long start;
  private final long offset;
  private final long end;
  private final int chunkBytes;
  private final Checks checks;
  private final MessageDigest digest = FileDownload.sha256(); // the reader's
  private boolean started;
  private volatile Stop stopped;
  private volatile long stoppedAt = -1;
  private volatile IOException readFailure;

  /**
   * A body of the bytes from {@code offset} to {@code end} of a source whose stream {@code in} stands at {@code
   * start}, the first byte of the chunk holding {@code offset}; chunks of {@code chunkBytes}. {@code digests} must
   * know the chunks before the one at {@code start}.
   */
  ChunkStream(InputStream in, SourceDigests digests, long start, long offset, long end, int chunkBytes,
      Checks checks) {
    this.in = in;
    this.digests = digests;
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
    if (end - start <= chunkBytes) { // one chunk: nothing to overlap
      write(sink, read(start, new byte[(int) (end - start)]));
      return;
    }
    ExecutorService reader = Executors.newSingleThreadExecutor(READERS);
    Deque<Future<Chunk>> ahead = new ArrayDeque<>();
    long next = start;
    try {
      for (int i = 0; i < AHEAD && next < end; i++, next = after(next)) {
        ahead.add(reader.submit(reading(next, new byte[chunkBytes])));
      }
      while (!ahead.isEmpty()) {
        Chunk chunk = await(ahead.poll());
        write(sink, chunk);
        if (next < end) { // the written chunk's buffer takes the next one
          ahead.add(reader.submit(reading(next, chunk.bytes)));
          next = after(next);
        }
      }
    } finally {
      for (Future<Chunk> f : ahead) f.cancel(false);
      for (Future<Chunk> f : ahead) awaitQuietly(f); // the stream is the caller's again once this returns
      reader.shutdown();
    }
  }

  /** Returns the first byte of the chunk after the one at {@code at}. */
  private long after(long at) {
    return Math.min(end, at + chunkBytes);
  }

  private void write(BufferedSink sink, Chunk chunk) throws IOException {
    if (chunk.stop != null) throw stop(chunk.stop, chunk.at);
    if (chunk.recorded != null) {
      try {
        TusClient.await(chunk.recorded); // its digest is in the record before any byte of it goes
      } catch (RuntimeException e) {
        throw new IOException("the upload's record could not be written: " + e.getMessage(), e);
      }
    }
    if (checks.cancelled()) throw stop(Stop.CANCELLED, chunk.at);
    if (checks.ended()) throw stop(Stop.ENDED, chunk.at);
    // In slices: the sink copies what it is given into segments before it sends them, and takes them from a pool of
    // 64 KiB (for each thread); a whole chunk at once would allocate its size in new segments each time.
    for (int from = (int) Math.max(0, offset - chunk.at); from < chunk.length; from += SLICE) {
      sink.write(chunk.bytes, from, Math.min(SLICE, chunk.length - from));
    }
    checks.written(chunk.at + chunk.length - offset);
  }

  private Callable<Chunk> reading(final long at, final byte[] buffer) {
    return new Callable<Chunk>() {
      @Override
      public Chunk call() throws IOException {
        return read(at, buffer);
      }
    };
  }

  /** Reads, hashes and checks the chunk at {@code at}; a new chunk's digest goes to the record (not awaited). */
  private Chunk read(long at, byte[] buffer) throws IOException {
    long index = at / chunkBytes;
    int want = (int) Math.min(chunkBytes, end - at);
    int n;
    boolean whole;
    try {
      n = SourceDigests.readFully(in, buffer, want);
      whole = n == want && (at + n < end || in.read() < 0);
    } catch (IOException e) {
      readFailure = e;
      return new Chunk(at, buffer, 0, Stop.UNREADABLE, null);
    }
    if (!whole) return new Chunk(at, buffer, 0, Stop.CHANGED, null);
    digest.update(buffer, 0, n);
    byte[] sum = digest.digest();
    int known = digests.count();
    if (index < known) return new Chunk(at, buffer, n, digests.matches(index, sum) ? null : Stop.CHANGED, null);
    // Never: the upload starts at a chunk whose predecessors' digests are known (see SendUpload)
    if (index > known) throw new IOException("chunk " + index + " follows " + known + " known ones");
    digests.add(sum);
    return new Chunk(at, buffer, n, null, checks.covered(digests));
  }

  private static Chunk await(Future<Chunk> chunk) throws IOException {
    try {
      return chunk.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while the next chunk was read");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) throw (IOException) cause;
      if (cause instanceof RuntimeException) throw (RuntimeException) cause;
      throw new IOException(String.valueOf(cause), cause);
    }
  }

  private static void awaitQuietly(Future<Chunk> chunk) {
    try {
      await(chunk);
    } catch (IOException | RuntimeException ignored) {
      // the body failed already; this chunk was never to go
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
