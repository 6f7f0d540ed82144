package dev.svc.chat.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;

/**
 * The OkHttp client a chat client uses: derived from the one the app gave (never shut down here) or made
 * by the SDK (released by {@link #release()}). Either way it sets TCP_NODELAY and turns OkHttp's own
 * WebSocket pings off, since Engine.IO does heartbeats.
 */
final class HttpClientHolder {
  final OkHttpClient client;
  private final ExecutorService ownedDispatcherExecutor;

  private HttpClientHolder(OkHttpClient client, ExecutorService ownedDispatcherExecutor) {
    this.client = client;
    this.ownedDispatcherExecutor = ownedDispatcherExecutor;
  }

  static HttpClientHolder create(OkHttpClient given, String threadName) {
    if (given != null) {
      return new HttpClientHolder(configure(given.newBuilder(), given), null);
    }
    // daemon threads: an unclosed client must not keep the JVM alive; close() still shuts them down
    ExecutorService executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
        new SynchronousQueue<Runnable>(), new NamedThreadFactory(threadName, true));
    Dispatcher dispatcher = new Dispatcher(executor);
    OkHttpClient base = new OkHttpClient.Builder().dispatcher(dispatcher).build();
    return new HttpClientHolder(configure(base.newBuilder(), base), executor);
  }

  private static OkHttpClient configure(OkHttpClient.Builder builder, OkHttpClient base) {
    return builder
        .socketFactory(new NoDelaySocketFactory(base.socketFactory()))
        .pingInterval(0, TimeUnit.MILLISECONDS)
        .build();
  }

  boolean owned() {
    return ownedDispatcherExecutor != null;
  }

  /** Releases what the SDK created: cancels its calls, ends its threads, closes idle connections. */
  void release() {
    if (ownedDispatcherExecutor == null) return;
    client.dispatcher().cancelAll();
    ownedDispatcherExecutor.shutdown();
    client.connectionPool().evictAll();
  }
}
