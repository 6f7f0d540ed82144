package dev.svc.chat.samples.desktop;

import static dev.svc.chat.samples.desktop.ChatWindow.esc;

import dev.svc.chat.FileAttachment;
import java.awt.BasicStroke;
import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Component;
import java.awt.FlowLayout;
import java.awt.Font;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.function.IntSupplier;
import javax.swing.BorderFactory;
import javax.swing.DefaultListCellRenderer;
import javax.swing.Icon;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JPanel;
import javax.swing.JProgressBar;

/**
 * Draws one {@link ChatModel.MessageRow} of a list: avatar, sender and time, the quoted message, the text (or
 * "message deleted"), its files with the images' thumbnails and a pending upload's progress bar, reactions, the
 * thread's reply count and who has seen it. On the EDT only.
 */
final class MessageRenderer extends DefaultListCellRenderer {
  private static final Color[] AVATARS = {new Color(0xe11d48), new Color(0x059669), new Color(0x7c3aed),
      new Color(0xd97706), new Color(0x0891b2), new Color(0x4f46e5), new Color(0xdb2777), new Color(0x65a30d)};
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());

  /** The text's width in pixels, read at each paint (the conversation's follows the window). */
  private final IntSupplier width;
  private final FileTransfers files;

  MessageRenderer(IntSupplier width, FileTransfers files) {
    this.width = width;
    this.files = files;
  }

  @Override
  public Component getListCellRendererComponent(JList<?> list, Object value, int index, boolean sel, boolean focus) {
    ChatModel.MessageRow r = (ChatModel.MessageRow) value;
    StringBuilder h = new StringBuilder("<html><div style='width:").append(width.getAsInt()).append("px'>");
    h.append("<b>").append(esc(r.senderId())).append("</b>&nbsp;&nbsp;<span style='color:#9ca3af'>")
        .append(TIME.format(Instant.ofEpochMilli(r.createdAt()))).append("</span>");
    if (r.pending()) h.append("&nbsp;&nbsp;<span style='color:#9ca3af'>sending…</span>");
    h.append("<br>");
    if (r.replyTo() != null) {
      h.append("<table cellpadding='3' cellspacing='0'><tr><td bgcolor='#f3f4f6'><span style='color:#6b7280'>↪ ")
          .append(esc(r.replyTo().senderId())).append(": ").append(esc(r.replyTo().quote()))
          .append("</span></td></tr></table>");
    }
    if (r.deleted()) {
      h.append("<i style='color:#9ca3af'>message deleted</i>");
    } else {
      h.append(esc(r.text()).replace("\n", "<br>"));
      if (r.edited()) h.append("&nbsp;<span style='color:#9ca3af'>(edited)</span>");
      boolean first = r.text().isEmpty();
      for (FileAttachment f : r.files()) {
        h.append(first ? "" : "<br>").append("<span style='color:#2563eb'>📎 ").append(esc(f.name()))
            .append("</span>&nbsp;<span style='color:#9ca3af'>").append(size(f.size()))
            .append(f.width() != null ? " · " + f.width() + "×" + f.height() : "").append("</span>");
        first = false;
      }
      for (String name : r.uploading()) {
        h.append(first ? "" : "<br>").append("📎 ").append(esc(name));
        first = false;
      }
    }
    if (!r.reactions().isEmpty()) {
      h.append("<br>");
      for (Map.Entry<String, Integer> e : r.reactions().entrySet()) {
        h.append("<span style='background-color:#eef2ff;color:#3730a3'>&nbsp;").append(esc(e.getKey()))
            .append("&nbsp;").append(e.getValue()).append("&nbsp;</span>&nbsp;&nbsp;");
      }
    }
    if (r.replies() > 0) {
      h.append("<br><span style='color:#2563eb'>💬 ").append(r.replies()).append(r.replies() == 1 ? " reply" : " replies")
          .append("</span>");
    }
    if (!r.seenBy().isEmpty()) {
      h.append("<br><span style='color:#9ca3af'>✓ seen by ").append(esc(String.join(", ", r.seenBy())))
          .append("</span>");
    }
    h.append("</div></html>");
    JLabel l = (JLabel) super.getListCellRendererComponent(list, h.toString(), index, sel, false);
    l.setIcon(new Avatar(r.senderId()));
    l.setIconTextGap(10);
    l.setVerticalAlignment(JLabel.TOP);
    l.setVerticalTextPosition(JLabel.TOP);
    l.setBorder(BorderFactory.createEmptyBorder(6, 16, 6, 16));
    l.setBackground(sel ? new Color(0xf3f4f6) : Color.WHITE);
    l.setForeground(new Color(0x111827));
    return withFiles(l, r);
  }

  /** Adds the thumbnails fetched and a pending upload's progress bar under the row's label, if any. */
  private Component withFiles(JLabel l, ChatModel.MessageRow r) {
    FileTransfers.Upload up = r.pending() ? files.upload(r.id()) : null;
    JPanel extra = new JPanel(new FlowLayout(FlowLayout.LEFT, 0, 0));
    extra.setOpaque(false);
    extra.setBorder(BorderFactory.createEmptyBorder(0, 58, 8, 16)); // under the text, past the avatar
    int max = Math.max(64, Math.min(FileTransfers.THUMBNAIL, width.getAsInt()));
    for (FileAttachment f : r.files()) {
      BufferedImage image = f.isImage() ? files.thumbnail(f.fileId()) : null;
      if (image != null) extra.add(new JLabel(new Thumbnail(image, max)));
    }
    if (up != null) {
      JProgressBar bar = new JProgressBar(0, 1000);
      bar.setValue(up.total() == 0 ? 0 : (int) (1000 * up.sent() / up.total()));
      bar.setStringPainted(true);
      bar.setString(size(up.sent()) + " of " + size(up.total()));
      extra.add(bar);
      JLabel cancel = new JLabel("  click to cancel");
      cancel.setForeground(new Color(0x9ca3af));
      extra.add(cancel);
    }
    if (extra.getComponentCount() == 0) return l;
    JPanel cell = new JPanel(new BorderLayout());
    cell.setBackground(l.getBackground());
    cell.add(l, BorderLayout.CENTER);
    cell.add(extra, BorderLayout.SOUTH);
    return cell;
  }

  static String size(long bytes) {
    if (bytes < 1024) return bytes + " B";
    if (bytes < 1024 * 1024) return String.format(java.util.Locale.ROOT, "%.1f KB", bytes / 1024.0);
    return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
  }

  /** An image drawn at most {@code max} pixels wide, keeping its proportions. */
  private record Thumbnail(BufferedImage image, int max) implements Icon {
    @Override
    public void paintIcon(Component c, Graphics g, int x, int y) {
      Graphics2D g2 = (Graphics2D) g.create();
      g2.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
      g2.drawImage(image, x, y, getIconWidth(), getIconHeight(), null);
      g2.dispose();
    }

    @Override
    public int getIconWidth() {
      return Math.min(max, image.getWidth());
    }

    @Override
    public int getIconHeight() {
      return (int) ((long) image.getHeight() * getIconWidth() / image.getWidth());
    }
  }

  /** A round avatar with the user's initial. */
  private record Avatar(String user) implements Icon {
    @Override
    public void paintIcon(Component c, Graphics g, int x, int y) {
      Graphics2D g2 = (Graphics2D) g.create();
      g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g2.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g2.setColor(AVATARS[user.chars().sum() % AVATARS.length]);
      g2.fillOval(x, y + 2, 32, 32);
      g2.setStroke(new BasicStroke(1f));
      g2.setColor(Color.WHITE);
      g2.setFont(c.getFont().deriveFont(Font.BOLD, 15f));
      String initial = user.isEmpty() ? "?" : user.substring(0, 1).toUpperCase(java.util.Locale.ROOT);
      int w = g2.getFontMetrics().stringWidth(initial);
      g2.drawString(initial, x + 16 - w / 2, y + 2 + 21);
      g2.dispose();
    }

    @Override
    public int getIconWidth() {
      return 32;
    }

    @Override
    public int getIconHeight() {
      return 36;
    }
  }
}
