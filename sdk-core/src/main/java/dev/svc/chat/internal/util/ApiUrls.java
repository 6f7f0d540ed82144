package dev.svc.chat.internal.util;

import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * A client's API URL, parsed, and its gateway URL. Both are immutable, so the clients of one API URL share one
 * pair (a fleet's thousands of clients would otherwise hold a parsed {@link HttpUrl} and a URL string each):
 * the pair of the latest API URL asked for is kept.
 */
public final class ApiUrls {
  private static ApiUrls latest;

  /** The API URL as given. */
  public final String given;
  /** The API URL, parsed: the REST API's base. */
  public final HttpUrl api;
  /** The gateway's WebSocket URL ({@link #socketUrl}). */
  public final String socket;
  /** The request that opens a WebSocket to {@link #socket} (OkHttp adds the upgrade's headers to a copy). */
  private final Request socketRequest;

  private ApiUrls(String given) {
    this.given = given;
    this.api = HttpUrl.get(given);
    this.socket = socketUrl(api);
    this.socketRequest = new Request.Builder().url(socket).build();
  }

  /** Returns the URLs of {@code apiUrl}, shared with the clients of the same API URL made before. */
  public static synchronized ApiUrls of(String apiUrl) {
    ApiUrls urls = latest;
    if (urls == null || !urls.given.equals(apiUrl)) {
      urls = new ApiUrls(apiUrl);
      latest = urls;
    }
    return urls;
  }

  /** Returns the request that opens a WebSocket to {@link #socket}; OkHttp adds the upgrade's headers to a copy. */
  public Request socketRequest() {
    return socketRequest;
  }

  /** Returns the gateway URL for an API URL: its origin plus {@code /socket.io/?EIO=4&transport=websocket}. */
  public static String socketUrl(HttpUrl apiUrl) {
    return apiUrl.newBuilder().encodedPath("/socket.io/").query("EIO=4&transport=websocket").build().toString();
  }
}
