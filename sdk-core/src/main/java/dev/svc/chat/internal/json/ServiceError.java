package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.Locale;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.ApiException;

/**
 * The service's error object {@code {code, message}}, as found in a REST error body
 * {@code {"error": {...}}}, a negative acknowledgement and a CONNECT_ERROR, and its mapping to
 * {@link ApiException}.
 */
public final class ServiceError {
  private static final JsonReader.Options ERROR_NAMES = JsonReader.Options.of("code", "message");
  private static final JsonReader.Options BODY_NAMES = JsonReader.Options.of("error");

  /**
   * The message of a {@code token_expired} the client words itself (a gateway's {@code session-expired}
   * carries none): the service's own wording of the same refusal on REST.
   */
  public static final String TOKEN_EXPIRED = "The session token has expired";

  /** The machine-readable code, such as {@code forbidden}; may be empty when the body had none. */
  public final String code;
  /** The human-readable message; may be empty. */
  public final String message;

  /** Creates an error object. */
  public ServiceError(String code, String message) {
    this.code = code;
    this.message = message;
  }

  /** Returns the exception for a REST answer with a non-2xx status and the given body text. */
  public static ApiException fromHttp(int status, String body) {
    return fromHttp(status, body, -1);
  }

  /**
   * Returns the exception for a REST answer with a non-2xx status, the given body text, and the delay its
   * {@code Retry-After} header asked for in milliseconds (-1 for none).
   */
  public static ApiException fromHttp(int status, String body, long retryAfterMillis) {
    ServiceError e = null;
    try {
      e = readBody(Json.reader(body));
    } catch (IOException | JsonDataException | IllegalStateException ignored) {
      // not the service's JSON (a proxy's HTML page, say): fall through to http_<status>
    }
    if (e == null || e.code.isEmpty()) {
      return new ApiException(status, "http_" + status, "HTTP " + status, retryAfterMillis);
    }
    return new ApiException(status, e.code, describe(e.code, e.message), retryAfterMillis);
  }

  /** Returns the exception message for a code: the service's message, made explicit for a few codes. */
  static String describe(String code, String message) {
    String text = message.isEmpty() ? code : message;
    if ("calls_disabled".equals(code)) {
      // The same words whatever the service said, so that apps can show it as is.
      return "Calls are disabled for this tenant: its backend turns them on with the setting callsEnabled";
    }
    return text;
  }

  /** Returns the exception for an error code from the gateway, with the status the REST API uses for it. */
  public ApiException toApiException() {
    return new ApiException(statusOf(code), code, describe(code, message));
  }

  /** Returns the HTTP status that contract section 1 gives the code; 400 for unknown codes. */
  public static int statusOf(String code) {
    switch (code) {
      case "unauthorized":
      case "token_expired":
        return 401;
      case "forbidden":
      case "calls_disabled":
        return 403;
      case "not_found":
      case "user_not_found":
        return 404;
      case "conflict":
        return 409;
      case "payload_too_large":
        return 413;
      case "rate_limited":
        return 429;
      case "internal":
        return 500;
      default:
        return 400;
    }
  }

  /**
   * Reads the payload of a Socket.IO CONNECT_ERROR, {@code {"message": code, "data": {"code": code}}}: the
   * code is {@code data.code}, else {@code message}, lower-cased. Returns null for a payload that is not
   * such an object or has neither: the refusal cannot be read, and is not taken for {@code unauthorized}.
   */
  public static ServiceError fromConnectError(String data) {
    String code = null;
    String message = null;
    try {
      JsonReader reader = Json.reader(data);
      reader.beginObject();
      while (reader.hasNext()) {
        String name = reader.nextName();
        if (name.equals("message") && reader.peek() == JsonReader.Token.STRING) {
          message = reader.nextString();
        } else if (name.equals("data") && reader.peek() == JsonReader.Token.BEGIN_OBJECT) {
          ServiceError inner = read(reader);
          if (!inner.code.isEmpty()) code = inner.code;
        } else {
          reader.skipValue();
        }
      }
    } catch (IOException | JsonDataException e) {
      return null;
    }
    if (code == null && (message == null || message.isEmpty())) return null;
    if (code == null) code = message;
    code = code.toLowerCase(Locale.ROOT);
    return new ServiceError(code, message == null ? code : message);
  }

  private static ServiceError readBody(JsonReader reader) throws IOException {
    ServiceError result = null;
    reader.beginObject();
    while (reader.hasNext()) {
      if (reader.selectName(BODY_NAMES) == 0 && reader.peek() == JsonReader.Token.BEGIN_OBJECT) {
        result = read(reader);
      } else {
        if (reader.peek() == JsonReader.Token.NAME) reader.skipName();
        reader.skipValue();
      }
    }
    reader.endObject();
    return result;
  }

  /** Reads an error object {@code {code, message}}; missing fields read as empty strings. */
  public static ServiceError read(JsonReader reader) throws IOException {
    String code = "";
    String message = "";
    reader.beginObject();
    while (reader.hasNext()) {
      switch (reader.selectName(ERROR_NAMES)) {
        case 0:
          code = scalar(reader);
          break;
        case 1:
          message = scalar(reader);
          break;
        default:
          reader.skipName();
          reader.skipValue();
      }
    }
    reader.endObject();
    return new ServiceError(code, message);
  }

  private static String scalar(JsonReader reader) throws IOException {
    JsonReader.Token t = reader.peek();
    if (t == JsonReader.Token.STRING || t == JsonReader.Token.NUMBER) return reader.nextString();
    reader.skipValue();
    return "";
  }
}
