package dev.svc.chat.server;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;

/**
 * The OkHttp client of every {@link ServerClient} built without one: made once per JVM, on a Dispatcher whose
 * threads ({@code svc-chat-server-http-N}) are daemon threads that end after a minute idle, so that a JVM
 * with no other threads exits without a close (OkHttp's own Dispatcher threads are not daemons).
 */
final class DefaultHttp {
  private DefaultHttp() {
  }

  static OkHttpClient client() {
    return Holder.CLIENT;
  }

  private static final class Holder {
    static final OkHttpClient CLIENT = new OkHttpClient.Builder().dispatcher(dispatcher()).build();

    private static Dispatcher dispatcher() {
      AtomicInteger count = new AtomicInteger();
      ExecutorService executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
          new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "svc-chat-server-http-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
          });
      Dispatcher dispatcher = new Dispatcher(executor);
      dispatcher.setMaxRequestsPerHost(64); // a backend mints for many users at once; OkHttp's default is 5
      return dispatcher;
    }
  }
}
