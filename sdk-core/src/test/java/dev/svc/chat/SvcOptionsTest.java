package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SvcOptionsTest {
  @Test
  void acceptsApiUrlsEndingWithV1() {
    assertEquals("http://127.0.0.1:8080/v1", SvcOptions.builder("http://127.0.0.1:8080/v1").build().apiUrl());
    assertEquals("http://127.0.0.1:8080/v1", SvcOptions.builder("http://127.0.0.1:8080/v1/").build().apiUrl());
    assertEquals("https://chat.example.com/api/v1", SvcOptions.builder("https://chat.example.com/api/v1").build().apiUrl());
  }

  @Test
  void appendsV1ToAnOriginAlone() {
    assertEquals("http://127.0.0.1:8080/v1", SvcOptions.builder("http://127.0.0.1:8080").build().apiUrl());
    assertEquals("http://127.0.0.1:8080/v1", SvcOptions.builder("http://127.0.0.1:8080/").build().apiUrl());
    assertEquals("https://chat.example.com/v1", SvcOptions.builder(" https://chat.example.com ").build().apiUrl());
  }

  @Test
  void saysWhatToWriteForAnotherPath() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SvcOptions.builder("http://127.0.0.1:8080/api"));
    assertEquals("the API URL is the origin alone or ends with /v1 (write http://127.0.0.1:8080/api/v1 or "
        + "http://127.0.0.1:8080): http://127.0.0.1:8080/api", e.getMessage());
  }

  @Test
  void rejectsOtherUrls() {
    String[] bad = {"", "127.0.0.1:8080/v1", "ftp://host/v1", "ws://host/v1", "http://host/v2",
        "http://host/v1/rooms", "http://host/v1?x=1", "not a url"};
    for (String url : bad) {
      assertThrows(IllegalArgumentException.class, () -> SvcOptions.builder(url), url);
    }
    assertThrows(NullPointerException.class, () -> SvcOptions.builder(null));
  }

  @Test
  void checksSettings() {
    SvcOptions.Builder b = SvcOptions.builder("http://h/v1");
    assertThrows(IllegalArgumentException.class, () -> b.ackTimeoutMillis(0));
    assertThrows(IllegalArgumentException.class, () -> b.reconnectDelay(0, 10));
    assertThrows(IllegalArgumentException.class, () -> b.reconnectDelay(100, 10));
    assertThrows(NullPointerException.class, () -> b.logger(null));
    SvcOptions o = b.build();
    assertEquals("ackTimeoutMillis < 1: 0",
        assertThrows(IllegalArgumentException.class, () -> b.ackTimeoutMillis(0)).getMessage());
    assertEquals("sendTimeoutMillis < 0: -1",
        assertThrows(IllegalArgumentException.class, () -> b.sendTimeoutMillis(-1)).getMessage());
    assertEquals("unreadCap < 1: 0", assertThrows(IllegalArgumentException.class, () -> b.unreadCap(0)).getMessage());
    assertEquals("executor == null",
        assertThrows(NullPointerException.class, () -> b.engineExecutor(null)).getMessage());
    assertEquals(0, b.sendTimeoutMillis(0).build().sendTimeoutMillis(), "0: no deadline");
    assertEquals(1, b.unreadCap(1).build().unreadCap());
    assertEquals(SvcOptions.DEFAULT_ACK_TIMEOUT_MILLIS, o.ackTimeoutMillis());
    assertEquals(500, o.reconnectBaseMillis());
    assertEquals(30_000, o.reconnectMaxMillis());
    assertEquals(ChatLogger.NONE, o.logger());
  }

  @Test
  void setsTheReconnectBackoffInOneLine() {
    SvcOptions dev = SvcOptions.builder("http://127.0.0.1:8080").reconnect(ReconnectSettings.development()).build();
    assertEquals(ReconnectSettings.development(), dev.reconnect());
    assertEquals(100, dev.reconnectBaseMillis());
    assertEquals(1_000, dev.reconnectMaxMillis());
    assertEquals(ReconnectSettings.defaults(), SvcOptions.builder("http://h/v1").build().reconnect());
    // the two-bound setter is the same setting
    assertEquals(ReconnectSettings.builder().baseDelayMillis(50).maxDelayMillis(200).build(),
        SvcOptions.builder("http://h/v1").reconnectDelay(50, 200).build().reconnect());
    assertThrows(IllegalArgumentException.class, () -> ReconnectSettings.builder().baseDelayMillis(0).build());
    assertThrows(IllegalArgumentException.class,
        () -> ReconnectSettings.builder().baseDelayMillis(2_000).maxDelayMillis(1_000).build());
    assertThrows(NullPointerException.class, () -> SvcOptions.builder("http://h/v1").reconnect(null));
  }

  @Test
  void optionsDoNotChangeWhenTheirBuilderIsUsedAgain() {
    SvcOptions.Builder b = SvcOptions.builder("http://h/v1").unreadCap(5);
    SvcOptions first = b.build();
    b.unreadCap(7).reconnect(ReconnectSettings.development());
    assertEquals(5, first.unreadCap());
    assertEquals(ReconnectSettings.defaults(), first.reconnect());
    assertEquals(7, b.build().unreadCap());
  }
}
