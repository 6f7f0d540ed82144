package dev.svc.chat.server;

import java.util.ArrayList;
import java.util.List;

import okhttp3.HttpUrl;

/**
 * The API base a {@link ServerClient} is given: an http(s) URL whose path ends with {@code /v1}, or an origin
 * alone, to which {@code /v1} is appended. The same rule as the client SDK's {@code SvcOptions.builder(apiUrl)}
 * (this module does not depend on it).
 */
final class ApiBase {
  private ApiBase() {}

  /**
   * Returns {@code apiUrl} parsed, without a trailing slash, with {@code /v1} appended to an origin alone.
   *
   * @throws IllegalArgumentException if it is not an http(s) URL, has a query or fragment, or has a path that
   *     does not end with {@code /v1}; the message says what to write
   */
  static HttpUrl parse(String apiUrl) {
    HttpUrl url = HttpUrl.parse(apiUrl.trim());
    if (url == null) {
      throw new IllegalArgumentException("the API URL is not an http(s) URL (write http://host:port): " + apiUrl);
    }
    if (url.query() != null || url.fragment() != null) {
      throw new IllegalArgumentException("the API URL must not have a query or fragment: " + apiUrl);
    }
    List<String> segments = new ArrayList<>(url.pathSegments());
    while (!segments.isEmpty() && segments.get(segments.size() - 1).isEmpty()) segments.remove(segments.size() - 1);
    HttpUrl.Builder base = url.newBuilder().encodedPath("/");
    if (segments.isEmpty() || segments.get(segments.size() - 1).equals("v1")) {
      if (segments.isEmpty()) segments.add("v1");
      for (String segment : segments) base.addPathSegment(segment);
      return base.build();
    }
    int v1 = segments.indexOf("v1");
    for (String segment : v1 >= 0 ? segments.subList(0, v1) : segments) base.addPathSegment(segment);
    String origin = url.newBuilder().encodedPath("/").build().toString();
    throw new IllegalArgumentException("the API URL is the origin alone or ends with /v1 (write "
        + base.addPathSegment("v1").build() + " or " + origin.substring(0, origin.length() - 1) + "): " + apiUrl);
  }
}
