package dev.svc.chat.internal.util;

import java.util.ArrayList;
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
   * Returns {@code apiUrl} checked, without a trailing slash, and with {@code /v1} appended to an origin given
   * alone ({@code http://127.0.0.1:8080} and {@code http://127.0.0.1:8080/} both give
   * {@code http://127.0.0.1:8080/v1}).
   *
   * @throws IllegalArgumentException if it is not an http(s) URL, has a query or fragment, or has a path that
   *     does not end with {@code /v1}; the message says what to write
   */
  public static String normalize(String apiUrl) {
    if (apiUrl == null) throw new NullPointerException("apiUrl == null");
    HttpUrl url = HttpUrl.parse(apiUrl.trim());
    if (url == null) {
      throw new IllegalArgumentException("the API URL is not an http(s) URL (write http://host:port): " + apiUrl);
    }
    if (url.query() != null || url.fragment() != null) {
      throw new IllegalArgumentException("the API URL must not have a query or fragment: " + apiUrl);
    }
    List<String> segments = new ArrayList<>(url.pathSegments());
    if (!segments.isEmpty() && segments.get(segments.size() - 1).isEmpty()) segments.remove(segments.size() - 1);
    HttpUrl.Builder origin = url.newBuilder().encodedPath("/");
    if (segments.isEmpty()) return without(origin.addPathSegment("v1").build().toString());
    if (segments.get(segments.size() - 1).equals("v1")) return without(url.toString());
    int v1 = segments.indexOf("v1");
    List<String> suggested = v1 >= 0 ? segments.subList(0, v1) : segments;
    for (String segment : suggested) origin.addPathSegment(segment);
    throw new IllegalArgumentException("the API URL is the origin alone or ends with /v1 (write "
        + origin.addPathSegment("v1").build() + " or " + without(url.newBuilder().encodedPath("/").build().toString())
        + "): " + apiUrl);
  }

  private static String without(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
