package dev.svc.chat.internal.util;

import java.util.List;

import okhttp3.HttpUrl;

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

  private ApiUrls(String given) {
    this.given = given;
    this.api = HttpUrl.get(given);
    this.socket = socketUrl(api);
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

  /** Returns the gateway URL for an API URL: its origin plus {@code /socket.io/?EIO=4&transport=websocket}. */
  public static String socketUrl(HttpUrl apiUrl) {
    return apiUrl.newBuilder().encodedPath("/socket.io/").query("EIO=4&transport=websocket").build().toString();
  }

  /**
   * Returns {@code apiUrl} checked and without a trailing slash.
   *
   * @throws IllegalArgumentException if it is not an http(s) URL whose path ends with {@code /v1}, or has a
   *     query or fragment
   */
  public static String normalize(String apiUrl) {
    if (apiUrl == null) throw new NullPointerException("apiUrl == null");
    HttpUrl url = HttpUrl.parse(apiUrl.trim());
    if (url == null) {
      throw new IllegalArgumentException("apiUrl is not an http(s) URL: " + apiUrl);
    }
    if (url.query() != null || url.fragment() != null) {
      throw new IllegalArgumentException("apiUrl must not have a query or fragment: " + apiUrl);
    }
    List<String> segments = url.pathSegments();
    int last = segments.size() - 1;
    if (last >= 0 && segments.get(last).isEmpty()) last--;
    if (last < 0 || !segments.get(last).equals("v1")) {
      throw new IllegalArgumentException("apiUrl must end with /v1, like https://host/v1: " + apiUrl);
    }
    String s = url.toString();
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }
}
