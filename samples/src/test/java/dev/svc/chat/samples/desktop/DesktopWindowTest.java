package dev.svc.chat.samples.desktop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.samples.session.TenantBackendServer;
import dev.svc.chat.testkit.SvcTestServer;
import java.awt.GraphicsEnvironment;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import javax.swing.SwingUtilities;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window itself, on a display only (the test command usually has none: then this test is skipped, and
 * {@link DesktopClientTest} covers everything but the rendering). Run it under Xvfb with
 * {@code xvfb-run -a mvn -o -q -pl samples -am verify -Dtest=DesktopWindowTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIf(value = "hasDisplay", disabledReason = "no display: the window is not tested (run under xvfb-run)")
class DesktopWindowTest {
  @RegisterExtension
  static SvcTestServer svc = SvcTestServer.perTest();
  @TempDir Path dataDir;

  static boolean hasDisplay() {
    return !GraphicsEnvironment.isHeadless();
  }

  @Test
  void theWindowShowsTheConversationWithCallbacksOnTheEdt() throws Exception {
    AtomicReference<ChatWindow> window = new AtomicReference<>();
    try (TenantBackendServer backend = new TenantBackendServer(svc.serverClient()).start(0);
        Conversation others = Conversation.start(svc.serverClient());
        DesktopApp app = new DesktopApp(backend.url(), Conversation.ME, SwingUtilities::invokeLater,
            dataDir.toFile())) {
      AtomicReference<Boolean> onEdt = new AtomicReference<>();
      app.model().addListener(() -> onEdt.compareAndSet(null, SwingUtilities.isEventDispatchThread()));
      SwingUtilities.invokeAndWait(() -> {
        window.set(new ChatWindow(app.controller()));
        window.get().frame().setVisible(true);
      });
      app.start();
      others.play(app.controller(), 0);
      AtomicReference<String> shown = new AtomicReference<>();
      SwingUtilities.invokeAndWait(() -> { }); // the model's last renders are queued before this one
      SwingUtilities.invokeAndWait(() -> shown.set(window.get().shown()));
      assertTrue(shown.get().startsWith("3 rooms, 8 messages, 4 online; bob is typing…; "), shown.get());
      assertTrue(shown.get().contains("CONNECTED as alice"), shown.get());
      assertTrue(onEdt.get(), "the first change came on the EDT");
    } finally {
      SwingUtilities.invokeAndWait(() -> {
        if (window.get() != null) window.get().frame().dispose();
      });
    }
  }
}
