package dev.svc.chat.session;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

import com.squareup.moshi.JsonReader;
import dev.svc.chat.ApiException;
import dev.svc.chat.ChatException;
import dev.svc.chat.TransportException;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/** The default {@link SessionFetcher}: the tenant's session route over OkHttp with the app's cookies. */
final class HttpSessionFetcher implements SessionFetcher {
  private final HttpUrl url;
  private final String method;
  private final OkHttpClient http;

  HttpSessionFetcher(String url, String method, OkHttpClient http) {
    if (http == null) throw new NullPointerException("http == null");
    HttpUrl parsed = url == null ? null : HttpUrl.parse(url);
    if (parsed == null) throw new IllegalArgumentException("not an http(s) URL: " + url);
    if (!"GET".equals(method) && !"POST".equals(method)) {
      throw new IllegalArgumentException("method must be GET or POST: " + method);
    }
    this.url = parsed;
    this.method = method;
    this.http = http;
  }

  @Override
  public CompletableFuture<Session> fetch() {
    final CompletableFuture<Session> result = new CompletableFuture<>();
    Request.Builder request = new Request.Builder().url(url).header("Accept", "application/json");
    if ("POST".equals(method)) {
      request.post(RequestBody.create("{}", MediaType.get("application/json; charset=utf-8")));
    }
    http.newCall(request.build()).enqueue(new Callback() {
      @Override
      public void onFailure(Call call, IOException e) {
        result.completeExceptionally(new TransportException(method + " " + url.encodedPath() + " failed: " + e, e));
      }

      @Override
      public void onResponse(Call call, Response response) {
        try (ResponseBody body = response.body()) {
          if (!response.isSuccessful()) {
            int status = response.code();
            boolean outage = status >= 500 || status == 408 || status == 429; // retried by the manager
            result.completeExceptionally(outage
                ? new ApiException(status, "http_" + status, "the session route failed: it answered " + status)
                : new ApiException(status, "unauthorized", "not signed in: the session route answered " + status));
            return;
          }
          result.complete(read(body));
        } catch (IOException e) {
          result.completeExceptionally(new TransportException("reading the session failed: " + e, e));
        } catch (RuntimeException e) {
          result.completeExceptionally(new ChatException("malformed session answer: " + e.getMessage(), e));
        }
      }
    });
    return result;
  }

  static Session read(ResponseBody body) throws IOException {
    if (body == null) throw new IllegalArgumentException("empty body");
    String token = null;
    String apiUrl = null;
    String userId = null;
    String displayName = null;
    long expiresAt = 0;
    JsonReader reader = JsonReader.of(body.source());
    reader.beginObject();
    while (reader.hasNext()) {
      String name = reader.nextName();
      if (reader.peek() == JsonReader.Token.NULL) {
        reader.nextNull();
        continue;
      }
      switch (name) {
        case "token":
          token = reader.nextString();
          break;
        case "apiUrl":
          apiUrl = reader.nextString();
          break;
        case "chatUserId":
          userId = reader.nextString();
          break;
        case "displayName":
          displayName = reader.nextString();
          break;
        case "expiresAt":
          expiresAt = reader.peek() == JsonReader.Token.NUMBER ? reader.nextLong()
              : IsoInstants.parse(reader.nextString());
          break;
        default:
          reader.skipValue();
      }
    }
    reader.endObject();
    if (token == null || apiUrl == null || userId == null || expiresAt == 0) {
      throw new IllegalArgumentException("the session answer lacks token, apiUrl, chatUserId or expiresAt");
    }
    return Session.builder(token, apiUrl, userId, expiresAt).displayName(displayName).build();
  }
}
