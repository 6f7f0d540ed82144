package dev.svc.chat.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Arrays;

import okio.ByteString;

/**
 * A source measured in one pass: its length, the sha256 of each of its chunks of {@code chunkBytes} (the last one
 * shorter), and a fingerprint, the sha256 of those digests in order, which the outbox record keeps. The upload
 * compares each chunk it reads to send with the digest measured here, so the source is hashed once as measured and
 * once as sent (never more), and a change anywhere between the two is caught at the chunk it touched.
 */
final class SourceDigests {
  private static final int SHA256_BYTES = 32;

  final int chunkBytes;
  final long length;
  final String fingerprint;
  private final byte[] digests; // SHA256_BYTES for each chunk, in order

  private SourceDigests(int chunkBytes, long length, byte[] digests, int count) {
    this.chunkBytes = chunkBytes;
    this.length = length;
    this.digests = Arrays.copyOf(digests, count);
    MessageDigest all = FileDownload.sha256();
    all.update(this.digests);
    this.fingerprint = ByteString.of(all.digest()).hex();
  }

  /** Reads {@code in} to its end in chunks of {@code buffer.length} bytes; the caller closes it. */
  static SourceDigests measure(InputStream in, byte[] buffer) throws IOException {
    MessageDigest chunk = FileDownload.sha256();
    byte[] digests = new byte[SHA256_BYTES * 16];
    int count = 0;
    long length = 0;
    for (int n; (n = readFully(in, buffer, buffer.length)) > 0; length += n) {
      chunk.update(buffer, 0, n);
      if (count + SHA256_BYTES > digests.length) digests = Arrays.copyOf(digests, digests.length * 2);
      System.arraycopy(chunk.digest(), 0, digests, count, SHA256_BYTES);
      count += SHA256_BYTES;
      if (n < buffer.length) {
        length += n;
        break;
      }
    }
    return new SourceDigests(buffer.length, length, digests, count);
  }

  /** Returns whether {@code digest} is the one measured for chunk {@code index}. */
  boolean matches(long index, byte[] digest) {
    if (index < 0 || (index + 1) * SHA256_BYTES > digests.length) return false;
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
