package dev.svc.chat.samples.desktop;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.Message;
import dev.svc.chat.RoomSummary;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.SearchResult;
import dev.svc.chat.TransportException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The search box's presenter ({@code docs/search.md}): the service's search while the client is connected, the
 * offline store's ({@link ChatClient#searchStored}) while it is not or when the service cannot be reached;
 * results newest first with their snippets, paged by cursor, each opening its room at the message
 * ({@link ChatController#jumpTo}). No Swing: {@link SearchPanel} renders it, tests drive it. Thread-safe;
 * listeners run on the thread that made the change.
 */
public final class SearchController {
  /** The results asked for at a time. */
  static final int PAGE = 20;

  /**
   * One result, ready to render.
   *
   * @param roomName the room's name, or its id when the room list does not have it
   * @param snippet the snippet without its marks
   * @param snippetHtml the snippet as HTML, each matched word in {@code <b>}
   * @param message the message found, as the service or the store holds it
   */
  public record Hit(String roomId, String roomName, String senderId, String snippet, String snippetHtml,
      long createdAt, Message message) {}

  private final ChatController chat;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

  // guarded by this
  /** The first page's query; null while no search is shown. */
  private SearchQuery query;
  private List<Hit> hits = List.of();
  private String cursor;
  private boolean fromStore;
  private boolean busy;
  private String error;
  /** Counts the searches: an answer to an older one than the one shown is dropped. */
  private int generation;

  SearchController(ChatController chat) {
    this.chat = chat;
  }

  /** Calls {@code listener} after every change. */
  public void addListener(Runnable listener) {
    listeners.add(listener);
  }

  private void changed() {
    for (Runnable r : listeners) r.run();
  }

  /**
   * Searches: the service while connected, falling back to the store when the service cannot be reached; the
   * store while offline. Replaces the results shown.
   *
   * @param text the words, as typed ({@code "quoted phrase"}, {@code prefix*})
   * @return the first page; failed as the search failed (the error is shown too)
   */
  public CompletableFuture<SearchPage> search(String text) {
    ChatClient c = chat.client();
    int gen;
    synchronized (this) {
      gen = ++generation;
      query = null;
      hits = List.of();
      cursor = null;
      error = null;
      busy = true;
    }
    SearchQuery q;
    try {
      if (c == null) throw new IllegalStateException("not signed in");
      q = SearchQuery.of(text.trim()).limit(PAGE);
    } catch (RuntimeException e) { // blank, too long, or no client yet: said at once, nothing asked
      took(gen, null, null, e);
      return CompletableFuture.failedFuture(e);
    }
    synchronized (this) {
      query = q;
    }
    changed();
    CompletableFuture<SearchPage> f = c.state() != ConnectionState.CONNECTED ? c.searchStored(q)
        : c.searchMessages(q).exceptionallyCompose(e -> unreachable(e) ? c.searchStored(q) : CompletableFuture.failedFuture(e));
    return f.whenComplete((page, e) -> took(gen, q, page, e));
  }

  /**
   * Fetches the next page of the results shown, from where the first came (a cursor works only there).
   *
   * @return the page, or null at once when there is none to fetch or one is under way
   */
  public CompletableFuture<SearchPage> more() {
    ChatClient c = chat.client();
    SearchQuery next;
    boolean store;
    int gen;
    synchronized (this) {
      if (c == null || query == null || cursor == null || busy) return CompletableFuture.completedFuture(null);
      next = query.after(cursor);
      store = fromStore;
      gen = generation;
      busy = true;
    }
    changed();
    CompletableFuture<SearchPage> f = store ? c.searchStored(next) : c.searchMessages(next);
    return f.whenComplete((page, e) -> took(gen, next, page, e));
  }

  /** Opens a result: its room, the message selected. */
  public void open(Hit hit) {
    chat.jumpTo(hit.message());
  }

  /** Forgets the results (the panel closes). */
  public void clear() {
    synchronized (this) {
      generation++;
      query = null;
      hits = List.of();
      cursor = null;
      error = null;
      busy = false;
    }
    changed();
  }

  private void took(int gen, SearchQuery asked, SearchPage page, Throwable e) {
    List<Hit> found = new ArrayList<>();
    if (page != null) {
      for (SearchResult r : page.results()) found.add(hit(r));
    }
    synchronized (this) {
      if (gen != generation) return;
      busy = false;
      if (page == null) {
        Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
        error = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        if (asked == null) query = null;
      } else {
        List<Hit> all = new ArrayList<>(hits);
        all.addAll(found);
        hits = List.copyOf(all);
        cursor = page.nextCursor();
        fromStore = page.fromStore();
      }
    }
    changed();
  }

  private Hit hit(SearchResult r) {
    Message m = r.message();
    RoomSummary s = chat.model().roomList().room(m.roomId());
    return new Hit(m.roomId(), s == null ? m.roomId() : s.room().name(), m.senderId(), r.plainSnippet(),
        html(r.snippet()), m.createdAt(), m);
  }

  /** Whether a failure is the service out of reach (the store may answer), not a refusal. */
  static boolean unreachable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TransportException || t instanceof ChatStateException) return true;
    }
    return false;
  }

  /** Renders a snippet's marks ({@link SearchResult#MARK_START}, {@link SearchResult#MARK_END}) as bold HTML. */
  static String html(String snippet) {
    StringBuilder h = new StringBuilder();
    boolean open = false;
    String escaped = ChatWindow.esc(snippet).replace('\n', ' ');
    for (int i = 0; i < escaped.length(); i++) {
      char ch = escaped.charAt(i);
      if (ch == SearchResult.MARK_START) {
        if (!open) h.append("<b>");
        open = true;
      } else if (ch == SearchResult.MARK_END) {
        if (open) h.append("</b>");
        open = false;
      } else {
        h.append(ch);
      }
    }
    if (open) h.append("</b>"); // a snippet cut inside a mark stays well-formed
    return h.toString();
  }

  // ---- what the panel shows ----

  /** Returns the words of the search shown, or "". */
  public synchronized String text() {
    return query == null ? "" : query.text();
  }

  /** Returns the results shown, newest first (the pages fetched, in order). */
  public synchronized List<Hit> hits() {
    return hits;
  }

  /** Returns whether results are shown, a search is under way, or one failed: the panel is open. */
  public synchronized boolean active() {
    return query != null || busy || error != null;
  }

  /** Returns whether the results shown came from the offline store (this device) rather than the service. */
  public synchronized boolean fromStore() {
    return fromStore;
  }

  /** Returns whether a next page can be fetched ({@link #more()}). */
  public synchronized boolean hasMore() {
    return cursor != null && !busy;
  }

  /**
   * Returns the panel's header, such as "3 results · from the service", "1 result · from this device (offline)",
   * "searching…" or "search failed: …".
   */
  public synchronized String summary() {
    if (error != null) return "search failed: " + error;
    if (busy && hits.isEmpty()) return "searching…";
    String n = hits.size() + (cursor != null ? "+" : "") + (hits.size() == 1 ? " result" : " results");
    return n + "  ·  " + (fromStore ? "from this device (offline)" : "from the service");
  }
}
