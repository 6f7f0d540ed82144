package dev.svc.chat.internal.files;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatException;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.rest.RestApi;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.ByteString;

/**
 * A tus 1.0.0 client (core, creation, termination; contract section 9) on the SDK's REST stack: every
 * request goes through {@link RestApi#exchange}, so it carries the session token, is refreshed after a
 * {@code 401 token_expired} and fails with the same exceptions as the other REST calls. Its calls block the
 * calling thread (an upload worker, never the actor or the app's thread).
 */
final class TusClient {
  static final String VERSION = "1.0.0";
  /** Transport retries of the requests that may be repeated (HEAD, DELETE). */
  private static final int RETRIES = 2;
  private static final RestApi.AnswerReader<Headers> HEADERS = Response::headers;

  private final RestApi rest;

  TusClient(RestApi rest) {
    this.rest = rest;
  }

  /** {@code POST /v1/uploads}: creates an upload of {@code length} bytes; returns its absolute URL. */
  String create(long length, String name, String contentType) {
    HttpUrl url = rest.apiUrl().newBuilder().addPathSegment("uploads").build();
    StringBuilder metadata = new StringBuilder("filename ").append(base64(name));
    if (contentType != null) metadata.append(",contentType ").append(base64(contentType));
    Request.Builder request = tus(url).post(RequestBody.create(new byte[0], null))
        .header("Upload-Length", Long.toString(length)).header("Upload-Metadata", metadata.toString());
    Headers headers = await(rest.exchange(request, HEADERS, 0, false));
    String location = headers.get("Location");
    HttpUrl created = location == null ? null : url.resolve(location);
    if (created == null) throw new ChatException("the service created an upload without a usable Location: " + location);
    return created.toString();
  }

  /** {@code HEAD}: returns the upload's offset; a 404 (expired, or unknown) is an {@link ApiException}. */
  long offset(String upload) {
    Headers headers = await(rest.exchange(tus(HttpUrl.get(upload)).head(), HEADERS, RETRIES, true));
    return offsetOf(headers, upload);
  }

  /**
   * {@code PATCH}: appends {@code body} (a {@link ChunkStream} of the rest of the file) at {@code offset}; completes
   * with the new offset. No {@code Upload-Checksum}: the caller checked the bytes against the source, TCP (and TLS)
   * their way, and the service keeps what a cut PATCH delivered. Never repeated by the stack: after a failure the
   * caller asks {@link #offset} where the service stands.
   */
  CompletableFuture<Long> patch(final String upload, long offset, ChunkStream body) {
    Request.Builder request = tus(HttpUrl.get(upload)).patch(body).header("Upload-Offset", Long.toString(offset));
    return rest.exchange(request, HEADERS, 0, false).thenApply(headers -> offsetOf(headers, upload));
  }

  /** {@code DELETE}: terminates an upload; failures are ignored (an unfinished upload expires anyway). */
  void terminate(String upload) {
    try {
      await(rest.exchange(tus(HttpUrl.get(upload)).delete(), HEADERS, RETRIES, true));
    } catch (ChatException ignored) {
      // best effort: the service deletes an unfinished upload 24 h after its last PATCH
    }
  }

  private static Request.Builder tus(HttpUrl url) {
    return new Request.Builder().url(url).header("Tus-Resumable", VERSION);
  }

  private static long offsetOf(Headers headers, String upload) {
    String value = headers.get("Upload-Offset");
    try {
      long offset = value == null ? -1 : Long.parseLong(value.trim());
      if (offset >= 0) return offset;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new ChatException("the service answered " + upload + " without a valid Upload-Offset: " + value);
  }

  private static String base64(String value) {
    return ByteString.encodeUtf8(value).base64();
  }

  /** Waits for a REST future; its failure is thrown as the {@link ChatException} it is. */
  static <T> T await(CompletableFuture<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException("interrupted", new InterruptedIOException());
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ChatException) throw (ChatException) cause;
      if (cause instanceof IOException) throw new TransportException(cause.getMessage(), cause);
      throw new ChatException(String.valueOf(cause), cause);
    }
  }
}
