package dev.svc.chat.samples.desktop;

import dev.svc.chat.ChatClient;
import dev.svc.chat.FileCacheSettings;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.samples.session.ChatApp;
import dev.svc.chat.session.SessionStatus;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import java.io.File;
import java.io.IOException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The desktop client without its window: keeps its user's history in the SDK's SQLite store under a data
 * directory, signs in to the tenant backend, lets the session manager fetch the session and connect, and feeds
 * the {@link ChatModel} through the {@link ChatController}. The window ({@link ChatWindow}) renders the model;
 * tests drive this class headlessly.
 *
 * <p>Offline start: the session manager makes its client only once it fetched a session, which needs the
 * backend and the service. So when this user ran here before ({@link LastSession}), {@link #start()} first opens
 * a client of its own on the store, shown at once (rooms, badges, the open room's messages) while it tries to
 * connect; the session manager's client replaces it once a session is fetched. Nothing of it blocks on the
 * network but the backend's login, retried in the background while the backend is out of reach.
 */
public final class DesktopApp implements AutoCloseable {
  private static final long SIGN_IN_RETRY_SECONDS = 5;

  private final String user;
  private final String backendUrl;
  private final Executor callbackExecutor;
  private final SqliteChatStore store;
  private final LastSession lastSession;
  /** The thumbnails' disk cache, the user's own, so that images show offline too. */
  private final FileCacheSettings thumbnails;
  private final ChatModel model;
  private final ChatController controller;
  private final ChatApp app;
  private final ScheduledExecutorService signIn = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "desktop-sign-in");
    t.setDaemon(true);
    return t;
  });

  // guarded by this
  private ChatClient storeClient;
  private boolean closed;

  /**
   * Creates the app.
   *
   * @param backendUrl the tenant backend, with its {@code /login} and {@code /api/chat/session}; null to show the
   *     store only
   * @param user who signs in
   * @param callbackExecutor where every callback runs: {@code SwingUtilities::invokeLater} in the window, or
   *     null for the SDK's own thread
   * @param dataDir the app's own directory: the store's databases and {@link LastSession}
   */
  public DesktopApp(String backendUrl, String user, Executor callbackExecutor, File dataDir) {
    this.user = user;
    this.backendUrl = backendUrl;
    this.callbackExecutor = callbackExecutor;
    this.store = SqliteChatStore.provider(new File(dataDir, "store"));
    this.lastSession = new LastSession(new File(dataDir, "last-session.properties"));
    this.thumbnails = FileCacheSettings.builder(new File(new File(dataDir, "thumbnails"), user)).build();
    this.model = new ChatModel(user);
    this.controller = new ChatController(model);
    this.app = backendUrl == null ? null : new ChatApp(backendUrl, callbackExecutor, this::createClient,
        controller::onSession);
  }

  /** Returns the default data directory, {@code ~/.svc-chat-desktop}. */
  public static File defaultDataDir() {
    return new File(System.getProperty("user.home"), ".svc-chat-desktop");
  }

  /**
   * Shows the store of this user's last run at once, if any, then signs in and starts the session (it connects
   * in the background); a backend out of reach is tried again every few seconds.
   *
   * @throws IOException if the backend refused the login, or is out of reach on a first run
   */
  public void start() throws IOException {
    String apiUrl = lastSession.apiUrl(user);
    if (apiUrl != null) openStoreClient(apiUrl);
    if (app == null) {
      model.session(SessionStatus.OFFLINE, new IOException("no backend: the offline store only"));
      return;
    }
    try {
      app.signIn(user);
    } catch (IOException e) {
      if (apiUrl == null) throw e;
      model.session(SessionStatus.OFFLINE, new IOException("the backend is out of reach", e));
      signIn.schedule(this::retrySignIn, SIGN_IN_RETRY_SECONDS, TimeUnit.SECONDS);
      return;
    }
    app.sessions().start();
  }

  private void retrySignIn() {
    try {
      app.signIn(user);
      app.sessions().start();
    } catch (IOException e) {
      signIn.schedule(this::retrySignIn, SIGN_IN_RETRY_SECONDS, TimeUnit.SECONDS);
    } catch (IllegalStateException closedMeanwhile) {
      // the app closed the session manager
    }
  }

  private synchronized void openStoreClient(String apiUrl) {
    if (closed) return;
    storeClient = Svc.init(options(SvcOptions.builder(apiUrl)));
    controller.attach(storeClient);
    // no token survives a restart (tokens are never written to disk): the store is served without one, and the
    // session manager's client connects once the backend gave a session
    storeClient.openOffline(user);
  }

  /** The session manager's client factory: the manager's options with the store, after the store-only client. */
  private ChatClient createClient(SvcOptions o) {
    synchronized (this) {
      if (storeClient != null) {
        controller.release(storeClient);
        storeClient.close(); // one client per store: it waits for its last writes
        storeClient = null;
      }
    }
    SvcOptions.Builder b = SvcOptions.builder(o.apiUrl()).logger(o.logger());
    if (o.tokenRefresher() != null) b.tokenRefresher(o.tokenRefresher());
    if (o.okHttpClient() != null) b.okHttpClient(o.okHttpClient());
    ChatClient c = Svc.init(options(b));
    lastSession.remember(user, o.apiUrl());
    return c;
  }

  private SvcOptions options(SvcOptions.Builder b) {
    if (callbackExecutor != null) b.callbackExecutor(callbackExecutor);
    return b.store(store).fileCache(thumbnails).build();
  }

  /** Returns the model. */
  public ChatModel model() {
    return model;
  }

  /** Returns the controller. */
  public ChatController controller() {
    return controller;
  }

  /** Returns the backend this app signs in to, or null when it shows the store only. */
  public String backendUrl() {
    return backendUrl;
  }

  @Override
  public void close() {
    signIn.shutdownNow();
    controller.close();
    if (app != null) app.close();
    ChatClient c;
    synchronized (this) {
      closed = true;
      c = storeClient;
      storeClient = null;
    }
    if (c != null) c.close();
  }
}
