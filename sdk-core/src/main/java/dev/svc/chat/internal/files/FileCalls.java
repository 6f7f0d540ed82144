package dev.svc.chat.internal.files;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.svc.chat.ChatStateException;
import dev.svc.chat.FileCacheSettings;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.TransferListener;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.outbox.Outbox;
import dev.svc.chat.internal.realtime.ReconnectPolicy;
import dev.svc.chat.internal.rest.RestApi;
import dev.svc.chat.internal.util.CallbackExecutor;
import dev.svc.chat.internal.util.Inputs;
import dev.svc.chat.internal.util.Scheduler;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.ResponseBody;

/**
 * A client's {@link dev.svc.chat.ChatFiles} calls: cancelling a pending send, and downloads, each on a worker (they
 * block) with its progress relayed to the app's callback executor.
 */
public final class FileCalls {
  /** A thumbnail is at most 1024 pixels a side: a larger answer is not one. */
  private static final long MAX_THUMBNAIL_BYTES = 8L * 1024 * 1024;
  private final Outbox outbox;
  private final RestApi rest;
  private final Executor workers;
  private final CallbackExecutor callbacks;
  private final AtomicBoolean closed;
  private final FileDownload download;
  /** Null without {@link dev.svc.chat.SvcOptions#fileCache()}. */
  private final ThumbnailCache thumbnails;

  public FileCalls(Outbox outbox, RestApi rest, Scheduler timers, ReconnectPolicy backoff, Executor workers,
      CallbackExecutor callbacks, AtomicBoolean closed, FileCacheSettings cache) {
    this.thumbnails = cache == null ? null : new ThumbnailCache(cache.directory(), cache.maxBytes());
    this.outbox = outbox;
    this.rest = rest;
    this.workers = workers;
    this.callbacks = callbacks;
    this.closed = closed;
    this.download = new FileDownload(rest, timers, backoff::delayMillis);
  }

  /** See {@link dev.svc.chat.ChatFiles#cancelSend}. */
  public CompletableFuture<Boolean> cancelSend(String roomId, String clientMessageId) {
    Inputs.roomId(roomId);
    Inputs.clientMessageId(clientMessageId);
    return callbacks.relay(outbox.cancel(roomId, clientMessageId));
  }

  /** See {@link dev.svc.chat.ChatFiles#downloadFile(FileAttachment, File, TransferListener)}. */
  public CompletableFuture<File> downloadFile(final FileAttachment file, final File target,
      final TransferListener listener) {
    Inputs.nonNull(file, "file");
    Inputs.nonNull(target, "target");
    return run(() -> {
      FileDownload.PartFile sink = new FileDownload.PartFile(target);
      if (file.size() >= 0 && sink.part.length() > file.size() && !sink.part.delete()) {
        throw new IOException("could not delete the stale " + sink.part);
      }
      try {
        download.run(file, sink, progress(listener));
      } catch (dev.svc.chat.FileException mismatch) {
        sink.close();
        if (!sink.part.delete()) sink.part.deleteOnExit();
        throw mismatch;
      } finally {
        sink.close();
      }
      if (target.exists() && !target.delete()) throw new IOException("could not replace " + target);
      if (!sink.part.renameTo(target)) throw new IOException("could not rename " + sink.part + " to " + target);
      return target;
    });
  }

  /** See {@link dev.svc.chat.ChatFiles#downloadFile(FileAttachment, OutputStream, TransferListener)}. */
  public CompletableFuture<Void> downloadFile(final FileAttachment file, final OutputStream out,
      final TransferListener listener) {
    Inputs.nonNull(file, "file");
    Inputs.nonNull(out, "out");
    return run(() -> {
      download.run(file, new FileDownload.StreamSink(out), progress(listener));
      return null;
    });
  }

  /** See {@link dev.svc.chat.ChatFiles#thumbnail}. */
  public CompletableFuture<byte[]> thumbnail(final FileAttachment file, final int size) {
    Inputs.nonNull(file, "file");
    if (size < 64 || size > 1024) throw new IllegalArgumentException("a thumbnail's size is 64 to 1024: " + size);
    return run(() -> {
      String key = ThumbnailCache.key(file.fileId(), size);
      byte[] cached = thumbnails == null ? null : thumbnails.get(key);
      if (cached != null) return cached;
      HttpUrl url = rest.apiUrl().newBuilder().addPathSegment("files").addPathSegment(file.fileId())
          .addPathSegment("thumbnail").addQueryParameter("size", Integer.toString(size)).build();
      byte[] bytes = TusClient.await(rest.exchange(new Request.Builder().url(url).get(), response -> {
        ResponseBody body = response.body();
        if (body == null || body.contentLength() > MAX_THUMBNAIL_BYTES) throw new IOException("no usable thumbnail");
        return body.source().readByteArray();
      }, 2, true));
      if (thumbnails != null) thumbnails.put(key, bytes);
      return bytes;
    });
  }

  private FileDownload.Progress progress(final TransferListener listener) {
    if (listener == null) return (done, total) -> { };
    return new CoalescedProgress(listener, callbacks);
  }

  /** A step of a download, on a worker. */
  private interface Work<T> {
    T run() throws IOException;
  }

  private <T> CompletableFuture<T> run(final Work<T> work) {
    final CompletableFuture<T> result = new CompletableFuture<>();
    if (closed.get()) {
      result.completeExceptionally(new ChatStateException("the client is closed"));
      return callbacks.relay(result);
    }
    try {
      workers.execute(() -> {
        try {
          result.complete(work.run());
        } catch (IOException e) {
          result.completeExceptionally(new TransportException("the download failed: " + e.getMessage(), e));
        } catch (RuntimeException e) {
          result.completeExceptionally(e);
        }
      });
    } catch (RuntimeException refused) {
      result.completeExceptionally(new ChatStateException("the client is closed"));
    }
    return callbacks.relay(result);
  }
}
