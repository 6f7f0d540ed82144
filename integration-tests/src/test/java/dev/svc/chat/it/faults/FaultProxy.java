package dev.svc.chat.it.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fault-injecting TCP proxy on loopback, for tests: it listens on {@code 127.0.0.1} at a free port and
 * forwards every accepted connection, byte for byte in both directions, to a target (the reference server).
 * It knows nothing of HTTP beyond spotting a WebSocket upgrade for its statistics, so it carries REST
 * keep-alive connections and WebSockets alike.
 *
 * <p>Faults, on command or at random ({@link #startRandom(RandomFaults)}):
 * <ul>
 *   <li>cuts: {@link #cutAll()}, {@link #cutOne()}, {@link #cut(int)} close both sides of a connection abruptly,
 *       with an RST (SO_LINGER 0) where the platform sends one;</li>
 *   <li>stalls: {@link #stallAll(Direction, Duration)} and {@link #stallOne(Direction, Duration)} keep the
 *       TCP connection open but stop forwarding (and reading) in one or both directions, for a time or until
 *       {@link #resumeAll()}: the classic half-dead connection. Bytes already read stay buffered and go on
 *       after the stall; bytes not yet read back up in the kernel's buffers;</li>
 *   <li>slows: {@link #latency(Duration)} delays every forwarded chunk, {@link #throttle(long)} caps the
 *       bandwidth of each direction of each connection;</li>
 *   <li>refusals: {@link #refuseNew(boolean)} resets new connections as soon as they are accepted.</li>
 * </ul>
 *
 * <p>Plain blocking sockets, two pump threads per connection, one accept thread and one random-mode thread,
 * all from one executor that {@link #close()} shuts down and waits for. Threads are named
 * {@code fault-proxy-<port>-...}.
 */
public final class FaultProxy implements AutoCloseable {
  /** Which way bytes flow. */
  public enum Direction {
    /** From the client to the target. */
    UPSTREAM,
    /** From the target to the client. */
    DOWNSTREAM,
    /** Both ways. */
    BOTH;

    boolean covers(Direction d) {
      return this == BOTH || this == d;
    }
  }

  /** What a connection carries, as far as the proxy can tell from the client's first bytes. */
  public enum Kind { HTTP, WEBSOCKET }

  /** Counters since the proxy started. */
  public record Stats(long accepted, long active, long cuts, long cutCommands, long stalls, long refused,
      long bytesUp, long bytesDown, long webSockets) {
    @Override
    public String toString() {
      return "accepted=" + accepted + " active=" + active + " cuts=" + cuts + " (commands " + cutCommands + ")"
          + " stalls=" + stalls + " refused=" + refused + " webSockets=" + webSockets
          + " bytesUp=" + bytesUp + " bytesDown=" + bytesDown;
    }
  }

  private static final int EVENT_LOG_LIMIT = 500;

  private final String targetHost;
  // the target's ports in order of preference: a new connection goes to the first that accepts it
  private volatile List<Integer> targetPorts;
  private final ServerSocket listener;
  private final ExecutorService threads;
  private final String name;
  private final long startNanos = System.nanoTime();
  private final Set<Conn> conns = ConcurrentHashMap.newKeySet();
  private final AtomicInteger nextConnId = new AtomicInteger();
  private final Random commandRandom;
  private final long seed;

  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong cuts = new AtomicLong();
  private final AtomicLong cutCommands = new AtomicLong();
  private final AtomicLong stalls = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong bytesUp = new AtomicLong();
  private final AtomicLong bytesDown = new AtomicLong();
  private final AtomicLong webSockets = new AtomicLong();

  private volatile long latencyNanos;
  private volatile long bytesPerSecond;
  private volatile boolean refuseNew;
  private volatile boolean closed;

  // guarded by randomLock
  private final Object randomLock = new Object();
  private RandomRun random;

  private final ArrayDeque<String> events = new ArrayDeque<>();

  private FaultProxy(String targetHost, int targetPort, long seed, boolean daemon) throws IOException {
    this.targetHost = targetHost;
    this.targetPorts = List.of(targetPort);
    this.seed = seed;
    this.commandRandom = new Random(seed);
    this.listener = new ServerSocket();
    listener.setReuseAddress(true);
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
    this.name = "fault-proxy-" + listener.getLocalPort();
    AtomicInteger n = new AtomicInteger();
    ThreadFactory factory = r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(daemon);
      return t;
    };
    this.threads = Executors.newCachedThreadPool(factory);
    threads.execute(this::acceptLoop);
  }

  /**
   * Starts a proxy to {@code targetHost:targetPort} with daemon threads; its seed (for {@link #cutOne()} and
   * the random mode unless they are given one) comes from the clock and is printed.
   */
  public static FaultProxy start(String targetHost, int targetPort) throws IOException {
    return start(targetHost, targetPort, System.nanoTime(), true);
  }

  /**
   * Starts a proxy to {@code targetHost:targetPort}.
   *
   * @param seed the seed of the proxy's own random choices; printed, so a run can be replayed
   * @param daemon whether its threads are daemon threads ({@code false} proves that {@link #close()} ends them)
   */
  public static FaultProxy start(String targetHost, int targetPort, long seed, boolean daemon) throws IOException {
    FaultProxy p = new FaultProxy(targetHost, targetPort, seed, daemon);
    System.out.println(p.name + " -> " + targetHost + ":" + targetPort + " seed=" + seed);
    return p;
  }

  /** Returns the port the proxy listens on, on 127.0.0.1. */
  public int port() {
    return listener.getLocalPort();
  }

  /** Returns {@code http://127.0.0.1:<port>/v1}: an SDK {@code apiUrl} that goes through this proxy. */
  public String apiUrl() {
    return "http://127.0.0.1:" + port() + "/v1";
  }

  /**
   * Sends new connections to these ports of the target host from now on, each to the first port that accepts it
   * (a load balancer's failover, or a server restarted on another port); open connections are left as they are.
   */
  public void retarget(int... ports) {
    if (ports.length == 0) throw new IllegalArgumentException("no port");
    List<Integer> list = new ArrayList<>();
    for (int p : ports) list.add(p);
    targetPorts = List.copyOf(list);
    event("retarget " + list);
  }

  /** Returns the seed of the proxy's own random choices. */
  public long seed() {
    return seed;
  }

  /** Returns the prefix of the names of the threads the proxy starts. */
  public String threadNamePrefix() {
    return name + "-";
  }

  // ------------------------------------------------------------------------------------------ commands

  /** Cuts every open connection; returns how many it cut. */
  public int cutAll() {
    cutCommands.incrementAndGet();
    int n = 0;
    for (Conn c : sortedConns()) {
      if (c.cut("cutAll")) n++;
    }
    return n;
  }

  /** Cuts one open connection chosen with the proxy's seeded random; returns false if there was none. */
  public boolean cutOne() {
    Conn c;
    synchronized (commandRandom) {
      c = pick(commandRandom, null);
    }
    if (c == null) return false;
    cutCommands.incrementAndGet();
    return c.cut("cutOne");
  }

  /** Cuts the connection with this id (see {@link #connectionIds()}); returns false if it is not open. */
  public boolean cut(int connectionId) {
    for (Conn c : conns) {
      if (c.id == connectionId) {
        cutCommands.incrementAndGet();
        return c.cut("cut");
      }
    }
    return false;
  }

  /** Cuts every open WebSocket connection, leaving plain HTTP ones; returns how many it cut. */
  public int cutWebSockets() {
    cutCommands.incrementAndGet();
    int n = 0;
    for (Conn c : sortedConns()) {
      if (c.kind == Kind.WEBSOCKET && c.cut("cutWebSockets")) n++;
    }
    return n;
  }

  /**
   * Stalls every open connection in {@code direction} for {@code duration} (null: until {@link #resumeAll()});
   * connections accepted later are not stalled. Returns how many it stalled.
   */
  public int stallAll(Direction direction, Duration duration) {
    int n = 0;
    for (Conn c : sortedConns()) {
      c.stall(direction, duration, "stallAll");
      n++;
    }
    return n;
  }

  /** Stalls one open connection, chosen with the seeded random; returns its id, or -1 if none was open. */
  public int stallOne(Direction direction, Duration duration) {
    Conn c;
    synchronized (commandRandom) {
      c = pick(commandRandom, null);
    }
    if (c == null) return -1;
    c.stall(direction, duration, "stallOne");
    return c.id;
  }

  /** Ends every stall now. */
  public void resumeAll() {
    for (Conn c : conns) c.resume();
    event("resumeAll");
  }

  /**
   * Delays every forwarded chunk by {@code delay} (zero: none). Applies at once, also to open connections. Each
   * direction of a connection is one thread, so chunks queue behind each other: this also lowers throughput.
   */
  public void latency(Duration delay) {
    latencyNanos = delay.toNanos();
    event("latency " + delay.toMillis() + "ms");
  }

  /** Caps each direction of each connection at {@code bytesPerSecond} (0: no cap). */
  public void throttle(long bytesPerSecond) {
    if (bytesPerSecond < 0) throw new IllegalArgumentException("bytesPerSecond < 0");
    this.bytesPerSecond = bytesPerSecond;
    event("throttle " + bytesPerSecond + "B/s");
  }

  /** While true, every new connection is reset as soon as it is accepted (the target looks down). */
  public void refuseNew(boolean refuse) {
    this.refuseNew = refuse;
    event("refuseNew " + refuse);
  }

  /** Removes latency, throttling, refusals and stalls. */
  public void heal() {
    latencyNanos = 0;
    bytesPerSecond = 0;
    refuseNew = false;
    resumeAll();
  }

  /** Returns the ids of the open connections, ascending. */
  public List<Integer> connectionIds() {
    List<Integer> ids = new ArrayList<>();
    for (Conn c : sortedConns()) ids.add(c.id);
    return ids;
  }

  /** Returns the counters now. */
  public Stats stats() {
    return new Stats(accepted.get(), conns.size(), cuts.get(), cutCommands.get(), stalls.get(), refused.get(),
        bytesUp.get(), bytesDown.get(), webSockets.get());
  }

  /** Returns the latest faults and connection events (at most 500), oldest first, with times since start. */
  public List<String> events() {
    synchronized (events) {
      return new ArrayList<>(events);
    }
  }

  // ------------------------------------------------------------------------------------------ random mode

  /**
   * Starts injecting faults at random as {@code plan} says, on a thread of its own, until the plan's duration
   * has passed or {@link #stopRandom()}; then it ends every stall and stops by itself. Prints the seed.
   * Throws {@link IllegalStateException} if a random run is going on.
   */
  public void startRandom(RandomFaults plan) {
    synchronized (randomLock) {
      if (closed) throw new IllegalStateException("closed");
      if (random != null && !random.done) throw new IllegalStateException("a random run is going on");
      random = new RandomRun(plan);
      System.out.println(name + " random faults: " + plan);
      threads.execute(random);
    }
  }

  /** Stops the random mode (if running) and waits up to 5 s for its thread to finish. */
  public void stopRandom() {
    RandomRun r;
    synchronized (randomLock) {
      r = random;
      if (r == null) return;
      r.stopRequested = true;
      randomLock.notifyAll();
    }
    awaitRandomDone(Duration.ofSeconds(5));
  }

  /** Waits until the random mode has ended; returns false if it is still running after {@code timeout}. */
  public boolean awaitRandomDone(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (randomLock) {
      while (random != null && !random.done) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return false;
        try {
          TimeUnit.NANOSECONDS.timedWait(randomLock, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    }
  }

  /** Returns whether a random run is going on. */
  public boolean randomRunning() {
    synchronized (randomLock) {
      return random != null && !random.done;
    }
  }

  private final class RandomRun implements Runnable {
    final RandomFaults plan;
    final Random rnd;
    volatile boolean stopRequested;
    boolean done; // guarded by randomLock

    RandomRun(RandomFaults plan) {
      this.plan = plan;
      this.rnd = new Random(plan.seed());
    }

    @Override
    public void run() {
      long end = System.nanoTime() + plan.duration().toNanos();
      try {
        while (!closed && !stopRequested) {
          long gap = between(rnd, plan.minGap(), plan.maxGap()).toNanos();
          long wakeAt = Math.min(end, System.nanoTime() + gap);
          if (!sleepUntil(wakeAt)) break;
          if (System.nanoTime() >= end) break;
          double roll = rnd.nextDouble();
          if (roll < plan.stallChance()) {
            Direction d = Direction.values()[rnd.nextInt(3)];
            Duration length = between(rnd, plan.minStall(), plan.maxStall());
            Conn c = pick(rnd, null);
            if (c != null) c.stall(d, length, "random");
          } else if (roll < plan.stallChance() + plan.cutAllChance()) {
            cutCommands.incrementAndGet();
            for (Conn c : sortedConns()) c.cut("random cutAll");
          } else {
            Conn c = pick(rnd, null);
            if (c != null) {
              cutCommands.incrementAndGet();
              c.cut("random");
            }
          }
        }
      } finally {
        for (Conn c : conns) c.resume();
        event("random run ended");
        synchronized (randomLock) {
          done = true;
          randomLock.notifyAll();
        }
      }
    }

    /** Waits on the lock until {@code nanoTime}; false if stopped or interrupted first. */
    private boolean sleepUntil(long nanoTime) {
      synchronized (randomLock) {
        while (!stopRequested && !closed) {
          long left = nanoTime - System.nanoTime();
          if (left <= 0) return true;
          try {
            TimeUnit.NANOSECONDS.timedWait(randomLock, left);
          } catch (InterruptedException e) {
            return false;
          }
        }
        return false;
      }
    }
  }

  private static Duration between(Random rnd, Duration min, Duration max) {
    long lo = min.toNanos();
    long hi = max.toNanos();
    return Duration.ofNanos(hi <= lo ? lo : lo + (long) (rnd.nextDouble() * (hi - lo)));
  }

  // ------------------------------------------------------------------------------------------ lifecycle

  /**
   * Stops the random mode, stops accepting, resets every connection and waits (up to 5 s) for every thread the
   * proxy started to end. Idempotent.
   */
  @Override
  public void close() {
    synchronized (randomLock) {
      if (closed) return;
      closed = true;
      randomLock.notifyAll();
    }
    closeQuietly(listener);
    for (Conn c : conns) c.cut("close");
    threads.shutdownNow();
    try {
      if (!threads.awaitTermination(5, TimeUnit.SECONDS)) {
        System.out.println(name + ": threads still running 5 s after close()");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    event("closed " + stats());
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        if (!closed) event("accept failed: " + e);
        return;
      }
      accepted.incrementAndGet();
      if (refuseNew || closed) {
        refused.incrementAndGet();
        reset(client);
        continue;
      }
      Socket upstream = connectToTarget();
      if (upstream == null) {
        reset(client);
        continue;
      }
      try {
        client.setTcpNoDelay(true);
      } catch (IOException e) {
        reset(client);
        closeQuietly(upstream);
        continue;
      }
      Conn c = new Conn(nextConnId.incrementAndGet(), client, upstream);
      conns.add(c);
      if (closed) {
        c.cut("close");
        return;
      }
      try {
        threads.execute(() -> c.pump(Direction.UPSTREAM));
        threads.execute(() -> c.pump(Direction.DOWNSTREAM));
      } catch (RuntimeException rejected) { // closed meanwhile
        c.cut("close");
        return;
      }
    }
  }

  /** A connection to the first target port that accepts one, or null if none does. */
  private Socket connectToTarget() {
    for (int port : targetPorts) {
      Socket upstream = new Socket();
      try {
        upstream.setTcpNoDelay(true);
        upstream.connect(new InetSocketAddress(targetHost, port), 5000);
        return upstream;
      } catch (IOException e) {
        event("connect to target port " + port + " failed: " + e);
        closeQuietly(upstream);
      }
    }
    return null;
  }

  private List<Conn> sortedConns() {
    List<Conn> list = new ArrayList<>(conns);
    list.sort(Comparator.comparingInt(c -> c.id));
    return list;
  }

  private Conn pick(Random rnd, Kind kind) {
    List<Conn> list = sortedConns();
    if (kind != null) list.removeIf(c -> c.kind != kind);
    return list.isEmpty() ? null : list.get(rnd.nextInt(list.size()));
  }

  private void event(String what) {
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    synchronized (events) {
      if (events.size() == EVENT_LOG_LIMIT) events.removeFirst();
      events.addLast(String.format(Locale.ROOT, "%6d ms %s", ms, what));
    }
  }

  private static void reset(Socket s) {
    try {
      s.setSoLinger(true, 0);
    } catch (IOException ignored) {
      // already closed: a plain close will do
    }
    closeQuietly(s);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // closing anyway
    }
  }

  /** One proxied connection: the client's socket, the target's socket and the stall state of each direction. */
  private final class Conn {
    final int id;
    final Socket client;
    final Socket upstream;
    volatile Kind kind = Kind.HTTP;
    // guarded by this: System.nanoTime() until which a direction is stalled (Long.MAX_VALUE: until resumed)
    private long stalledUpUntil;
    private long stalledDownUntil;
    private boolean stalledUp;
    private boolean stalledDown;
    private boolean dead;
    private int pumpsDone;

    Conn(int id, Socket client, Socket upstream) {
      this.id = id;
      this.client = client;
      this.upstream = upstream;
    }

    /** Resets both sides; false if already dead. */
    boolean cut(String why) {
      synchronized (this) {
        if (dead) return false;
        dead = true;
        notifyAll();
      }
      reset(client);
      reset(upstream);
      conns.remove(this);
      if (!"close".equals(why)) {
        cuts.incrementAndGet();
        event("cut #" + id + " " + kind + " (" + why + ")");
      }
      return true;
    }

    void stall(Direction d, Duration duration, String why) {
      long until = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
      synchronized (this) {
        if (dead) return;
        if (d.covers(Direction.UPSTREAM)) {
          stalledUp = true;
          stalledUpUntil = until;
        }
        if (d.covers(Direction.DOWNSTREAM)) {
          stalledDown = true;
          stalledDownUntil = until;
        }
      }
      stalls.incrementAndGet();
      event("stall #" + id + " " + kind + " " + d + " for "
          + (duration == null ? "ever" : duration.toMillis() + "ms") + " (" + why + ")");
    }

    synchronized void resume() {
      stalledUp = false;
      stalledDown = false;
      notifyAll();
    }

    /** Waits while {@code d} is stalled; false if the connection died meanwhile. */
    private synchronized boolean awaitFlowing(Direction d) throws InterruptedException {
      while (!dead) {
        boolean stalled = d == Direction.UPSTREAM ? stalledUp : stalledDown;
        if (!stalled) return true;
        long left = (d == Direction.UPSTREAM ? stalledUpUntil : stalledDownUntil) - System.nanoTime();
        if (left <= 0) {
          if (d == Direction.UPSTREAM) stalledUp = false;
          else stalledDown = false;
          return true;
        }
        TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.SECONDS.toNanos(1)));
      }
      return false;
    }

    /** Waits {@code nanos} unless the connection dies first; false if it died. */
    private synchronized boolean pause(long nanos) throws InterruptedException {
      long until = System.nanoTime() + nanos;
      while (!dead) {
        long left = until - System.nanoTime();
        if (left <= 0) return true;
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return false;
    }

    void pump(Direction d) {
      Socket from = d == Direction.UPSTREAM ? client : upstream;
      Socket to = d == Direction.UPSTREAM ? upstream : client;
      AtomicLong counter = d == Direction.UPSTREAM ? bytesUp : bytesDown;
      byte[] buf = new byte[16 * 1024];
      boolean clean = false;
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        while (true) {
          if (!awaitFlowing(d)) return; // stalled: nothing is read, so the sender's buffers fill up
          int n = in.read(buf);
          if (n < 0) {
            clean = true;
            to.shutdownOutput(); // pass the FIN on; the other direction may still flow
            return;
          }
          if (d == Direction.UPSTREAM && kind == Kind.HTTP && isUpgrade(buf, n)) {
            kind = Kind.WEBSOCKET;
            webSockets.incrementAndGet();
          }
          if (!awaitFlowing(d)) return; // a stall that began during the read holds what was read
          long delay = latencyNanos;
          long bps = bytesPerSecond;
          if (bps > 0) delay += n * 1_000_000_000L / bps;
          if (delay > 0 && !pause(delay)) return;
          out.write(buf, 0, n);
          out.flush();
          counter.addAndGet(n);
        }
      } catch (IOException | InterruptedException e) {
        clean = false;
      } finally {
        boolean last;
        synchronized (this) {
          last = ++pumpsDone == 2;
        }
        if (!clean) {
          // an error on one side (or a cut, or close()) ends both directions
          synchronized (this) {
            dead = true;
            notifyAll();
          }
          closeQuietly(client);
          closeQuietly(upstream);
          conns.remove(this);
        } else if (last) {
          closeQuietly(client);
          closeQuietly(upstream);
          conns.remove(this);
        }
      }
    }
  }

  private static boolean isUpgrade(byte[] buf, int n) {
    if (n < 4 || buf[0] != 'G' || buf[1] != 'E' || buf[2] != 'T' || buf[3] != ' ') return false;
    String head = new String(buf, 0, Math.min(n, 4096), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    return head.contains("\r\nupgrade: websocket");
  }
}
