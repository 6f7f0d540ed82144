package dev.svc.chat.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.squareup.moshi.JsonDataException;
import dev.svc.chat.ApiException;
import dev.svc.chat.Call;
import dev.svc.chat.CallKind;
import dev.svc.chat.CallStatus;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CallJsonAdapterTest {
  @Test
  void readsTheContractShapeAndWritesItBack() throws Exception {
    String json = "{\"id\":\"c1\",\"roomId\":\"r1\",\"kind\":\"audio\",\"initiatorId\":\"alice\","
        + "\"status\":\"ended\",\"participantIds\":[\"alice\",\"bob\"],\"createdAt\":\"2026-11-21T10:00:00.000Z\","
        + "\"endedAt\":\"2026-11-21T10:01:00.000Z\",\"endReason\":\"left\"}";
    Call call = CallJsonAdapter.INSTANCE.fromJson(json);
    assertEquals(CallKind.AUDIO, call.kind());
    assertEquals(CallStatus.ENDED, call.status());
    assertEquals(Arrays.asList("alice", "bob"), call.participantIds());
    assertEquals(Long.valueOf(call.createdAt() + 60_000), call.endedAt());
    assertEquals(Call.END_LEFT, call.endReason());
    assertEquals(json, CallJsonAdapter.INSTANCE.toJson(call));
  }

  @Test
  void keepsWhatANewerServiceSends() throws Exception {
    Call call = CallJsonAdapter.INSTANCE.fromJson("{\"id\":\"c1\",\"roomId\":\"r1\",\"kind\":\"screen\","
        + "\"initiatorId\":\"a\",\"status\":\"on-hold\",\"participantIds\":[\"a\"],"
        + "\"createdAt\":\"2026-11-21T10:00:00.000Z\",\"extra\":{\"x\":1}}");
    assertNull(call.kind());
    assertEquals("screen", call.kindName());
    assertEquals(CallStatus.UNKNOWN, call.status());
    assertNull(call.endReason());
  }

  @Test
  void refusesACallWithoutId() {
    assertThrows(JsonDataException.class, () -> CallJsonAdapter.INSTANCE.fromJson(
        "{\"roomId\":\"r1\",\"kind\":\"audio\",\"initiatorId\":\"a\",\"status\":\"ringing\"}"));
  }

  @Test
  void callsDisabledSaysSoClearly() {
    ApiException e = ServiceError.fromHttp(403,
        "{\"error\":{\"code\":\"calls_disabled\",\"message\":\"Calls are disabled for this tenant\"}}");
    assertEquals("calls_disabled", e.code());
    assertTrue(e.getMessage().startsWith("Calls are disabled for this tenant"), e.getMessage());
    assertEquals(403, new ServiceError("calls_disabled", "").toApiException().status());
  }
}
