package dev.svc.chat.samples.desktop;

import static dev.svc.chat.samples.desktop.ChatWindow.esc;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Component;
import java.awt.Dimension;
import java.awt.Font;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import javax.swing.BorderFactory;
import javax.swing.DefaultListCellRenderer;
import javax.swing.JButton;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextField;
import javax.swing.ListSelectionModel;
import javax.swing.SwingUtilities;

/**
 * The search box (a field for the sidebar) and its results (a side panel, hidden while no search is shown): each
 * result's room, sender, date and snippet with the matched words in bold, where the results came from, "More
 * results" while the cursor has more, and a click opens the message in its room. It renders the
 * {@link SearchController}; on the EDT only.
 */
final class SearchPanel {
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("d MMM HH:mm").withZone(ZoneId.systemDefault());

  private final SearchController search;
  private final JTextField field = new JTextField();
  private final JPanel panel = new JPanel(new BorderLayout());
  private final JLabel summary = new JLabel(" ");
  private final JList<SearchController.Hit> results = new JList<>();
  private final JButton more = new JButton("More results");

  SearchPanel(SearchController search) {
    this.search = search;
    field.setToolTipText("Search messages: words, \"a phrase\", prefix*; Enter searches");
    field.setBorder(BorderFactory.createCompoundBorder(BorderFactory.createEmptyBorder(0, 12, 6, 12),
        BorderFactory.createCompoundBorder(BorderFactory.createLineBorder(new Color(0x4b5563), 1, true),
            BorderFactory.createEmptyBorder(5, 7, 5, 7))));
    field.addActionListener(e -> {
      if (!field.getText().isBlank()) search.search(field.getText());
    });

    panel.setBackground(Color.WHITE);
    panel.setPreferredSize(new Dimension(330, 0));
    panel.setBorder(BorderFactory.createMatteBorder(0, 1, 0, 0, new Color(0xe5e7eb)));
    JPanel top = new JPanel(new BorderLayout());
    top.setBackground(Color.WHITE);
    top.setBorder(BorderFactory.createCompoundBorder(BorderFactory.createMatteBorder(0, 0, 1, 0, new Color(0xe5e7eb)),
        BorderFactory.createEmptyBorder(12, 16, 12, 8)));
    JLabel title = new JLabel("Search");
    title.setFont(title.getFont().deriveFont(Font.BOLD, 15f));
    summary.setForeground(new Color(0x6b7280));
    summary.setFont(summary.getFont().deriveFont(Font.PLAIN, 12f));
    top.add(title, BorderLayout.NORTH);
    top.add(summary, BorderLayout.CENTER);
    JButton close = new JButton("×");
    close.addActionListener(e -> search.clear());
    top.add(close, BorderLayout.EAST);
    panel.add(top, BorderLayout.NORTH);

    results.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
    results.setCellRenderer(new DefaultListCellRenderer() {
      @Override
      public Component getListCellRendererComponent(JList<?> list, Object value, int index, boolean sel, boolean focus) {
        SearchController.Hit h = (SearchController.Hit) value;
        String html = "<html><div style='width:270px'><span style='color:#2563eb'># " + esc(h.roomName())
            + "</span>&nbsp;&nbsp;<b>" + esc(h.senderId()) + "</b>&nbsp;&nbsp;<span style='color:#9ca3af'>"
            + DATE.format(Instant.ofEpochMilli(h.createdAt())) + "</span><br>" + h.snippetHtml() + "</div></html>";
        JLabel l = (JLabel) super.getListCellRendererComponent(list, html, index, sel, false);
        l.setBorder(BorderFactory.createCompoundBorder(BorderFactory.createMatteBorder(0, 0, 1, 0, new Color(0xf3f4f6)),
            BorderFactory.createEmptyBorder(6, 16, 6, 16)));
        l.setBackground(sel ? new Color(0xeff6ff) : Color.WHITE);
        l.setForeground(new Color(0x111827));
        return l;
      }
    });
    results.addMouseListener(new MouseAdapter() {
      @Override
      public void mouseClicked(MouseEvent e) {
        int i = results.locationToIndex(e.getPoint());
        if (i >= 0 && results.getCellBounds(i, i).contains(e.getPoint())) search.open(results.getModel().getElementAt(i));
      }
    });
    JScrollPane scroll = new JScrollPane(results);
    scroll.setBorder(BorderFactory.createEmptyBorder());
    scroll.setHorizontalScrollBarPolicy(JScrollPane.HORIZONTAL_SCROLLBAR_NEVER);
    panel.add(scroll, BorderLayout.CENTER);
    more.addActionListener(e -> search.more());
    panel.add(more, BorderLayout.SOUTH);
    panel.setVisible(false);
    search.addListener(() -> SwingUtilities.invokeLater(this::render));
    render(); // a search made before the window (the screenshot's)
  }

  /** Returns the search field, for the sidebar. */
  JTextField field() {
    return field;
  }

  /** Returns the results panel, hidden while no search is shown. */
  JPanel component() {
    return panel;
  }

  /** Shows the controller's results. */
  void render() {
    boolean shown = search.active();
    if (panel.isVisible() != shown) {
      panel.setVisible(shown);
      if (panel.getParent() != null) panel.getParent().revalidate();
    }
    if (!shown) return;
    if (!field.isFocusOwner() && !search.text().isEmpty()) field.setText(search.text()); // a search made elsewhere
    summary.setText(search.summary());
    results.setListData(search.hits().toArray(new SearchController.Hit[0]));
    more.setVisible(search.hasMore());
  }
}
