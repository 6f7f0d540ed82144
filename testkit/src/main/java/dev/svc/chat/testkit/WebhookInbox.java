package dev.svc.chat.testkit;

import com.sun.net.httpserver.HttpServer;
import dev.svc.chat.server.WebhookEvent;
import dev.svc.chat.server.WebhookVerifier;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The webhooks the reference server delivered to the tenant's webhook URL, received on a local HTTP endpoint,
 * verified with the tenant's secret and kept in arrival order. Deliveries are asynchronous, so a test waits
 * for the next one with {@link #next()}.
 */
public final class WebhookInbox implements AutoCloseable {
  /** How long {@link #next()} waits for a delivery. */
  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(10);

  private final BlockingQueue<WebhookEvent> unread = new LinkedBlockingQueue<>();
  private final List<WebhookEvent> all = new ArrayList<>();
  private final List<Throwable> refused = new ArrayList<>();
  private final ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
    Thread t = new Thread(r, "svc-testkit-webhooks");
    t.setDaemon(true);
    return t;
  });
  private final HttpServer http;
  private final WebhookVerifier verifier;

  WebhookInbox(String secret, VirtualClock clock) {
    this.verifier = WebhookVerifier.builder(secret).clock(clock::millis).build();
    try {
      http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    http.createContext("/webhooks", exchange -> {
      try (InputStream in = exchange.getRequestBody()) {
        Map<String, String> headers = new HashMap<>();
        exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), v.get(0)));
        String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        int status = receive(body, headers);
        exchange.sendResponseHeaders(status, -1);
      } finally {
        exchange.close();
      }
    });
    http.setExecutor(pool);
    http.start();
  }

  private int receive(String body, Map<String, String> headers) {
    try {
      WebhookEvent event = verifier.verify(body, headers);
      synchronized (this) {
        all.add(event);
      }
      unread.add(event);
      return 204;
    } catch (RuntimeException e) {
      synchronized (this) {
        refused.add(e);
      }
      return 400;
    }
  }

  /** Returns the URL the server delivers to. */
  String url() {
    return "http://127.0.0.1:" + http.getAddress().getPort() + "/webhooks";
  }

  /**
   * Returns the next delivery not yet returned by {@code next}, waiting up to {@link #DEFAULT_WAIT}.
   *
   * @return the verified event
   * @throws AssertionError if none arrives in time
   */
  public WebhookEvent next() {
    return next(e -> true);
  }

  /**
   * Returns the next delivery of the given type ({@link WebhookEvent#MESSAGE_NEW}, ...), skipping others,
   * waiting up to {@link #DEFAULT_WAIT}.
   *
   * @param type the event type
   * @return the verified event
   * @throws AssertionError if none arrives in time
   */
  public WebhookEvent next(String type) {
    return next(e -> e.type().equals(type));
  }

  private WebhookEvent next(Predicate<WebhookEvent> wanted) {
    long deadline = System.nanoTime() + DEFAULT_WAIT.toNanos();
    try {
      while (true) {
        long left = deadline - System.nanoTime();
        WebhookEvent e = left > 0 ? unread.poll(left, TimeUnit.NANOSECONDS) : null;
        if (e == null) {
          throw new AssertionError("no webhook within " + DEFAULT_WAIT + "; received " + all() + ", refused "
              + refused());
        }
        if (wanted.test(e)) return e;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for a webhook", e);
    }
  }

  /**
   * Returns every verified delivery so far, in arrival order (a retried delivery appears once per attempt).
   *
   * @return an unmodifiable copy
   */
  public synchronized List<WebhookEvent> all() {
    return List.copyOf(all);
  }

  /**
   * Returns the failures of deliveries that did not verify (bad signature, stale timestamp); a correct server
   * has none.
   *
   * @return an unmodifiable copy
   */
  public synchronized List<Throwable> refused() {
    return List.copyOf(refused);
  }

  /** Stops the endpoint. */
  @Override
  public void close() {
    http.stop(0);
    pool.shutdownNow();
  }
}
