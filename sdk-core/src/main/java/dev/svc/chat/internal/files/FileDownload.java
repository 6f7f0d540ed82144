package dev.svc.chat.internal.files;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.FileAttachment;
import dev.svc.chat.FileException;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.rest.RestApi;
import dev.svc.chat.internal.util.Scheduler;
import okhttp3.HttpUrl;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import okio.ByteString;

/**
 * One download of a file ({@code GET /v1/files/{fileId}}), on a worker (it blocks): the bytes go to a sink, and to
 * the file's sha256 on a thread of their own ({@link DigestPipe}); a cut is resumed with {@code Range} from the
 * bytes the sink holds, after the backoff, a few times; at the end the bytes must have the file's size and sha256
 * ({@link FileException.Kind#CHECKSUM_MISMATCH} otherwise).
 */
final class FileDownload {
  /** Requests after a cut, each after the backoff. */
  static final int RESUMES = 5;
  /**
   * The bytes written to the sink, hashed and reported at a time: each buffer costs a write, a hand-over to the
   * digest's thread (a wake-up when it waits) and a progress report (a task on the callback executor when idle), so
   * a larger one costs less CPU per MiB; a cut loses at most one buffer, read again after the resume.
   */
  static final int BUFFER = 256 * 1024;
  /** Buffers between the reading thread and the digest's ({@link DigestPipe}). */
  private static final int BUFFERS = 4;

  /** Where the bytes go: a file (kept across restarts as {@code .part}) or the app's stream. */
  interface Sink {
    /** Returns how many bytes it holds, hashing them into {@code digest}. */
    long resume(MessageDigest digest) throws IOException;

    /** The service sent the whole file again (it ignored the Range): start over, or skip what is held. */
    boolean restart() throws IOException;

    void write(byte[] buffer, int count) throws IOException;
  }

  /** Hears the bytes held and the total. */
  interface Progress {
    void bytes(long done, long total);
  }

  private final RestApi rest;
  private final Scheduler timers;
  private final Backoff backoff;

  /** The wait before resume {@code n} (from 0). */
  interface Backoff {
    long delayMillis(int attempt);
  }

  FileDownload(RestApi rest, Scheduler timers, Backoff backoff) {
    this.rest = rest;
    this.timers = timers;
    this.backoff = backoff;
  }

  /** Downloads {@code file} into {@code sink}; throws what ended it. */
  void run(FileAttachment file, Sink sink, Progress progress) throws IOException {
    MessageDigest digest = sha256();
    final long[] held = {sink.resume(digest)};
    try (DigestPipe pipe = new DigestPipe(digest, BUFFERS, BUFFER)) {
      fetch(file, sink, progress, digest, pipe, held);
      pipe.drain();
    }
    String hex = ByteString.of(digest.digest()).hex();
    if ((file.size() >= 0 && held[0] != file.size()) || (!file.sha256().isEmpty() && !hex.equals(file.sha256()))) {
      throw new FileException(FileException.Kind.CHECKSUM_MISMATCH, "the bytes of file " + file.fileId()
          + " (" + held[0] + " bytes, sha256 " + hex + ") are not the file's (" + file.size() + " bytes, sha256 "
          + file.sha256() + ")", null);
    }
    progress.bytes(held[0], file.size());
  }

  /** Requests the file's bytes from those held, resuming after a cut, until it holds them all. */
  private void fetch(FileAttachment file, Sink sink, Progress progress, MessageDigest digest, DigestPipe pipe,
      final long[] held) throws IOException {
    HttpUrl url = rest.apiUrl().newBuilder().addPathSegment("files").addPathSegment(file.fileId()).build();
    for (int attempt = 0; file.size() < 0 || held[0] < file.size(); attempt++) {
      progress.bytes(held[0], file.size());
      Request.Builder request = new Request.Builder().url(url).get();
      if (held[0] > 0) {
        request.header("Range", "bytes=" + held[0] + "-");
        if (!file.sha256().isEmpty()) request.header("If-Range", "\"" + file.sha256() + "\"");
      }
      try {
        TusClient.await(rest.exchange(request, response -> {
          read(response, sink, digest, pipe, held, file.size(), progress);
          return Boolean.TRUE;
        }, 0, true));
        if (file.size() < 0) break; // no size to resume to: one whole answer
      } catch (TransportException cut) {
        if (attempt >= RESUMES) throw cut;
        pause(backoff.delayMillis(attempt)); // the digest gets exactly the bytes held: go on from there
      }
    }
  }

  private static void read(Response response, Sink sink, MessageDigest digest, DigestPipe pipe, long[] held,
      long size, Progress progress) throws IOException {
    if (response.code() != 206 && held[0] > 0) { // the whole file: its start is what we hold, or it changed
      if (sink.restart()) {
        pipe.drain();
        digest.reset();
        held[0] = 0;
      } else {
        skip(response.body(), held[0]);
      }
    }
    ResponseBody body = response.body();
    if (body == null) return;
    try (BufferedSource in = body.source()) {
      untimed(response, in);
      while (true) {
        byte[] buffer = pipe.buffer();
        int n;
        try {
          n = fill(in, buffer);
          if (n > 0) sink.write(buffer, n);
        } catch (IOException | RuntimeException e) {
          pipe.release(buffer);
          throw e;
        }
        if (n <= 0) {
          pipe.release(buffer);
          return;
        }
        pipe.hash(buffer, n); // on the pipe's thread, in order, while the next buffer is read and written
        held[0] += n;
        progress.bytes(held[0], size);
      }
    }
  }

  /**
   * Drops OkHttp's own timeout of each read of an HTTP/1 body, which its socket's {@code SO_TIMEOUT} (the same read
   * timeout, set by OkHttp on the socket of every HTTP/1 exchange) still bounds: a stalled body fails the same, a
   * cut as any other. Each timed read (at most 8 KiB) scheduled the timeout with Okio's watchdog thread and woke
   * it, some 16,000 times for 128 MiB. An HTTP/2 stream's reads have no socket timeout behind them: kept.
   */
  private static void untimed(Response response, BufferedSource in) {
    if (response.protocol() == Protocol.HTTP_1_1 || response.protocol() == Protocol.HTTP_1_0) {
      in.timeout().timeout(0, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Reads into the whole buffer, or to the end: a single read of an OkHttp body yields at most one 8 KiB segment,
   * and each read costs a write to the sink and a progress callback. A cut loses the bytes read since the last
   * write, which neither the sink nor the digest holds, so the resume asks for them again.
   */
  private static int fill(BufferedSource in, byte[] buffer) throws IOException {
    int filled = 0;
    for (int n; filled < buffer.length && (n = in.read(buffer, filled, buffer.length - filled)) >= 0; ) filled += n;
    return filled;
  }

  private static void skip(ResponseBody body, long count) throws IOException {
    if (body != null) body.source().skip(count);
  }

  private void pause(long millis) {
    CompletableFuture<Void> timer = new CompletableFuture<>();
    timers.schedule(() -> timer.complete(null), millis);
    TusClient.await(timer);
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** A sink into {@code <target>.part}, renamed to the target by the caller once checked. */
  static final class PartFile implements Sink {
    final File part;
    private OutputStream out;

    PartFile(File target) {
      this.part = new File(target.getPath() + ".part");
    }

    @Override
    public long resume(MessageDigest digest) throws IOException {
      long held = 0;
      if (part.isFile()) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = new FileInputStream(part)) {
          for (int n; (n = in.read(buffer)) >= 0; held += n) digest.update(buffer, 0, n);
        }
      }
      out = new FileOutputStream(part, true);
      return held;
    }

    @Override
    public boolean restart() throws IOException {
      out.close();
      out = new FileOutputStream(part, false);
      return true;
    }

    @Override
    public void write(byte[] buffer, int count) throws IOException {
      out.write(buffer, 0, count);
    }

    void close() throws IOException {
      if (out != null) out.close();
    }
  }

  /** A sink into the app's stream, which cannot go back: a whole answer after a cut skips what it holds. */
  static final class StreamSink implements Sink {
    private final OutputStream out;

    StreamSink(OutputStream out) {
      this.out = out;
    }

    @Override
    public long resume(MessageDigest digest) {
      return 0;
    }

    @Override
    public boolean restart() {
      return false;
    }

    @Override
    public void write(byte[] buffer, int count) throws IOException {
      out.write(buffer, 0, count);
    }
  }
}
