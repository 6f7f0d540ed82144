package dev.svc.chat.internal.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

class SharedHttpClientsTest {
  /**
   * The gateway's WebSockets have no read or write timeout, whatever the base's: OkHttp would arm them (a wake-up
   * of Okio's watchdog thread) for every read inside a frame and every frame written, and the engine's heartbeat
   * watchdog finds a stalled socket (StalledSocketTest). REST keeps the base's timeouts.
   */
  @Test
  void theWebSocketClientHasNoReadOrWriteTimeoutAndRestKeepsTheBases() {
    OkHttpClient base = new OkHttpClient.Builder().readTimeout(7, TimeUnit.SECONDS)
        .writeTimeout(8, TimeUnit.SECONDS).build();
    SharedHttpClients clients = SharedHttpClients.of(base);
    assertEquals(0, clients.webSocket.readTimeoutMillis(), "the WebSocket client's read timeout");
    assertEquals(0, clients.webSocket.writeTimeoutMillis(), "the WebSocket client's write timeout");
    assertEquals(0, clients.webSocket.pingIntervalMillis(), "OkHttp's pings");
    OkHttpClient rest = clients.rest(HttpUrl.get("http://127.0.0.1:1/v1"));
    assertEquals(7_000, rest.readTimeoutMillis(), "REST's read timeout");
    assertEquals(8_000, rest.writeTimeoutMillis(), "REST's write timeout");
  }
}
