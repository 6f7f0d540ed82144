package dev.svc.chat.transport.jdk;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.svc.chat.transport.Transport;
import dev.svc.chat.transport.TransportListener;
import dev.svc.chat.transport.TransportSocket;

/**
 * The realtime transport on the JDK's {@code java.net.http.WebSocket}. The JDK reads and writes every socket of
 * an {@link HttpClient} on that client's one selector thread; this transport hands each socket's messages from
 * there to a small executor shared by all its sockets ({@value #READERS_PER_CORE} threads per core, at least
 * {@value #MIN_READERS}),
 * one socket at a time in order, a bounded batch per turn, and asks the JDK for more only as the listener takes
 * them ({@link WebSocket#request}). The executor's threads are shared, so a listener waits without holding one:
 * it defers the message ({@link TransportSocket#deferText}, as the engine's inbound gate does), and the socket
 * reads nothing until the message is handed over again. Sends are queued per socket and written one at a time,
 * as the JDK allows. The upgrade is bounded by {@link #CONNECT_TIMEOUT} (TCP connect, TLS and the answer), and a
 * cancel before the open ends its exchange; a Close the peer does not answer within 60 s aborts the socket (the
 * JDK has no such bound), and a peer silent for {@value #SILENCE_MILLIS} ms is pinged and the socket fails if
 * nothing answers within as long again (the JDK loses a few TCP closes), on one shared timer thread.
 *
 * <p>The HttpClient's executor being {@link #INLINE}, the JDK starts an upgrade on the thread that calls
 * {@link #open} (the engine's actor): it resolves the host name there, blocking that client's actor for as long as
 * the DNS lookup takes (the TCP connect itself does not block), and a {@code wss:} TLS handshake's delegated tasks
 * run on the selector thread.
 *
 * <p>{@link #shared()} is the process's one instance on one HttpClient whose own tasks run on the thread that
 * starts them ({@link #INLINE}), and one executor of daemon threads, each ending after 2 s idle: give it to every
 * client of a fleet. The JDK gives each WebSocket three heap buffers of 16 KiB for its
 * life (the connection's read buffer, the write buffer and the text encoder's), sized by the system properties
 * {@value #READ_BUFFER_PROPERTY}, {@value #WRITE_BUFFER_PROPERTY} and {@value #ENCODER_BUFFER_PROPERTY}; unless
 * they are set, {@link #shared()} sets each to {@value #SOCKET_BUFFER_BYTES} bytes, so that an idle bot does not
 * hold 48 KiB (a larger message is read and written in several passes). They apply to what the JVM's
 * {@code java.net.http} clients do afterwards, and the read buffer's only if no {@code HttpClient} was made
 * before (the JDK reads it once). Usage:
 * <pre>{@code
 * ChatClient bot = Svc.init(SvcOptions.builder(apiUrl).transport(JdkTransport.shared()).build());
 * }</pre>
 */
public final class JdkTransport implements Transport {
  /** The shared executor's threads per core. */
  static final int READERS_PER_CORE = 2;
  /** The shared executor's threads at least. */
  static final int MIN_READERS = 4;
  /** How long an idle thread of the shared executor lives. */
  static final long KEEP_ALIVE_MILLIS = 2_000;
  /** The upgrade's timeout (TCP connect, TLS and the upgrade's answer), as OkHttp's connect timeout. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /**
   * How long a reading socket's peer may be silent before it is pinged, and then before the socket fails: a TCP
   * close the JDK lost is reported within about three times this ({@link SilenceCheck}).
   */
  static final long SILENCE_MILLIS = 15_000;

  /** The JDK's property of an HTTP connection's read buffer size (read once, when the first client is made). */
  static final String READ_BUFFER_PROPERTY = "jdk.httpclient.bufsize";
  /** The JDK's property of a WebSocket's write buffer size. */
  static final String WRITE_BUFFER_PROPERTY = "jdk.httpclient.websocket.writeBufferSize";
  /** The JDK's property of a WebSocket's text encoder buffer size. */
  static final String ENCODER_BUFFER_PROPERTY = "jdk.httpclient.websocket.intermediateBufferSize";
  /** The size {@link #shared()} gives the three buffers unless their properties are set. */
  static final int SOCKET_BUFFER_BYTES = 1024;

  /**
   * The shared HttpClient's executor: each task runs on the thread that starts it, mostly the selector thread. The
   * JDK's WebSocket hands each message to its listener ({@link JdkSocket}, which only queues it) as such a task,
   * and asks its connection for the next frame only once the listener returned. A peer's TCP close (EOF, no Close
   * frame) read in between, with no frame asked for, is lost by the JDK (in 17, its transport's
   * {@code acknowledgeReception} throws an {@code InternalError} on the selector thread and its reading stops):
   * the listener is never told and the socket looks open. Run inline, the hand-over ends before the selector
   * thread reads again, so the EOF finds the next frame asked for. It does not when the listener is
   * {@value InboundQueue#WINDOW} messages behind (nothing is asked for then), nor while the JDK's receiving runs on
   * another thread: the one that finished the upgrade (it keeps it as long as frames come while it runs) or a
   * reader's that asked for more; about one close in a thousand right after a message is lost so. The
   * {@link SilenceCheck} reports such a close within about three times {@value #SILENCE_MILLIS} ms.
   */
  static final Executor INLINE = Runnable::run;

  private static JdkTransport shared;

  private final HttpClient client;
  private final Executor readers;
  /** The bound of the opening handshake (TCP connect, TLS and the upgrade's answer). */
  private final Duration connectTimeout;
  /** How long a socket waits for the peer's answer to its Close before it aborts. */
  private final long closeTimeoutMillis;
  /** How long a peer may be silent before it is pinged, and then before the socket fails ({@link SilenceCheck}). */
  private final long silenceMillis;

  private JdkTransport(HttpClient client, Executor readers, Duration connectTimeout, long closeTimeoutMillis,
      long silenceMillis) {
    this.client = client;
    this.readers = readers;
    this.connectTimeout = connectTimeout;
    this.closeTimeoutMillis = closeTimeoutMillis;
    this.silenceMillis = silenceMillis;
  }

  /** Returns a transport on this one's client with other readers and bounds (tests). */
  JdkTransport with(Executor readers, Duration connectTimeout, long closeTimeoutMillis) {
    return new JdkTransport(client, readers, connectTimeout, closeTimeoutMillis, silenceMillis);
  }

  /** Returns a transport like this one whose sockets ping a peer silent for {@code millis} (tests). */
  JdkTransport withSilence(long millis) {
    return new JdkTransport(client, readers, connectTimeout, closeTimeoutMillis, millis);
  }

  /** Returns this transport's readers (tests). */
  Executor readers() {
    return readers;
  }

  /**
   * Returns the process's shared transport: one {@link HttpClient} (its selector thread, which also runs the
   * client's own tasks) and one executor for the sockets' listeners, made at the first call.
   *
   * @return the shared transport
   */
  public static synchronized JdkTransport shared() {
    if (shared == null) {
      defaultProperty(READ_BUFFER_PROPERTY, Integer.toString(SOCKET_BUFFER_BYTES));
      defaultProperty(WRITE_BUFFER_PROPERTY, Integer.toString(SOCKET_BUFFER_BYTES));
      defaultProperty(ENCODER_BUFFER_PROPERTY, Integer.toString(SOCKET_BUFFER_BYTES));
      HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).executor(INLINE).build();
      int readers = Math.max(MIN_READERS, READERS_PER_CORE * Runtime.getRuntime().availableProcessors());
      shared = new JdkTransport(client, pool("svc-chat-jdk-ws", readers), CONNECT_TIMEOUT,
          JdkSocket.CLOSE_TIMEOUT_MILLIS, SILENCE_MILLIS);
    }
    return shared;
  }

  /**
   * Returns a transport that opens its sockets on {@code client} (never closed here) and runs their listeners on
   * {@code readers}, which must run each task it is given (a socket's tasks never run at once) on a thread of its
   * own, never inline on the caller's (the caller may be the HttpClient's selector thread). A client whose
   * executor runs tasks on other threads (the JDK's default) may miss a peer's TCP close that comes right after
   * a message, until the engine's heartbeat watchdog ends the connection: build it with
   * {@code .executor(Runnable::run)}, as {@link #shared()} does, to see every close at once.
   *
   * @param client the HTTP client
   * @param readers the executor of the sockets' listeners
   * @return a new transport
   */
  public static JdkTransport create(HttpClient client, Executor readers) {
    if (client == null) throw new NullPointerException("client == null");
    if (readers == null) throw new NullPointerException("readers == null");
    return new JdkTransport(client, readers, CONNECT_TIMEOUT, JdkSocket.CLOSE_TIMEOUT_MILLIS, SILENCE_MILLIS);
  }

  @Override
  public TransportSocket open(String url, Map<String, String> headers, TransportListener listener) {
    JdkSocket socket =
        new JdkSocket(listener, readers, Timer.INSTANCE, closeTimeoutMillis, silenceMillis, System::nanoTime);
    WebSocket.Builder builder = client.newWebSocketBuilder().connectTimeout(connectTimeout);
    for (Map.Entry<String, String> h : headers.entrySet()) builder.header(h.getKey(), h.getValue());
    socket.opening(builder.buildAsync(webSocketUri(url), socket));
    return socket;
  }

  /** Returns {@code url} with an {@code http(s)} scheme turned into {@code ws(s)}, as the JDK requires. */
  static URI webSocketUri(String url) {
    if (url.regionMatches(true, 0, "http:", 0, 5)) return URI.create("ws:" + url.substring(5));
    if (url.regionMatches(true, 0, "https:", 0, 6)) return URI.create("wss:" + url.substring(6));
    return URI.create(url);
  }

  @Override
  public String toString() {
    return "JdkTransport";
  }

  private static void defaultProperty(String name, String value) {
    try {
      if (System.getProperty(name) == null) System.setProperty(name, value);
    } catch (SecurityException e) {
      // a security manager forbids it: the JDK's default sizes stay
    }
  }

  /**
   * A pool of {@code threads} daemon threads named {@code name-N} over an unbounded queue; the threads end after
   * {@link #KEEP_ALIVE_MILLIS} idle.
   */
  private static ThreadPoolExecutor pool(String name, int threads) {
    final AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, KEEP_ALIVE_MILLIS, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<Runnable>(), r -> thread(r, name, count));
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /**
   * The sockets' one scheduler (close timeouts, deferred messages): a daemon thread made at its first use, ending
   * after {@link #KEEP_ALIVE_MILLIS} idle; a cancelled timeout leaves its queue at once.
   */
  static final class Timer {
    static final ScheduledThreadPoolExecutor INSTANCE = timer();

    private static ScheduledThreadPoolExecutor timer() {
      final AtomicInteger count = new AtomicInteger();
      ScheduledThreadPoolExecutor timer =
          new ScheduledThreadPoolExecutor(1, r -> thread(r, "svc-chat-jdk-timer", count));
      timer.setKeepAliveTime(KEEP_ALIVE_MILLIS, TimeUnit.MILLISECONDS);
      timer.allowCoreThreadTimeOut(true);
      timer.setRemoveOnCancelPolicy(true);
      return timer;
    }
  }

  private static Thread thread(Runnable r, String name, AtomicInteger count) {
    Thread t = new Thread(r, name + "-" + count.incrementAndGet());
    t.setDaemon(true);
    return t;
  }
}
