package dev.svc.chat.samples.desktop;

import dev.svc.chat.ConnectionState;
import dev.svc.chat.samples.ServiceTarget;
import dev.svc.chat.samples.session.TenantBackendServer;
import java.awt.Component;
import java.awt.Container;
import java.awt.Dimension;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import javax.swing.JPanel;
import javax.swing.SwingUtilities;

/**
 * Writes {@code docs/desktop-client.png} without a display: yesterday's run (the embedded server, the tenant
 * backend and the scripted {@link Conversation}) fills a store in a temporary directory; then the server stops,
 * the client starts again from that store alone, and its window's content, painted offscreen, shows the rooms
 * with their unread and mention badges, the open room's messages, a search's results from the store and a thread
 * in the side panels, with the status bar saying the client is offline.
 */
final class Screenshot {
  private Screenshot() {}

  static void write(File file) throws Exception {
    Path dataDir = Files.createTempDirectory("svc-chat-desktop");
    try {
      yesterday(dataDir.toFile());
      try (DesktopApp app = new DesktopApp(null, Conversation.ME, SwingUtilities::invokeLater, dataDir.toFile())) {
        app.start();
        ChatModel model = app.model();
        Conversation.await("the rooms and messages from the store", () -> model.roomList().fromStore()
            && model.roomRows().size() == 3 && model.historyFromStore() && model.messageRows().size() == 9
            && model.connectionState() != ConnectionState.CONNECTED); // the store alone: openOffline tries no server
        ChatModel.MessageRow root = model.messageRows().stream().filter(r -> r.replies() > 0).findFirst().orElseThrow();
        app.controller().openThread(model.message(root.id())); // its replies from the store, offline
        Conversation.await("the thread panel", () -> model.threadRows().size() == 2);
        // offline: the store answers, "from this device (offline)"
        app.controller().search().search("mockups").get(10, TimeUnit.SECONDS);
        paint(app.controller(), file);
      }
    } finally {
      try (Stream<Path> files = Files.walk(dataDir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Runs the conversation with a store in {@code dataDir}, then stops everything, the server too. */
  private static void yesterday(File dataDir) throws Exception {
    try (ServiceTarget target = ServiceTarget.start(null);
        TenantBackendServer backend = new TenantBackendServer(target.serverClient()).start(0);
        Conversation others = Conversation.start(target.serverClient());
        DesktopApp app = new DesktopApp(backend.url(), Conversation.ME, null, dataDir)) {
      app.start();
      others.play(app.controller(), 0);
      long goodbye = others.lateNews().seq();
      ChatModel model = app.model();
      Conversation.await("the late news counted, bob's goodbye read", () -> model.roomList().totalUnread() == 4
          && model.readSeq(others.general(), Conversation.ME) >= goodbye);
    }
  }

  private static void paint(ChatController controller, File file) throws Exception {
    AtomicReference<BufferedImage> image = new AtomicReference<>();
    SwingUtilities.invokeAndWait(() -> { }); // the model's last renders are queued before this
    SwingUtilities.invokeAndWait(() -> {
      javax.swing.UIManager.put("swing.boldMetal", Boolean.FALSE); // as the app's window
      ChatWindow window = new ChatWindow(controller);
      window.stop();
      window.render();
      JPanel root = window.content();
      Dimension size = new Dimension(root.getPreferredSize().width + 330, root.getPreferredSize().height); // + search
      root.setSize(size);
      layOut(root);
      BufferedImage img = new BufferedImage(size.width, size.height, BufferedImage.TYPE_INT_RGB);
      Graphics2D g = img.createGraphics();
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      root.printAll(g);
      g.dispose();
      image.set(img);
    });
    File dir = file.getAbsoluteFile().getParentFile();
    if (dir != null) dir.mkdirs();
    if (!ImageIO.write(image.get(), "png", file)) throw new UncheckedIOException(new IOException("no PNG writer"));
  }

  /** Lays out a tree of components that has no window (no peer validates it). */
  private static void layOut(Component c) {
    if (!(c instanceof Container container)) return;
    container.doLayout();
    for (Component child : container.getComponents()) layOut(child);
  }
}
