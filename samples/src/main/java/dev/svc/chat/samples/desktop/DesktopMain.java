package dev.svc.chat.samples.desktop;

import dev.svc.chat.samples.ServiceTarget;
import dev.svc.chat.samples.session.TenantBackendServer;
import dev.svc.chat.server.ServerClient;
import java.awt.Graphics2D;
import java.awt.GraphicsEnvironment;
import java.awt.RenderingHints;
import java.awt.event.WindowAdapter;
import java.awt.event.WindowEvent;
import java.awt.image.BufferedImage;
import java.io.File;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import javax.imageio.ImageIO;
import javax.swing.JComponent;
import javax.swing.SwingUtilities;
import javax.swing.UIManager;

/**
 * Starts the desktop client: {@code java -jar samples/target/svc-chat-desktop.jar}.
 *
 * <p>By default it starts everything it needs in this JVM: the reference server, the tenant backend (its
 * login and {@code /api/chat/session}), and the people alice chats with ({@link Conversation}: bob, carol and
 * the bot); then the window signs in as alice through the backend, and the conversation plays. Type to chat;
 * bob answers. Options:
 *
 * <ul>
 *   <li>{@code --api-url URL}: a running reference server instead of the embedded one (its API key in
 *       {@code SVC_API_KEY}); the tenant backend and the conversation still run here.
 *   <li>{@code --backend-url URL [--user ID]}: only the window, signed in to a running tenant backend (such as
 *       {@code TenantBackendServer}).
 *   <li>{@code --screenshot FILE}: waits until the conversation is on screen, writes the window as a PNG, and
 *       exits ({@code docs/screenshot.sh} runs it under Xvfb).
 * </ul>
 */
public final class DesktopMain {
  private DesktopMain() {}

  public static void main(String[] args) throws Exception {
    String apiUrl = null;
    String backendUrl = null;
    String user = Conversation.ME;
    File screenshot = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--api-url" -> apiUrl = args[++i];
        case "--backend-url" -> backendUrl = args[++i];
        case "--user" -> user = args[++i];
        case "--screenshot" -> screenshot = new File(args[++i]);
        default -> usage();
      }
    }
    if (GraphicsEnvironment.isHeadless()) {
      System.err.println("no display: run this on a desktop, or under Xvfb as docs/screenshot.sh does");
      System.exit(2);
    }
    // the embedded conversation is alice's; another user needs a backend of one's own
    if (backendUrl != null ? apiUrl != null : !user.equals(Conversation.ME)) usage();

    ServiceTarget target = null;
    TenantBackendServer backend = null;
    Conversation conversation = null;
    DesktopApp app = null;
    try {
      if (backendUrl == null) {
        target = ServiceTarget.start(apiUrl);
        ServerClient svc = target.serverClient();
        backend = new TenantBackendServer(svc).start(0);
        backendUrl = backend.url();
        System.out.println("tenant backend: " + backendUrl);
        conversation = Conversation.start(svc);
      }
      app = new DesktopApp(backendUrl, user, SwingUtilities::invokeLater); // every SDK callback on the EDT
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
      System.out.println("signed in as " + user + " at " + backendUrl);
      if (conversation != null) conversation.play(app.controller(), screenshot != null ? 0 : 900);
      if (screenshot != null) {
        capture(window.get(), screenshot);
        System.out.println("wrote " + screenshot);
        SwingUtilities.invokeAndWait(() -> window.get().frame().dispose());
        return;
      }
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

  /** Paints the window's content into a PNG once the EDT rendered the last change. */
  private static void capture(ChatWindow window, File file) throws Exception {
    AtomicReference<BufferedImage> image = new AtomicReference<>();
    SwingUtilities.invokeAndWait(() -> { }); // the model's last renders are queued before this
    SwingUtilities.invokeAndWait(() -> {
      window.render();
      JComponent root = window.frame().getRootPane();
      root.doLayout();
      BufferedImage img = new BufferedImage(root.getWidth(), root.getHeight(), BufferedImage.TYPE_INT_RGB);
      Graphics2D g = img.createGraphics();
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      root.printAll(g);
      g.dispose();
      image.set(img);
    });
    File dir = file.getAbsoluteFile().getParentFile();
    if (dir != null) dir.mkdirs();
    if (!ImageIO.write(image.get(), "png", file)) throw new IllegalStateException("no PNG writer");
  }

  private static void usage() {
    System.err.println("usage: java -jar svc-chat-desktop.jar [--api-url URL (API key in SVC_API_KEY)]"
        + " [--backend-url URL [--user ID]] [--screenshot FILE]");
    System.exit(2);
  }
}
