package dev.svc.chat.server;

import java.io.IOException;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The HTTP side of {@link ServerClient}: one request with the API key, run on the calling thread
 * ({@link #execute}) or on OkHttp's Dispatcher ({@link #enqueue}), its answer read or turned into a
 * {@link ServerApiException}. The key goes only into the {@code x-api-key} header, never into a message.
 */
final class ApiRequests {
  /** Reads a 2xx answer's JSON object. */
  interface Reader<T> {
    T read(Map<String, Object> answer);
  }

  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
  /** Delays are capped here (about 292 million years) so that seconds never overflow as milliseconds. */
  private static final long MAX_SECONDS = Long.MAX_VALUE / 1000;

  private final HttpUrl apiUrl;
  private final String apiKey;
  private final OkHttpClient http;
  private final @Nullable Executor callbackExecutor;

  ApiRequests(HttpUrl apiUrl, String apiKey, OkHttpClient http, @Nullable Executor callbackExecutor) {
    this.apiUrl = apiUrl;
    this.apiKey = apiKey;
    this.http = http;
    this.callbackExecutor = callbackExecutor;
  }

  HttpUrl apiUrl() {
    return apiUrl;
  }

  <T> T execute(String method, String path, @Nullable String json, Reader<T> reader) {
    Request request = request(method, path, json);
    try (Response response = http.newCall(request).execute()) {
      return answer(request, response, reader);
    } catch (IOException e) {
      throw transportFailure(request, e);
    }
  }

  /**
   * Sends the request on OkHttp's Dispatcher and completes the future with its answer: on the callback
   * executor if one was given, else on the Dispatcher thread that read the answer. Cancelling the future
   * cancels the call.
   */
  <T> CompletableFuture<T> enqueue(String method, String path, @Nullable String json, Reader<T> reader) {
    Request request = request(method, path, json);
    CompletableFuture<T> future = new CompletableFuture<>();
    Call call = http.newCall(request);
    future.whenComplete((v, e) -> {
      if (e instanceof CancellationException) call.cancel();
    });
    call.enqueue(new Callback() {
      @Override
      public void onResponse(Call c, Response response) {
        try (Response r = response) {
          T value = answer(request, r, reader);
          complete(future, value, null);
        } catch (IOException e) {
          complete(future, null, transportFailure(request, e));
        } catch (RuntimeException e) {
          complete(future, null, e);
        }
      }

      @Override
      public void onFailure(Call c, IOException e) {
        complete(future, null, transportFailure(request, e));
      }
    });
    return future;
  }

  private <T> void complete(CompletableFuture<T> future, @Nullable T value, @Nullable Throwable error) {
    Runnable completion = () -> {
      if (error != null) {
        future.completeExceptionally(error);
      } else {
        future.complete(value);
      }
    };
    if (callbackExecutor == null) {
      completion.run();
      return;
    }
    try {
      callbackExecutor.execute(completion);
    } catch (RuntimeException rejected) {
      future.completeExceptionally(rejected); // refused (shut down, say): it fails on this thread, the only one left
    }
  }

  private Request request(String method, String path, @Nullable String json) {
    HttpUrl url = apiUrl.newBuilder().addEncodedPathSegments(path).build();
    RequestBody body = json != null ? RequestBody.create(json, JSON)
        : method.equals("GET") || method.equals("DELETE") ? null : RequestBody.create("{}", JSON);
    return new Request.Builder().url(url).method(method, body)
        .header("x-api-key", apiKey).header("Accept", "application/json").build();
  }

  private static <T> T answer(Request request, Response response, Reader<T> reader) throws IOException {
    ResponseBody rb = response.body();
    String text = rb == null ? "" : rb.string();
    if (!response.isSuccessful()) throw refusal(response.code(), text, retryAfterMillis(response));
    try {
      return reader.read(Wire.object(text));
    } catch (IllegalArgumentException e) {
      throw new ServerException("malformed answer to " + request.method() + " " + request.url().encodedPath()
          + ": " + e.getMessage(), e);
    }
  }

  private static ServerTransportException transportFailure(Request request, IOException e) {
    return new ServerTransportException(request.method() + " " + request.url().encodedPath() + " failed: "
        + e.getMessage(), e);
  }

  /** Returns the exception for a non-2xx answer: its {@code {"error": {code, message}}}, else {@code http_<status>}. */
  static ServerApiException refusal(int status, String body, long retryAfterMillis) {
    try {
      Map<String, Object> error = Wire.nested(Wire.object(body).get("error"), "error");
      Object code = error.get("code");
      Object message = error.get("message");
      if (code instanceof String && !((String) code).isEmpty()) {
        String text = message instanceof String && !((String) message).isEmpty() ? (String) message : (String) code;
        return new ServerApiException(status, (String) code, text, retryAfterMillis);
      }
    } catch (IllegalArgumentException notTheServicesJson) {
      // a proxy's HTML page, say: http_<status> below
    }
    return new ServerApiException(status, "http_" + status, "HTTP " + status, retryAfterMillis);
  }

  /**
   * Returns the delay {@code Retry-After} asked for (RFC 9110 section 10.2.3: delta-seconds, or an HTTP date
   * measured from the answer's {@code Date}, else from its arrival), or -1 without a valid one.
   */
  static long retryAfterMillis(Response response) {
    String value = response.header("Retry-After");
    if (value == null) return -1;
    String digits = value.trim();
    if (!digits.isEmpty() && digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      long seconds = 0;
      for (int i = 0; i < digits.length(); i++) {
        seconds = seconds >= MAX_SECONDS / 10 ? MAX_SECONDS : Math.min(MAX_SECONDS, seconds * 10 + (digits.charAt(i) - '0'));
      }
      return seconds * 1000;
    }
    Date at = response.headers().getDate("Retry-After");
    if (at == null) return -1;
    Date served = response.headers().getDate("Date");
    long now = served != null ? served.getTime() : response.receivedResponseAtMillis();
    return Math.max(0, at.getTime() - now);
  }
}
