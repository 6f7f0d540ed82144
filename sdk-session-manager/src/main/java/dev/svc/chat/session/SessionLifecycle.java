package dev.svc.chat.session;

import java.util.concurrent.CompletableFuture;

import dev.svc.chat.ApiException;
import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.ConnectionStateChange;
import dev.svc.chat.LogLevel;
import dev.svc.chat.TransportException;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link SessionManager} does, behind its public methods and options: the runs ({@code start} to
 * {@code stop}, or to an error), the session held, the single flight of fetches and what a fetched session
 * does (the run's connect, or a token handed over), the client's connection followed
 * ({@link ConnectionVerdict}), the refresh and retry timer ({@link RefreshTimer}) and the status
 * ({@link StatusBoard}). Its state is guarded by this object's lock; calls on the client are queued under it
 * and run outside it ({@link SessionClient#drain()}), in the order they were decided.
 */
final class SessionLifecycle {
  private final SessionFetcher fetcher;
  private final SessionLog log;

  // guarded by this
  private final StatusBoard board;
  private final RefreshTimer timer;
  private final SessionClient client;
  private @Nullable Session session;
  private boolean started;
  private boolean closed;
  /**
   * Bumped by start, stop and error: a timer or a connect answer of an earlier run is ignored. A fetch is not
   * tied to a run: it serves whichever run is started when it completes, and connects nothing when none is.
   */
  private int generation;
  private @Nullable CompletableFuture<String> refreshInFlight;
  /** The run that called connect: later sessions of that run are refreshes, given by updateToken. */
  private int connectedRun = -1;

  SessionLifecycle(SessionFetcher fetcher, SessionScheduler scheduler, long refreshLeadMillis, StatusBoard board,
      SessionClient client, SessionLog log) {
    this.fetcher = fetcher;
    this.log = log;
    this.board = board;
    this.client = client;
    this.timer = new RefreshTimer(scheduler, new RefreshPolicy(refreshLeadMillis), this::onTimer);
  }

  /** See {@link SessionManager#state()}. */
  synchronized SessionState state() {
    return board.snapshot(client.get(), session);
  }

  /** See {@link SessionManager#start()}. */
  void start() {
    boolean fetch;
    synchronized (this) {
      if (closed) throw new IllegalStateException("the session manager is closed");
      if (started) return;
      started = true;
      generation++;
      timer.resetRetries();
      setStatus(SessionStatus.LOADING, null);
      Session s = session;
      fetch = s == null || client.get() == null || timer.tooCloseToExpiry(s);
      if (!fetch) connect(s);
    }
    client.drain();
    if (fetch) refresh();
  }

  /** See {@link SessionManager#stop()}. */
  void stop() {
    synchronized (this) {
      if (!started) {
        if (board.status() == SessionStatus.ERROR) setStatus(SessionStatus.IDLE, null);
        return;
      }
      started = false;
      generation++;
      timer.cancel();
      setStatus(SessionStatus.IDLE, null);
      client.disconnect();
    }
    client.drain();
  }

  /** Marks the lifecycle closed after {@link #stop()}; returns false when it already was. */
  synchronized boolean close() {
    if (closed) return false;
    closed = true;
    return true;
  }

  /** See {@link SessionManager#networkLost()}. */
  synchronized void networkLost() {
    if (!started || board.status() == SessionStatus.OFFLINE) return;
    setStatus(SessionStatus.OFFLINE, new TransportException("the device has no network"));
  }

  /** See {@link SessionManager#networkAvailable()}. */
  void networkAvailable() {
    boolean fetchNow;
    synchronized (this) {
      if (!started) return;
      ChatClient c = client.get();
      if (board.status() == SessionStatus.OFFLINE && c != null && c.state() == ConnectionState.CONNECTED) {
        onConnected();
        return;
      }
      fetchNow = timer.waitingToRetry() && refreshInFlight == null;
      if (fetchNow) timer.cancel();
      client.reconnectNow();
    }
    if (fetchNow) refresh();
    client.drain();
  }

  /** See {@link SessionManager#refresh()}; also the client's {@link dev.svc.chat.TokenRefresher}. */
  CompletableFuture<String> refresh() {
    final CompletableFuture<String> result;
    synchronized (this) {
      if (!started) {
        CompletableFuture<String> f = new CompletableFuture<>();
        f.completeExceptionally(new ChatStateException("the session manager is not started"));
        return f;
      }
      if (refreshInFlight != null) return refreshInFlight;
      result = new CompletableFuture<>();
      refreshInFlight = result;
      timer.cancel();
    }
    SessionLog.fetch(fetcher).whenComplete((s, e) -> {
      onFetched(result, s, e);
      client.drain();
    });
    return result;
  }

  private void onTimer(int g) {
    synchronized (this) {
      if (g != generation || !started) return;
      timer.fired();
    }
    refresh();
  }

  /** A fetch completed: answers the refresh's future, without the lock (its dependents are the client's). */
  private void onFetched(CompletableFuture<String> result, @Nullable Session s, @Nullable Throwable e) {
    Throwable failure = applyFetched(result, s, SessionLog.cause(e));
    if (failure == null) {
      result.complete(s.token());
    } else {
      result.completeExceptionally(failure);
    }
  }

  /**
   * Keeps the fetched session and, if a run is started, connects with it (the run's first session) or hands
   * its token to the client (a refresh). Returns why the fetch failed the refresh, or null.
   */
  private synchronized @Nullable Throwable applyFetched(CompletableFuture<String> result, @Nullable Session s,
      @Nullable Throwable e) {
    if (refreshInFlight == result) refreshInFlight = null;
    if (e == null && s == null) e = new IllegalStateException("the session fetcher gave no session");
    if (e == null) e = s.cannotFollow(session);
    if (!started) {
      // stopped meanwhile: keep a good session for the next start(); connect nothing
      if (e == null && client.get() != null) session = s;
      return new ChatStateException("the session manager was stopped");
    }
    if (e == null && client.get() == null) {
      try {
        client.create(s.apiUrl(), this::refresh, this::onClientState);
      } catch (RuntimeException bad) {
        e = bad;
      }
    }
    if (e != null) {
      if (FetchFailures.endsSession(e)) {
        fail(e); // not signed in, or an answer no retry will fix
      } else {
        retryLater(e); // the network, or the tenant's backend failing (5xx, 408, 429)
      }
      return e;
    }
    session = s;
    if (connectedRun == generation) {
      client.updateToken(s); // a refresh: the client's credentials take it; connect only starts a run
      scheduleRefresh(); // for the new token; the client follows its connection by itself
    } else {
      connect(s);
    }
    return null;
  }

  // ---------------------------------------------------------------- guarded by this

  /** Queues the connect with {@code s}'s token; its answer counts only for this run and this session. */
  private void connect(final Session s) {
    final int g = generation;
    connectedRun = g;
    client.connect(s, e -> onConnectResult(g, s, SessionLog.cause(e)));
  }

  private synchronized void onConnectResult(int g, Session s, @Nullable Throwable e) {
    if (g != generation || !started || s != session) return;
    if (e == null) {
      onConnected();
    } else if (e instanceof ApiException && !((ApiException) e).isTokenExpired()) {
      fail(e); // unauthorized: an invalid token is not retried
    } else if (!(e instanceof ApiException) && !(e instanceof ChatStateException)) {
      // the network: the client keeps reconnecting by itself; keep the refresh timer for this token
      if (board.status() != SessionStatus.OFFLINE) setStatus(SessionStatus.OFFLINE, e);
      scheduleRefresh();
    }
    // token_expired is handled by the client, which asks refresh() through its TokenRefresher
  }

  private void onConnected() {
    timer.resetRetries();
    if (board.status() != SessionStatus.READY) setStatus(SessionStatus.READY, null);
    scheduleRefresh();
  }

  /** Follows the client's connection (reported on the client's callback executor). */
  private synchronized void onClientState(ConnectionStateChange change) {
    if (!started) return;
    switch (ConnectionVerdict.of(change, board.status())) {
      case READY:
        onConnected();
        break;
      case OFFLINE:
        setStatus(SessionStatus.OFFLINE, change.cause());
        break;
      case FAILED:
        fail(ConnectionVerdict.failure(change));
        break;
      default:
        break;
    }
  }

  private void scheduleRefresh() {
    Session s = session;
    if (s == null || refreshInFlight != null) return;
    long delay = timer.refreshBeforeExpiry(s, generation);
    if (delay >= 0) log.log(LogLevel.DEBUG, "refreshing the session token in " + delay + " ms", null);
  }

  private void retryLater(Throwable e) {
    ChatClient c = client.get();
    boolean connected = c != null && c.state() == ConnectionState.CONNECTED;
    if (!connected && board.status() != SessionStatus.OFFLINE) setStatus(SessionStatus.OFFLINE, e);
    long delay = timer.retryLater(session, generation);
    log.log(LogLevel.INFO, "fetching the session failed (" + e.getClass().getSimpleName() + "); retrying in " + delay
        + " ms", null);
  }

  /** Goes ERROR and disconnects; the caller drains the client's calls once it let go of the lock. */
  private void fail(Throwable e) {
    log.log(LogLevel.WARN, "the session failed: " + e.getMessage(), null);
    started = false;
    generation++;
    timer.cancel();
    setStatus(SessionStatus.ERROR, e);
    client.disconnect();
  }

  private void setStatus(SessionStatus next, @Nullable Throwable cause) {
    board.set(next, cause, client.get(), session);
  }
}
