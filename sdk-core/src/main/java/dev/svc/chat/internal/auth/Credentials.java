package dev.svc.chat.internal.auth;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

import dev.svc.chat.ChatStateException;
import dev.svc.chat.TokenRefresher;
import dev.svc.chat.internal.util.Inputs;
import dev.svc.chat.internal.util.Log;

/**
 * The credentials of one client, and their only owner: the user it is signed in as, the current session
 * token, and the single flight of refreshes through the app's {@link TokenRefresher}.
 *
 * <p>A token comes in three ways, all here: {@link #signIn} (the app's {@code connect}), {@link #update} (the
 * app's {@code updateToken}, which the session manager calls for its refresh before expiry) and the answer of
 * a {@link #refresh} (a REST {@code 401 token_expired}, or the gateway's {@code token_expired}). REST reads
 * {@link #token()} for every call; the realtime engine follows {@link Listener#tokenChanged}, which moves an
 * open connection to the new token (make before break) and leaves a disconnected one disconnected.
 *
 * <p>One client, one user: the first {@link #signIn} binds the user for the client's life, and a sign-in as
 * another user is refused. That is the one place a user switch is decided; nothing user-scoped (joined room,
 * recovery ledgers, outbox, pending acknowledgements) can then carry over from one user to another.
 *
 * <p>Thread-safe. The listener (and a sign-in's connect) is called under this object's lock, in the order of
 * the changes, so it must only post (the engine posts to its actor).
 *
 * <p>The refresher runs on the client's own threads ({@code ClientThreads.refreshes()}), never on the app's
 * callback executor nor the engine's actor: a handler may block on a future of its own client that waits for
 * this refresh, and the refresher itself may block.
 */
public final class Credentials {
  /** Follows the token. */
  public interface Listener {
    /** The current token changed by an update or a refresh (not by a sign-in, which connects by itself). */
    void tokenChanged(String token);
  }

  private final TokenRefresher refresher;
  /** Runs the refresher: threads of the SDK, never the app's callback executor (see the class comment). */
  private final Executor refreshThreads;
  private final Log log;

  // guarded by this
  private Listener listener;
  private String userId;
  private String token;
  private CompletableFuture<String> inFlight;
  private boolean closed;

  /**
   * Creates the credentials of a client; {@code refresher} is the app's, or null without one, and
   * {@code refreshThreads} runs it.
   */
  public Credentials(TokenRefresher refresher, Executor refreshThreads, Log log) {
    this.refresher = refresher;
    this.refreshThreads = refreshThreads;
    this.log = log;
  }

  /** Sets the one listener of token changes (the composition root, once). */
  public synchronized void listen(Listener listener) {
    this.listener = listener;
  }

  /** Returns the user signed in, or null before the first sign-in. */
  public synchronized String userId() {
    return userId;
  }

  /** Returns the current token, or null before the first sign-in. Never log it. */
  public synchronized String token() {
    return token;
  }

  /** Returns whether an expired token can be refreshed: the app gave a {@link TokenRefresher}. */
  public boolean refreshes() {
    return refresher != null;
  }

  /**
   * Signs in as {@code userId} with {@code token} (binding the user on the first call) and runs
   * {@code connect} with the token, under the lock: its post to the engine is then ordered with the
   * listener's, so the engine's last token is always the current one. Listeners are not told.
   *
   * @return what {@code connect} returned
   * @throws ChatStateException when the client is signed in as another user, or closed
   */
  public synchronized <T> T signIn(String userId, String token, Function<String, T> connect) {
    checkUser(userId);
    this.userId = userId;
    this.token = token;
    return connect.apply(token);
  }

  /**
   * Binds the client to {@code userId} without a token (an offline start): REST calls stay refused until a
   * {@link #signIn} gives one.
   *
   * @throws ChatStateException when closed, or bound to another user
   */
  public synchronized void bindUser(String userId) {
    checkUser(userId);
    this.userId = userId;
  }

  /**
   * Checks that the client may sign in as {@code userId}: it is not closed, and not signed in as another user.
   *
   * @throws ChatStateException when it may not
   */
  public synchronized void checkUser(String userId) {
    if (closed) throw new ChatStateException("the client is closed");
    if (this.userId != null && !this.userId.equals(userId)) {
      throw new ChatStateException("this client is signed in as " + this.userId + "; a client serves one user: "
          + "close it and create a new client to connect as " + userId);
    }
  }

  /**
   * Replaces the token of the signed-in user (a refresh the app made itself) and tells the listener.
   *
   * @throws ChatStateException before the first sign-in, or when closed
   */
  public synchronized void update(String token) {
    if (closed) throw new ChatStateException("the client is closed");
    if (userId == null) throw new ChatStateException("call connect(userId, token) before updateToken(token)");
    adopt(token);
  }

  /**
   * Returns a future of a token newer than {@code expiredToken}: the current one if it already is newer, the
   * refresh under way if there is one, else a new refresh through the {@link TokenRefresher}, run on the
   * refresh threads (never on the app's callback executor, the engine's actor or an OkHttp thread). Its answer
   * becomes the current token before the future completes. Fails at once without a refresher, or when closed.
   */
  public CompletableFuture<String> refresh(String expiredToken) {
    final CompletableFuture<String> result;
    synchronized (this) {
      if (closed || refresher == null) {
        CompletableFuture<String> f = new CompletableFuture<>();
        f.completeExceptionally(new ChatStateException(closed ? "the client is closed" : "no TokenRefresher"));
        return f;
      }
      if (token != null && !token.equals(expiredToken)) return CompletableFuture.completedFuture(token);
      if (inFlight != null) return inFlight;
      result = new CompletableFuture<>();
      inFlight = result;
    }
    log.info("the session token has expired; refreshing it");
    try {
      refreshThreads.execute(() -> {
        CompletableFuture<String> fetched;
        try {
          fetched = refresher.refreshToken();
          if (fetched == null) throw new NullPointerException("the TokenRefresher returned a null future");
        } catch (RuntimeException e) {
          finish(result, null, e);
          return;
        }
        fetched.whenComplete((fresh, error) -> finish(result, fresh, error));
      });
    } catch (RejectedExecutionException e) {
      finish(result, null, e);
    }
    return result;
  }

  /** Ends the credentials with the client: refreshes fail from now on, and no listener is told. */
  public synchronized void close() {
    closed = true;
  }

  private void finish(CompletableFuture<String> result, String fresh, Throwable error) {
    if (error == null) {
      try {
        Inputs.sessionToken(fresh);
      } catch (RuntimeException bad) {
        error = new ChatStateException("the TokenRefresher gave no usable session token"); // a refusal
      }
    }
    synchronized (this) {
      if (inFlight == result) inFlight = null;
      if (error == null && !closed) adopt(fresh);
    }
    if (error == null) {
      result.complete(fresh);
    } else {
      log.warn("refreshing the session token failed", error);
      result.completeExceptionally(error);
    }
  }

  /** Makes {@code fresh} the current token and tells the listener if it changed; under the lock. */
  private void adopt(String fresh) {
    if (fresh.equals(token)) return;
    token = fresh;
    if (listener != null && !closed) listener.tokenChanged(fresh);
  }
}
