package dev.svc.chat.samples.desktop;

import dev.svc.chat.FileAttachment;
import java.awt.Component;
import java.awt.Desktop;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import javax.swing.JFileChooser;
import javax.swing.JMenuItem;
import javax.swing.JOptionPane;
import javax.swing.JPopupMenu;
import javax.swing.SwingUtilities;

/**
 * The window's file dialogs, over {@link FileTransfers}: the attach button's file chooser, a click on a pending
 * upload to cancel it, and a click on a file to open it (downloaded to a temporary directory first) or save it
 * where the user chooses. On the EDT only; what the transfers report goes to the status bar.
 */
final class FileActions {
  private final ChatController controller;
  private final Component parent;
  private final Consumer<String> status;

  FileActions(ChatController controller, Component parent, Consumer<String> status) {
    this.controller = controller;
    this.parent = parent;
    this.status = status;
  }

  /** Chooses a file and sends it to the room on screen. */
  void attach() {
    JFileChooser chooser = new JFileChooser();
    if (chooser.showOpenDialog(parent) != JFileChooser.APPROVE_OPTION) return;
    File file = chooser.getSelectedFile();
    controller.files().attach(file.toPath()).whenComplete((m, e) -> {
      if (e != null && !(cause(e) instanceof CancellationException)) later("sending " + file.getName() + " failed: " + cause(e).getMessage());
    });
  }

  /**
   * Handles a click on a message: a pending upload of this run asks whether to cancel it; a message with files
   * offers to open or save each.
   *
   * @return whether the row had something to click
   */
  boolean clicked(ChatModel.MessageRow row, Component where, int x, int y) {
    if (row.pending() && controller.files().upload(row.id()) != null) {
      String name = String.join(", ", row.uploading());
      if (JOptionPane.showConfirmDialog(parent, "Cancel sending " + name + "?", "Upload",
          JOptionPane.YES_NO_OPTION) == JOptionPane.YES_OPTION) {
        controller.files().cancel(controller.model().selectedRoom(), row.id()).thenAccept(cancelled -> {
          if (!cancelled) later(name + " is already on its way");
        });
      }
      return true;
    }
    if (row.files().isEmpty()) return false;
    JPopupMenu menu = new JPopupMenu();
    for (FileAttachment f : row.files()) {
      JMenuItem open = new JMenuItem("Open " + f.name());
      open.addActionListener(a -> open(f));
      JMenuItem save = new JMenuItem("Save " + f.name() + "…");
      save.addActionListener(a -> save(f));
      menu.add(open);
      menu.add(save);
    }
    menu.show(where, x, y);
    return true;
  }

  private void open(FileAttachment f) {
    Path target;
    try {
      target = Files.createTempDirectory("svc-chat-open").resolve(f.name());
    } catch (IOException e) {
      status.accept("cannot open " + f.name() + ": " + e.getMessage());
      return;
    }
    controller.files().save(f, target, null).whenComplete((file, e) -> {
      if (e != null) {
        later("cannot open " + f.name() + ": " + cause(e).getMessage());
      } else if (Desktop.isDesktopSupported() && Desktop.getDesktop().isSupported(Desktop.Action.OPEN)) {
        try {
          Desktop.getDesktop().open(file);
        } catch (IOException | RuntimeException x) {
          later("downloaded to " + file + "; no application opens it: " + x.getMessage());
        }
      } else {
        later("downloaded to " + file);
      }
    });
  }

  private void save(FileAttachment f) {
    JFileChooser chooser = new JFileChooser();
    chooser.setSelectedFile(new File(f.name()));
    if (chooser.showSaveDialog(parent) != JFileChooser.APPROVE_OPTION) return;
    Path target = chooser.getSelectedFile().toPath();
    controller.files().save(f, target, (done, total) -> later("saving " + f.name() + ": " + done + " of " + total + " bytes"))
        .whenComplete((file, e) -> later(e == null ? "saved " + file : "saving " + f.name() + " failed: " + cause(e).getMessage()));
  }

  private void later(String text) {
    SwingUtilities.invokeLater(() -> status.accept(text));
  }

  private static Throwable cause(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }
}
