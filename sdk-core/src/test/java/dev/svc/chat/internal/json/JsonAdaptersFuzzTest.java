package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import dev.svc.chat.ApiException;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of the SDK's JSON adapters: each reads a value or refuses with {@link JsonDataException} (a
 * value of the wrong shape) or an {@link IOException} (malformed JSON), never another exception; what an
 * adapter with an encoder reads, it writes to JSON that reads back equal. Error bodies never throw at all.
 */
class JsonAdaptersFuzzTest {
  private static String text(byte[] data) {
    return new String(data, StandardCharsets.UTF_8);
  }

  /** Reads with {@code adapter}; null when refused with a documented exception. */
  private static <T> T read(JsonAdapter<T> adapter, String json) {
    try {
      return adapter.fromJson(Json.reader(json));
    } catch (IOException | JsonDataException e) {
      return null;
    }
  }

  /** Writes {@code value} and reads it back: the same value. */
  private static <T> void roundTrip(JsonAdapter<T> adapter, T value) {
    String json = Json.write(adapter, value);
    try {
      assertEquals(value, adapter.fromJson(Json.reader(json)), json);
    } catch (IOException | JsonDataException e) {
      throw new AssertionError("cannot read what the adapter wrote: " + json, e);
    }
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void message(byte[] data) {
    dev.svc.chat.Message m = read(MessageJsonAdapter.INSTANCE, text(data));
    if (m != null) roundTrip(MessageJsonAdapter.INSTANCE, m);
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void room(byte[] data) {
    dev.svc.chat.Room r = read(RoomJsonAdapter.INSTANCE, text(data));
    if (r != null) roundTrip(RoomJsonAdapter.INSTANCE, r);
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void call(byte[] data) {
    dev.svc.chat.Call c = read(CallJsonAdapter.INSTANCE, text(data));
    if (c != null) roundTrip(CallJsonAdapter.INSTANCE, c);
  }

  /** Receipts are read only (no encoder): read or refused. */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void receipt(byte[] data) {
    read(MessagingAdapters.RECEIPT, text(data));
  }

  /**
   * Error bodies: a REST error body always gives an {@link ApiException} (the service's code, else
   * {@code http_<status>}); a CONNECT_ERROR payload gives an error with a lower-case code, or null.
   */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void errorBody(byte[] data) {
    String body = text(data);
    ApiException e = ServiceError.fromHttp(400, body, -1);
    assertNotNull(e.code());
    assertTrue(!e.code().isEmpty(), body);
    ServiceError connect = ServiceError.fromConnectError(body);
    if (connect != null) {
      assertTrue(!connect.code.isEmpty(), body);
      assertEquals(connect.code.toLowerCase(java.util.Locale.ROOT), connect.code, body);
    }
  }
}
