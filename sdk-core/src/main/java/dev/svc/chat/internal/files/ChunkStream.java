package dev.svc.chat.internal.files;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;

import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.BufferedSink;

/**
 * The body of one {@code PATCH} that streams the rest of a file: the upload worker reads each chunk, checks it
 * against the source's measure and hands it here; OkHttp's thread writes the chunks in order as they come. Two
 * buffers go round between them, so the next chunk is read and checked while the last one goes, and the body holds
 * no more than they do. A chunk that failed its check is never handed over: the worker {@link #abort aborts}, the
 * write fails, and the request is cut after the last checked byte (the service keeps what arrived, tus's rule for
 * a PATCH without a checksum). Written once: OkHttp never repeats a one-shot body, and a second write fails.
 */
final class ChunkStream extends RequestBody {
  private static final MediaType OFFSET_STREAM = MediaType.get("application/offset+octet-stream");

  /** A chunk handed to the writer: {@code count} bytes of {@code buffer} from {@code from}. */
  private static final class Piece {
    final byte[] buffer;
    final int from;
    final int count;

    Piece(byte[] buffer, int from, int count) {
      this.buffer = buffer;
      this.from = from;
      this.count = count;
    }
  }

  private final long length;
  private final ArrayDeque<byte[]> free = new ArrayDeque<>(2);
  private final ArrayDeque<Piece> ready = new ArrayDeque<>(2);
  private boolean started;
  private boolean aborted;
  private boolean ended; // the request ended (answered or failed): no buffer comes back any more
  private long written;

  ChunkStream(long length, int chunkBytes) {
    this.length = length;
    free.add(new byte[chunkBytes]);
    free.add(new byte[chunkBytes]);
  }

  @Override
  public MediaType contentType() {
    return OFFSET_STREAM;
  }

  @Override
  public long contentLength() {
    return length;
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
    for (long left = length; left > 0; ) {
      Piece piece = next();
      sink.write(piece.buffer, piece.from, piece.count);
      left -= piece.count;
      synchronized (this) {
        written += piece.count;
        free.add(piece.buffer);
        notifyAll();
      }
    }
  }

  /** The writer's next chunk; throws when the worker aborted (the request is cut there). */
  private synchronized Piece next() throws IOException {
    try {
      while (ready.isEmpty() && !aborted) wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the next chunk");
    }
    if (!ready.isEmpty()) return ready.poll(); // handed over: checked, so it goes even after an abort
    throw new IOException("the upload stopped before its next chunk: the rest is not sent");
  }

  /** Returns a buffer to fill with the next chunk, once one is free; null when the request ended first. */
  synchronized byte[] buffer() throws InterruptedException {
    while (free.isEmpty() && !ended) wait();
    return ended ? null : free.poll();
  }

  /** Hands {@code count} checked bytes of {@code buffer} from {@code from} to the writer. */
  synchronized void put(byte[] buffer, int from, int count) {
    ready.add(new Piece(buffer, from, count));
    notifyAll();
  }

  /** Stops the body where it is: nothing more is written, and the write fails, so the request is cut. */
  synchronized void abort() {
    aborted = true;
    notifyAll();
  }

  /** Called once the request ended, either way: the worker waits for no buffer any more. */
  synchronized void ended() {
    ended = true;
    notifyAll();
  }

  /** Returns how many bytes the writer has handed to the connection. */
  synchronized long written() {
    return written;
  }

  /** Waits until every byte is handed to the connection or the request ended; returns the bytes handed. */
  synchronized long awaitWritten() throws InterruptedException {
    while (written < length && !ended) wait();
    return written;
  }
}
