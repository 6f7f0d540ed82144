package dev.svc.chat.samples.desktop;

import dev.svc.chat.ConnectionState;
import dev.svc.chat.Message;
import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Component;
import java.awt.Dimension;
import java.awt.Font;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.awt.event.WindowAdapter;
import java.awt.event.WindowEvent;
import java.util.List;
import javax.swing.BorderFactory;
import javax.swing.DefaultListCellRenderer;
import javax.swing.JButton;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JMenuItem;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JScrollPane;
import javax.swing.JTextField;
import javax.swing.ListSelectionModel;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import javax.swing.event.DocumentEvent;
import javax.swing.event.DocumentListener;

/**
 * The desktop client's window: a thin renderer of the {@link ChatModel} (rooms with unread counts, who is
 * online, the room's messages with replies, edits, deletes, reactions and read marks, who is typing, the
 * connection state) whose actions go to the {@link ChatController}. It runs on the EDT only: the SDK calls back
 * there ({@code SwingUtilities::invokeLater} is the client's callback executor), and it re-renders after each
 * change of the model. Right-click a message to react, or to edit or delete one of yours; click a file to open or
 * save it, or a pending upload to cancel it; the 📎 button sends a file.
 */
public final class ChatWindow {
  private static final Color SIDEBAR = new Color(0x1f2937);
  private static final Color SIDEBAR_TEXT = new Color(0xd1d5db);
  private static final Color SELECTED = new Color(0x2563eb);
  private static final Color MUTED = new Color(0x6b7280);
  private static final List<String> REACTIONS = List.of("👍", "❤", "😂", "🎉", "☀");

  private final ChatModel model;
  private final ChatController controller;
  private final JPanel content = new JPanel(new BorderLayout());
  private final Timer typingExpiry;
  private JFrame frame;
  private final JList<ChatModel.RoomRow> rooms = new JList<>();
  private final JList<String> online = new JList<>();
  private final JList<ChatModel.MessageRow> messages = new JList<>();
  private final JLabel title = new JLabel(" ");
  private final JLabel typing = new JLabel(" ");
  private final JLabel status = new JLabel(" ");
  private final JTextField composer = new JTextField();
  private final ThreadPanel thread;
  private final SearchPanel search;
  private final FileActions fileActions;
  private boolean rendering;
  private int messageWidth = 600;

  /**
   * Builds the window's content; call on the EDT. It needs no display until {@link #frame()} is called (the
   * screenshot paints {@link #content()} offscreen).
   *
   * @param controller the presenter, with its model
   */
  public ChatWindow(ChatController controller) {
    this.controller = controller;
    this.model = controller.model();
    search = new SearchPanel(controller.search());
    fileActions = new FileActions(controller, content, status::setText);
    content.add(sidebar(), BorderLayout.WEST);
    content.add(conversation(), BorderLayout.CENTER);
    thread = new ThreadPanel(controller, new MessageRenderer(() -> 220, controller.files()));
    JPanel east = new JPanel(); // the search results and the thread, side by side when both are open
    east.setLayout(new javax.swing.BoxLayout(east, javax.swing.BoxLayout.X_AXIS));
    east.add(search.component());
    east.add(thread.component());
    content.add(east, BorderLayout.EAST);
    status.setBorder(BorderFactory.createCompoundBorder(BorderFactory.createMatteBorder(1, 0, 0, 0, new Color(0xe5e7eb)),
        BorderFactory.createEmptyBorder(4, 10, 4, 10)));
    status.setFont(status.getFont().deriveFont(Font.PLAIN, 12f));
    content.add(status, BorderLayout.SOUTH);
    content.setPreferredSize(new Dimension(1000, 640));
    model.addListener(() -> SwingUtilities.invokeLater(this::render));
    // a typer who vanished without typing=false leaves the typing line after ChatModel.TYPING_TIMEOUT_MILLIS
    typingExpiry = new Timer(1000, e -> model.expireTyping());
    typingExpiry.start();
    render();
  }

  /** Returns the window's content: the sidebar, the conversation and the status bar. */
  public JPanel content() {
    return content;
  }

  /** Returns the frame holding the content, made at the first call (it needs a display). */
  public JFrame frame() {
    if (frame == null) {
      frame = new JFrame("svc chat · " + model.me());
      frame.setDefaultCloseOperation(JFrame.DISPOSE_ON_CLOSE);
      frame.setContentPane(content);
      frame.pack();
      frame.addWindowListener(new WindowAdapter() {
        @Override
        public void windowClosed(WindowEvent e) {
          typingExpiry.stop();
        }
      });
    }
    return frame;
  }

  /** Stops the window's timer when it never had a frame (a frame's closing stops it). */
  public void stop() {
    typingExpiry.stop();
  }

  private JPanel sidebar() {
    JPanel side = new JPanel(new BorderLayout());
    side.setBackground(SIDEBAR);
    side.setPreferredSize(new Dimension(210, 0));
    JLabel brand = sideHeader("svc chat");
    brand.setFont(brand.getFont().deriveFont(Font.BOLD, 17f));
    brand.setForeground(Color.WHITE);
    brand.setBorder(BorderFactory.createEmptyBorder(14, 14, 10, 14));
    JPanel top = new JPanel(new BorderLayout());
    top.setOpaque(false);
    top.add(brand, BorderLayout.NORTH);
    top.add(search.field(), BorderLayout.CENTER);
    top.add(sideHeader("ROOMS"), BorderLayout.SOUTH);
    style(rooms);
    rooms.setCellRenderer(new DefaultListCellRenderer() {
      @Override
      public Component getListCellRendererComponent(JList<?> list, Object value, int index, boolean sel, boolean focus) {
        ChatModel.RoomRow r = (ChatModel.RoomRow) value;
        String badge = r.unread() > 0 ? "&nbsp;&nbsp;<span style='color:#ffffff;background-color:#dc2626'>&nbsp;"
            + r.unread() + (r.capped() ? "+" : "") + "&nbsp;</span>" : "";
        if (r.mentions() > 0) { // the mention badge, apart from the unread one
          badge += "&nbsp;<span style='color:#ffffff;background-color:#7c3aed'>&nbsp;@" + r.mentions() + "&nbsp;</span>";
        }
        String preview = r.preview().length() > 26 ? r.preview().substring(0, 25) + "…" : r.preview();
        JLabel l = (JLabel) super.getListCellRendererComponent(list, "<html><b># </b>" + esc(r.name()) + badge
            + "<br><span style='color:#9ca3af;font-size:smaller'>" + esc(preview) + "&nbsp;</span></html>",
            index, false, false);
        sidebarCell(l, r.selected(), r.unread() > 0);
        return l;
      }
    });
    rooms.addListSelectionListener(e -> {
      ChatModel.RoomRow r = rooms.getSelectedValue();
      if (!rendering && !e.getValueIsAdjusting() && r != null) controller.select(r.id());
    });
    JPanel roomsPanel = new JPanel(new BorderLayout());
    roomsPanel.setOpaque(false);
    roomsPanel.add(top, BorderLayout.NORTH);
    roomsPanel.add(rooms, BorderLayout.CENTER);
    style(online);
    online.setCellRenderer(new DefaultListCellRenderer() {
      @Override
      public Component getListCellRendererComponent(JList<?> list, Object value, int index, boolean sel, boolean focus) {
        String u = (String) value;
        JLabel l = (JLabel) super.getListCellRendererComponent(list, "<html><span style='color:#22c55e'>●</span>&nbsp;"
            + esc(u) + (u.equals(model.me()) ? " <span style='color:#9ca3af'>(you)</span>" : "") + "</html>",
            index, false, false);
        sidebarCell(l, false, false);
        return l;
      }
    });
    JPanel onlinePanel = new JPanel(new BorderLayout());
    onlinePanel.setOpaque(false);
    onlinePanel.add(sideHeader("ONLINE"), BorderLayout.NORTH);
    onlinePanel.add(online, BorderLayout.CENTER);
    onlinePanel.setBorder(BorderFactory.createEmptyBorder(0, 0, 12, 0));
    side.add(roomsPanel, BorderLayout.NORTH);
    side.add(onlinePanel, BorderLayout.SOUTH);
    return side;
  }

  private JPanel conversation() {
    JPanel center = new JPanel(new BorderLayout());
    center.setBackground(Color.WHITE);
    title.setFont(title.getFont().deriveFont(Font.BOLD, 15f));
    title.setBorder(BorderFactory.createCompoundBorder(BorderFactory.createMatteBorder(0, 0, 1, 0, new Color(0xe5e7eb)),
        BorderFactory.createEmptyBorder(12, 16, 12, 16)));
    center.add(title, BorderLayout.NORTH);
    messages.setCellRenderer(new MessageRenderer(() -> messageWidth, controller.files()));
    messages.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
    messages.addMouseListener(new MouseAdapter() {
      @Override
      public void mousePressed(MouseEvent e) {
        popup(e);
      }

      @Override
      public void mouseReleased(MouseEvent e) {
        popup(e);
      }

      @Override
      public void mouseClicked(MouseEvent e) {
        int index = messages.locationToIndex(e.getPoint());
        if (!SwingUtilities.isLeftMouseButton(e) || index < 0) return;
        fileActions.clicked(messages.getModel().getElementAt(index), messages, e.getX(), e.getY());
      }
    });
    JScrollPane scroll = new JScrollPane(messages);
    scroll.setBorder(BorderFactory.createEmptyBorder());
    scroll.getViewport().setBackground(Color.WHITE);
    scroll.setHorizontalScrollBarPolicy(JScrollPane.HORIZONTAL_SCROLLBAR_NEVER);
    scroll.addComponentListener(new java.awt.event.ComponentAdapter() {
      @Override
      public void componentResized(java.awt.event.ComponentEvent e) {
        messageWidth = Math.max(300, scroll.getViewport().getWidth() - 130);
        messages.setListData(model.messageRows().toArray(new ChatModel.MessageRow[0])); // heights for the new width
      }
    });
    center.add(scroll, BorderLayout.CENTER);
    JPanel bottom = new JPanel(new BorderLayout(8, 4));
    bottom.setBackground(Color.WHITE);
    bottom.setBorder(BorderFactory.createEmptyBorder(2, 16, 10, 16));
    typing.setForeground(MUTED);
    typing.setFont(typing.getFont().deriveFont(Font.ITALIC, 12f));
    bottom.add(typing, BorderLayout.NORTH);
    composer.setBorder(BorderFactory.createCompoundBorder(BorderFactory.createLineBorder(new Color(0xd1d5db), 1, true),
        BorderFactory.createEmptyBorder(7, 9, 7, 9)));
    composer.getDocument().addDocumentListener(new DocumentListener() {
      @Override
      public void insertUpdate(DocumentEvent e) {
        controller.input(composer.getText());
      }

      @Override
      public void removeUpdate(DocumentEvent e) {
        controller.input(composer.getText());
      }

      @Override
      public void changedUpdate(DocumentEvent e) {
      }
    });
    composer.addActionListener(e -> send());
    composer.setFocusTraversalKeysEnabled(false); // Tab completes an @name of the room's members
    composer.addKeyListener(new java.awt.event.KeyAdapter() {
      @Override
      public void keyPressed(java.awt.event.KeyEvent e) {
        if (e.getKeyCode() != java.awt.event.KeyEvent.VK_TAB) return;
        composer.setText(model.completeMention(composer.getText()));
        e.consume();
      }
    });
    JButton sendButton = new JButton("Send");
    sendButton.addActionListener(e -> send());
    JButton attach = new JButton("📎");
    attach.setToolTipText("Send a file");
    attach.addActionListener(e -> fileActions.attach());
    JPanel buttons = new JPanel(new BorderLayout(4, 0));
    buttons.setOpaque(false);
    buttons.add(attach, BorderLayout.WEST);
    buttons.add(sendButton, BorderLayout.EAST);
    bottom.add(composer, BorderLayout.CENTER);
    bottom.add(buttons, BorderLayout.EAST);
    center.add(bottom, BorderLayout.SOUTH);
    return center;
  }

  private void send() {
    String text = composer.getText().trim();
    if (text.isEmpty()) return;
    composer.setText("");
    controller.send(text).whenComplete((m, e) -> {
      if (e != null) SwingUtilities.invokeLater(() -> status.setText("send failed: " + e.getMessage()));
    });
  }

  private void popup(MouseEvent e) {
    if (!e.isPopupTrigger()) return;
    int index = messages.locationToIndex(e.getPoint());
    if (index < 0) return;
    ChatModel.MessageRow row = messages.getModel().getElementAt(index);
    Message m = model.message(row.id());
    if (m == null || row.deleted() || row.pending()) return;
    JPopupMenu menu = new JPopupMenu();
    JMenuItem quote = new JMenuItem("Quote…");
    quote.addActionListener(a -> {
      String text = JOptionPane.showInputDialog(frame, "Reply to " + m.senderId());
      if (text != null && !text.isBlank()) controller.quote(m, text.trim());
    });
    JMenuItem open = new JMenuItem(row.replies() > 0 ? "Open thread (" + row.replies() + ")" : "Reply in thread");
    open.addActionListener(a -> controller.openThread(m));
    menu.add(quote);
    menu.add(open);
    menu.addSeparator();
    for (String emoji : REACTIONS) {
      JMenuItem item = new JMenuItem("React " + emoji);
      item.addActionListener(a -> controller.react(m.roomId(), m.id(), emoji));
      menu.add(item);
    }
    if (row.mine()) {
      menu.addSeparator();
      JMenuItem edit = new JMenuItem("Edit…");
      edit.addActionListener(a -> {
        String text = JOptionPane.showInputDialog(frame, "Edit message", m.text());
        if (text != null && !text.isBlank()) controller.edit(m, text.trim());
      });
      JMenuItem delete = new JMenuItem("Delete");
      delete.addActionListener(a -> controller.delete(m.roomId(), m.id()));
      menu.add(edit);
      menu.add(delete);
    }
    menu.show(messages, e.getX(), e.getY());
  }

  /** Returns what the window shows, for a smoke test on a display: rooms, messages, typing line, status bar. */
  String shown() {
    return rooms.getModel().getSize() + " rooms, " + messages.getModel().getSize() + " messages, "
        + online.getModel().getSize() + " online; " + typing.getText() + "; " + status.getText();
  }

  /** Re-renders everything from the model; on the EDT. */
  void render() {
    rendering = true;
    try {
      List<ChatModel.RoomRow> roomRows = model.roomRows();
      rooms.setListData(roomRows.toArray(new ChatModel.RoomRow[0]));
      for (int i = 0; i < roomRows.size(); i++) {
        if (roomRows.get(i).selected()) rooms.setSelectedIndex(i);
      }
      online.setListData(model.onlineUsers().toArray(new String[0]));
      String note = model.historyMissing() ? "  ·  history not in the offline store" : "";
      title.setText(model.roomTitle().isEmpty() ? " " : "# " + model.roomTitle() + note);
      List<ChatModel.MessageRow> rows = model.messageRows();
      boolean atEnd = messages.getModel().getSize() != rows.size();
      messages.setListData(rows.toArray(new ChatModel.MessageRow[0]));
      String focused = model.focusedMessage(); // a search result opened: selected, in view
      int at = -1;
      for (int i = 0; focused != null && i < rows.size(); i++) {
        if (rows.get(i).id().equals(focused)) at = i;
      }
      if (at >= 0) {
        messages.setSelectedIndex(at);
        messages.ensureIndexIsVisible(at);
      } else if (atEnd && !rows.isEmpty()) {
        messages.ensureIndexIsVisible(rows.size() - 1);
      }
      thread.render(model.threadRows());
      String t = model.typingLine();
      typing.setText(t.isEmpty() ? " " : t);
      ConnectionState state = model.connectionState();
      String dot = switch (state) {
        case CONNECTED -> "#16a34a";
        case CONNECTING, RECONNECTING -> "#d97706";
        default -> "#dc2626";
      };
      status.setText("<html><span style='color:" + dot + "'>●</span>&nbsp;" + esc(model.statusLine()) + "</html>");
    } finally {
      rendering = false;
    }
  }

  private static void style(JList<?> list) {
    list.setOpaque(false);
    list.setBackground(SIDEBAR);
    list.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
  }

  private static JLabel sideHeader(String text) {
    JLabel l = new JLabel(text);
    l.setForeground(new Color(0x9ca3af));
    l.setFont(l.getFont().deriveFont(Font.BOLD, 11f));
    l.setBorder(BorderFactory.createEmptyBorder(10, 14, 4, 14));
    return l;
  }

  private static void sidebarCell(JLabel l, boolean selected, boolean bold) {
    l.setOpaque(true);
    l.setBackground(selected ? SELECTED : SIDEBAR);
    l.setForeground(selected ? Color.WHITE : SIDEBAR_TEXT);
    l.setFont(l.getFont().deriveFont(bold ? Font.BOLD : Font.PLAIN, 13f));
    l.setBorder(BorderFactory.createEmptyBorder(4, 14, 4, 14));
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
