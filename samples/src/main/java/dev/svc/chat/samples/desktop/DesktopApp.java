package dev.svc.chat.samples.desktop;

import dev.svc.chat.samples.session.ChatApp;
import java.io.IOException;
import java.util.concurrent.Executor;

/**
 * The desktop client without its window: signs in to the tenant backend, lets the session manager fetch the
 * session and connect, and feeds the {@link ChatModel} through the {@link ChatController}. The window
 * ({@link ChatWindow}) renders the model; tests drive this class headlessly.
 */
public final class DesktopApp implements AutoCloseable {
  private final String user;
  private final ChatModel model;
  private final ChatController controller;
  private final ChatApp app;

  /**
   * Creates the app.
   *
   * @param backendUrl the tenant backend, with its {@code /login} and {@code /api/chat/session}
   * @param user who signs in
   * @param callbackExecutor where every callback runs: {@code SwingUtilities::invokeLater} in the window, or
   *     null for the SDK's own thread
   */
  public DesktopApp(String backendUrl, String user, Executor callbackExecutor) {
    this.user = user;
    this.model = new ChatModel(user);
    this.controller = new ChatController(model);
    this.app = new ChatApp(backendUrl, callbackExecutor, controller::onSession);
  }

  /** Signs in and starts the session (it connects in the background). */
  public void start() throws IOException {
    app.signIn(user);
    app.sessions().start();
  }

  /** Returns the model. */
  public ChatModel model() {
    return model;
  }

  /** Returns the controller. */
  public ChatController controller() {
    return controller;
  }

  @Override
  public void close() {
    controller.close();
    app.close();
  }
}
