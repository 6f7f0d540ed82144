package dev.svc.chat.internal.files;

import java.io.InterruptedIOException;
import java.security.MessageDigest;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.svc.chat.internal.util.NamedThreadFactory;

/**
 * A download's buffers and its digest, updated on a thread of the pipe's own: the reading thread takes a free
 * buffer, fills it, writes it to the sink and {@link #hash hands it over}; the pipe's thread updates the digest with
 * it, in order, and frees it. Hashing thus overlaps reading and writing instead of adding to them. {@link #drain}
 * waits until every buffer handed over is in the digest (then the digest holds exactly the bytes written).
 */
final class DigestPipe implements AutoCloseable {
  private static final NamedThreadFactory HASHERS = new NamedThreadFactory("svc-chat-download-hash", false);

  private final MessageDigest digest;
  private final int buffers;
  private final BlockingQueue<byte[]> free;
  private final ExecutorService hasher = Executors.newSingleThreadExecutor(HASHERS);

  DigestPipe(MessageDigest digest, int buffers, int bufferBytes) {
    this.digest = digest;
    this.buffers = buffers;
    this.free = new ArrayBlockingQueue<>(buffers);
    for (int i = 0; i < buffers; i++) free.add(new byte[bufferBytes]);
  }

  /** Returns a free buffer, waiting for the digest to give one back. */
  byte[] buffer() throws InterruptedIOException {
    try {
      return free.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while a download's bytes were hashed");
    }
  }

  /** Hands over the first {@code count} bytes of a buffer from {@link #buffer}, to be hashed and freed. */
  void hash(final byte[] buffer, final int count) {
    hasher.execute(new Runnable() {
      @Override
      public void run() {
        digest.update(buffer, 0, count);
        free.add(buffer);
      }
    });
  }

  /** Gives back a buffer from {@link #buffer} unhashed. */
  void release(byte[] buffer) {
    free.add(buffer);
  }

  /** Waits until every buffer handed over is in the digest. */
  void drain() throws InterruptedIOException {
    byte[][] all = new byte[buffers][];
    for (int i = 0; i < buffers; i++) all[i] = buffer();
    for (byte[] b : all) free.add(b);
  }

  @Override
  public void close() {
    hasher.shutdown();
  }
}
