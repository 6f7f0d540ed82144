package dev.svc.chat.samples.desktop;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.Font;
import java.util.List;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextField;
import javax.swing.ListCellRenderer;

/**
 * The side panel of an open thread: its root (with the reply count) and its replies as the {@link ChatModel}
 * holds them, and a field to reply in the thread. Hidden while no thread is open. On the EDT only.
 */
final class ThreadPanel {
  private final ChatController controller;
  private final JPanel panel = new JPanel(new BorderLayout());
  private final JLabel title = new JLabel(" ");
  private final JList<ChatModel.MessageRow> rows = new JList<>();
  private final JTextField reply = new JTextField();

  ThreadPanel(ChatController controller, ListCellRenderer<Object> renderer) {
    this.controller = controller;
    panel.setBackground(Color.WHITE);
    panel.setPreferredSize(new Dimension(330, 0));
    panel.setBorder(BorderFactory.createMatteBorder(0, 1, 0, 0, new Color(0xe5e7eb)));
    JPanel top = new JPanel(new BorderLayout());
    top.setBackground(Color.WHITE);
    top.setBorder(BorderFactory.createCompoundBorder(BorderFactory.createMatteBorder(0, 0, 1, 0, new Color(0xe5e7eb)),
        BorderFactory.createEmptyBorder(12, 16, 12, 8)));
    title.setFont(title.getFont().deriveFont(Font.BOLD, 15f));
    top.add(title, BorderLayout.CENTER);
    JButton close = new JButton("×");
    close.addActionListener(e -> controller.closeThread());
    top.add(close, BorderLayout.EAST);
    panel.add(top, BorderLayout.NORTH);
    rows.setCellRenderer(renderer);
    JScrollPane scroll = new JScrollPane(rows);
    scroll.setBorder(BorderFactory.createEmptyBorder());
    scroll.setHorizontalScrollBarPolicy(JScrollPane.HORIZONTAL_SCROLLBAR_NEVER);
    panel.add(scroll, BorderLayout.CENTER);
    reply.setBorder(BorderFactory.createCompoundBorder(BorderFactory.createEmptyBorder(2, 12, 10, 12),
        BorderFactory.createCompoundBorder(BorderFactory.createLineBorder(new Color(0xd1d5db), 1, true),
            BorderFactory.createEmptyBorder(7, 9, 7, 9))));
    reply.addActionListener(e -> {
      String text = reply.getText().trim();
      if (text.isEmpty()) return;
      reply.setText("");
      controller.replyInThread(text);
    });
    panel.add(reply, BorderLayout.SOUTH);
    panel.setVisible(false);
  }

  JPanel component() {
    return panel;
  }

  /** Shows the model's thread: the root first, then the replies; hidden when none is open. */
  void render(List<ChatModel.MessageRow> thread) {
    panel.setVisible(!thread.isEmpty());
    if (thread.isEmpty()) return;
    int replies = thread.get(0).replies();
    title.setText("Thread  ·  " + replies + (replies == 1 ? " reply" : " replies"));
    rows.setListData(thread.toArray(new ChatModel.MessageRow[0]));
  }
}
