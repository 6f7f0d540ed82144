package dev.svc.chat.internal.util;

import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.svc.chat.internal.transport.OkHttpTransport;
import dev.svc.chat.transport.Transport;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * The OkHttp clients chat clients use, shared by every chat client built on the same base: the app's
 * {@link OkHttpClient} when it gave one (never shut down here), else one the SDK makes once per JVM.
 *
 * <p>For each base there is one pair, derived with {@link OkHttpClient#newBuilder()} so both share the base's
 * settings, and both set TCP_NODELAY:
 * <ul>
 *   <li>{@link #rest(HttpUrl)}: REST calls, on the base's own {@link Dispatcher} (the app's limits apply), on a
 *       connection pool of their own per API origin (OkHttp's default pool: 5 idle connections, 5 minutes), so
 *       that a client whose gateway socket stalled (ping timeout) evicts the idle connections to its own
 *       service only ({@link #evictIdle}), never the app's other connections nor those to another API URL;</li>
 *   <li>{@link #webSocket}: the gateway WebSockets of the default transport ({@link #webSocketTransport}), on a Dispatcher of its own with no practical limit and
 *       daemon threads, with OkHttp's pings off (Engine.IO does heartbeats). OkHttp 4 runs each WebSocket's
 *       reader on a Dispatcher thread for the socket's whole life, so on the base's Dispatcher (64 slots by
 *       default) the 65th socket would never open and REST calls would queue behind the sockets. Its read
 *       and write timeouts are 0 (none): OkHttp arms them for every read inside a frame and every frame written,
 *       a wake-up of Okio's watchdog thread each, and the engine finds any stalled socket anyway, inside a frame
 *       or between frames: its heartbeat watchdog ends a connection that had no ping for the handshake's
 *       {@code pingInterval + pingTimeout} and cancels the socket (which ends a write stuck in it), and before the
 *       OPEN packet the 20 s handshake deadline does (it covers the HTTP upgrade too). A write blocks only once
 *       the socket's send buffer is full; a gateway that still pings but reads nothing gets no pong and closes the
 *       connection, as Engine.IO's servers do.</li>
 * </ul>
 * The SDK's own base allows {@value #MAX_REQUESTS_PER_HOST} REST calls per host at once (OkHttp's default is
 * 5), so that the sends of many rooms go out together. Every thread here is a daemon and ends after
 * {@value #KEEP_ALIVE_MILLIS} ms idle; {@code close()} of a chat client cancels its own calls and closes its
 * socket, and what is shared stays for the other clients.
 */
public final class SharedHttpClients {
  /** REST calls in flight per host on the SDK's own client. */
  public static final int MAX_REQUESTS_PER_HOST = 64;
  /** REST calls in flight in all on the SDK's own client. */
  static final int MAX_REQUESTS = 256;
  /** How long an idle dispatcher thread lives. */
  static final long KEEP_ALIVE_MILLIS = 2_000;

  private static final Map<OkHttpClient, SharedHttpClients> BY_BASE = new WeakHashMap<>();
  private static OkHttpClient sdkBase;

  /** The base's settings for REST calls, from which the client of each API origin is derived. */
  private final OkHttpClient restTemplate;
  /** The REST client of each API origin ({@code scheme://host:port}), each on a pool of its own. */
  private final Map<String, OkHttpClient> restByOrigin = new HashMap<>(4);
  /** The gateway's WebSockets. */
  public final OkHttpClient webSocket;
  /** The default transport: OkHttp's WebSocket on {@link #webSocket}. */
  public final Transport webSocketTransport;

  private SharedHttpClients(OkHttpClient restTemplate, OkHttpClient webSocket) {
    this.restTemplate = restTemplate;
    this.webSocket = webSocket;
    this.webSocketTransport = new OkHttpTransport(webSocket);
  }

  /** Returns the client for REST calls to {@code apiUrl}'s origin, shared by the chat clients of that origin. */
  public synchronized OkHttpClient rest(HttpUrl apiUrl) {
    String origin = apiUrl.scheme() + "://" + apiUrl.host() + ":" + apiUrl.port();
    OkHttpClient client = restByOrigin.get(origin);
    if (client == null) {
      client = restTemplate.newBuilder().connectionPool(new ConnectionPool()).build();
      restByOrigin.put(origin, client);
    }
    return client;
  }

  /**
   * Closes the idle pooled connections of {@code rest} (a client from {@link #rest(HttpUrl)}): the connections
   * to one API origin, after a ping timeout showed the path to it may have stalled. Connections in use stay
   * with their calls; the app's own connections and other origins' are not touched.
   */
  public static void evictIdle(OkHttpClient rest) {
    rest.connectionPool().evictAll();
  }

  /** Returns the clients derived from {@code given}, or from the SDK's own client when it is null. */
  public static synchronized SharedHttpClients of(OkHttpClient given) {
    OkHttpClient base = given;
    if (base == null) {
      if (sdkBase == null) sdkBase = createSdkBase();
      base = sdkBase;
    }
    SharedHttpClients clients = BY_BASE.get(base);
    if (clients == null) {
      // neither derived client refers to the base, so the entry goes when the app drops its client
      NoDelaySocketFactory sockets = new NoDelaySocketFactory(base.socketFactory());
      OkHttpClient rest = base.newBuilder().socketFactory(sockets).build();
      Dispatcher sockDispatcher = new Dispatcher(daemonPool("svc-chat-ws"));
      sockDispatcher.setMaxRequests(Integer.MAX_VALUE);
      sockDispatcher.setMaxRequestsPerHost(Integer.MAX_VALUE);
      OkHttpClient webSocket = base.newBuilder().socketFactory(sockets).dispatcher(sockDispatcher)
          .pingInterval(0, TimeUnit.MILLISECONDS).readTimeout(0, TimeUnit.MILLISECONDS)
          .writeTimeout(0, TimeUnit.MILLISECONDS).build();
      clients = new SharedHttpClients(rest, webSocket);
      BY_BASE.put(base, clients);
    }
    return clients;
  }

  private static OkHttpClient createSdkBase() {
    Dispatcher dispatcher = new Dispatcher(daemonPool("svc-chat-http"));
    dispatcher.setMaxRequests(MAX_REQUESTS);
    dispatcher.setMaxRequestsPerHost(MAX_REQUESTS_PER_HOST);
    return new OkHttpClient.Builder().dispatcher(dispatcher).build();
  }

  private static ExecutorService daemonPool(String name) {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_MILLIS, TimeUnit.MILLISECONDS,
        new SynchronousQueue<Runnable>(), new NamedThreadFactory(name, true));
    return pool;
  }
}
