package dev.svc.chat.samples.desktop;

import dev.svc.chat.samples.ServiceTarget;
import dev.svc.chat.samples.session.TenantBackendServer;
import dev.svc.chat.server.ServerClient;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import java.awt.GraphicsEnvironment;
import java.awt.event.WindowAdapter;
import java.awt.event.WindowEvent;
import java.io.File;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import javax.swing.SwingUtilities;
import javax.swing.UIManager;

/**
 * Starts the desktop client: {@code java -jar samples/target/svc-chat-desktop.jar}.
 *
 * <p>By default it starts everything it needs in this JVM: the reference server, the tenant backend (its
 * login and {@code /api/chat/session}), and the people alice chats with ({@link Conversation}: bob, carol and
 * the bot); then the window signs in as alice through the backend, and the conversation plays. Type to chat;
 * bob answers. The history is kept in the SDK's SQLite store under the data directory; the embedded server
 * starts a new world each time, so that mode starts from an empty store. Options:
 *
 * <ul>
 *   <li>{@code --data-dir DIR}: the store's directory, {@code ~/.svc-chat-desktop} by default.
 *   <li>{@code --offline}: only the window, on the store of the last run, with no server and no backend: the
 *       rooms, badges and messages of the last run, and the connection state trying to reach its server.
 *   <li>{@code --api-url URL}: a running reference server instead of the embedded one (its API key in
 *       {@code SVC_API_KEY}); the tenant backend and the conversation still run here.
 *   <li>{@code --backend-url URL [--user ID]}: only the window, signed in to a running tenant backend (such as
 *       {@code TenantBackendServer}).
 *   <li>{@code --screenshot FILE}: plays the conversation, stops the server, starts the client again from its
 *       store and writes its window as a PNG ({@link Screenshot}; no display needed), and exits.
 * </ul>
 */
public final class DesktopMain {
  private DesktopMain() {}

  public static void main(String[] args) throws Exception {
    String apiUrl = null;
    String backendUrl = null;
    String user = Conversation.ME;
    File screenshot = null;
    File dataDir = DesktopApp.defaultDataDir();
    boolean offline = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--api-url" -> apiUrl = args[++i];
        case "--backend-url" -> backendUrl = args[++i];
        case "--user" -> user = args[++i];
        case "--data-dir" -> dataDir = new File(args[++i]);
        case "--offline" -> offline = true;
        case "--screenshot" -> screenshot = new File(args[++i]);
        default -> usage();
      }
    }
    if (screenshot != null) {
      Screenshot.write(screenshot);
      System.out.println("wrote " + screenshot);
      System.exit(0);
    }
    if (GraphicsEnvironment.isHeadless()) {
      System.err.println("no display: run this on a desktop");
      System.exit(2);
    }
    // the embedded conversation is alice's; another user needs a backend of one's own
    if (offline ? apiUrl != null || backendUrl != null
        : backendUrl != null ? apiUrl != null : !user.equals(Conversation.ME)) {
      usage();
    }

    ServiceTarget target = null;
    TenantBackendServer backend = null;
    Conversation conversation = null;
    DesktopApp app = null;
    try {
      if (backendUrl == null && !offline) {
        target = ServiceTarget.start(apiUrl);
        // the embedded server's world is new: the last run's history is of a world that is gone
        if (target.embedded()) SqliteChatStore.provider(new File(dataDir, "store")).delete(user);
        ServerClient svc = target.serverClient();
        backend = new TenantBackendServer(svc).start(0);
        backendUrl = backend.url();
        System.out.println("tenant backend: " + backendUrl);
        conversation = Conversation.start(svc);
      }
      // every SDK callback on the EDT
      app = new DesktopApp(backendUrl, user, SwingUtilities::invokeLater, dataDir);
      CountDownLatch closed = new CountDownLatch(1);
      AtomicReference<ChatWindow> window = new AtomicReference<>();
      DesktopApp started = app;
      SwingUtilities.invokeAndWait(() -> {
        try {
          UIManager.put("swing.boldMetal", Boolean.FALSE);
        } catch (RuntimeException ignored) {
          // the look and feel's default then
        }
        ChatWindow w = new ChatWindow(started.controller());
        w.frame().addWindowListener(new WindowAdapter() {
          @Override
          public void windowClosed(WindowEvent e) {
            closed.countDown();
          }
        });
        w.frame().setLocationRelativeTo(null);
        w.frame().setVisible(true);
        window.set(w);
      });
      app.start();
      System.out.println(offline ? "showing the store of " + user + " in " + dataDir
          : "signing in as " + user + " at " + backendUrl);
      if (conversation != null) conversation.play(app.controller(), 900);
      if (conversation != null) conversation.keepChatting(2_400);
      closed.await();
    } finally {
      if (app != null) app.close();
      if (conversation != null) conversation.close();
      if (backend != null) backend.close();
      if (target != null) target.close();
    }
    System.exit(0); // the window's toolkit threads would keep the JVM alive
  }

  private static void usage() {
    System.err.println("usage: java -jar svc-chat-desktop.jar [--data-dir DIR] [--api-url URL (API key in"
        + " SVC_API_KEY) | --backend-url URL [--user ID] | --offline [--user ID]] | --screenshot FILE");
    System.exit(2);
  }
}
