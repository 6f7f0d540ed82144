package dev.svc.chat.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Arrays;

import okio.ByteString;

/**
 * The sha256 of a source's first chunks of {@code chunkBytes} (the last one of the source shorter), in order, and
 * their fingerprint: the sha256 of those digests, which the outbox record keeps with their count. The upload adds
 * each chunk's digest as it reads the chunk to send it, and the record holds it before any byte of the chunk goes,
 * so that a restart (or the next attempt) can tell whether the bytes the service already holds are still the
 * source's: it reads the recorded chunks again ({@link #measure}) and compares the fingerprint. Each byte is thus
 * hashed once as it is sent; a resume hashes the recorded prefix once more.
 */
final class SourceDigests {
  private static final int SHA256_BYTES = 32;

  final int chunkBytes;
  final long length;
  private byte[] digests; // SHA256_BYTES for each known chunk, in order
  private int count; // known chunks
  private final MessageDigest all = FileDownload.sha256(); // over the known digests, in order

  SourceDigests(int chunkBytes, long length) {
    this.chunkBytes = chunkBytes;
    this.length = length;
    this.digests = new byte[SHA256_BYTES * 16];
  }

  /**
   * Reads the first {@code chunks} chunks of {@code in} (a source of {@code length} bytes) with {@code buffer} (of
   * {@code chunkBytes}); returns their digests, or null when the source ends before them. The caller closes it.
   */
  static SourceDigests measure(InputStream in, byte[] buffer, long length, int chunks) throws IOException {
    SourceDigests measured = new SourceDigests(buffer.length, length);
    MessageDigest chunk = FileDownload.sha256();
    for (int i = 0; i < chunks; i++) {
      int want = measured.chunkLength(i);
      int n = readFully(in, buffer, want);
      if (n < want || want == 0) return null;
      chunk.update(buffer, 0, n);
      measured.add(chunk.digest());
    }
    return measured;
  }

  /** Returns how many chunks the source has. */
  long chunks() {
    return (length + chunkBytes - 1) / chunkBytes;
  }

  /** Returns the length of chunk {@code index}: {@code chunkBytes}, less for the last one. */
  int chunkLength(long index) {
    return (int) Math.max(0, Math.min(chunkBytes, length - index * chunkBytes));
  }

  /** Returns how many chunks' digests are known (the first ones). */
  synchronized int count() {
    return count;
  }

  /** Returns the fingerprint of the known digests. */
  synchronized String fingerprint() {
    try {
      return ByteString.of(((MessageDigest) all.clone()).digest()).hex();
    } catch (CloneNotSupportedException e) {
      MessageDigest again = FileDownload.sha256();
      again.update(digests, 0, count * SHA256_BYTES);
      return ByteString.of(again.digest()).hex();
    }
  }

  /** Adds the digest of the next chunk. */
  synchronized void add(byte[] digest) {
    if ((count + 1) * SHA256_BYTES > digests.length) digests = Arrays.copyOf(digests, digests.length * 2);
    System.arraycopy(digest, 0, digests, count * SHA256_BYTES, SHA256_BYTES);
    all.update(digest, 0, SHA256_BYTES);
    count++;
  }

  /** Returns whether {@code digest} is the one known for chunk {@code index} (false when unknown). */
  synchronized boolean matches(long index, byte[] digest) {
    if (index < 0 || index >= count) return false;
    int at = (int) index * SHA256_BYTES;
    for (int i = 0; i < SHA256_BYTES; i++) {
      if (digests[at + i] != digest[i]) return false;
    }
    return true;
  }

  /** Reads up to {@code count} bytes, fewer only at the stream's end; returns how many (0 at the end). */
  static int readFully(InputStream in, byte[] buffer, int count) throws IOException {
    int read = 0;
    while (read < count) {
      int n = in.read(buffer, read, count - read);
      if (n < 0) break;
      read += n;
    }
    return read;
  }
}
