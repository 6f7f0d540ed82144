package dev.svc.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a message search ({@link ChatClient#searchMessages(SearchQuery)}, or
 * {@link ChatClient#searchStored(SearchQuery)} over the offline store), newest message first. Page on
 * with {@code query.after(page.nextCursor())} while {@link #nextCursor()} is not null; paging has no cap.
 */
public final class SearchPage {
  private final List<SearchResult> results;
  private final @Nullable String nextCursor;
  private final boolean fromStore;

  /**
   * Creates a page the service answered.
   *
   * @param results the results, newest first, none null
   * @param nextCursor where the next page starts, or null after the last page
   */
  public SearchPage(List<SearchResult> results, @Nullable String nextCursor) {
    this(results, nextCursor, false);
  }

  /**
   * Creates a page.
   *
   * @param results the results, newest first, none null
   * @param nextCursor where the next page starts, or null after the last page
   * @param fromStore whether the client's offline store answered it ({@link ChatClient#searchStored}) rather
   *     than the service
   */
  public SearchPage(List<SearchResult> results, @Nullable String nextCursor, boolean fromStore) {
    if (results == null) throw new NullPointerException("results == null");
    List<SearchResult> copy = new ArrayList<>(results.size());
    for (SearchResult r : results) {
      if (r == null) throw new NullPointerException("result == null");
      copy.add(r);
    }
    this.results = Collections.unmodifiableList(copy);
    this.nextCursor = nextCursor;
    this.fromStore = fromStore;
  }

  /**
   * Returns the results, newest first (by creation, then by seq).
   *
   * @return an unmodifiable list
   */
  public List<SearchResult> results() {
    return results;
  }

  /**
   * Returns the cursor of the next page, for {@link SearchQuery#after(String)} with the same search.
   *
   * @return the cursor, or null when this is the last page
   */
  public @Nullable String nextCursor() {
    return nextCursor;
  }

  /**
   * Returns whether the client's offline store answered this page ({@link ChatClient#searchStored}): it holds
   * the stored messages only, which may miss what the store never received or has evicted.
   *
   * @return true for the store's answer, false for the service's
   */
  public boolean fromStore() {
    return fromStore;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) return true;
    if (!(o instanceof SearchPage)) return false;
    SearchPage p = (SearchPage) o;
    return results.equals(p.results) && fromStore == p.fromStore
        && (nextCursor == null ? p.nextCursor == null : nextCursor.equals(p.nextCursor));
  }

  @Override
  public int hashCode() {
    return 31 * (31 * results.hashCode() + (nextCursor == null ? 0 : nextCursor.hashCode())) + (fromStore ? 1 : 0);
  }

  @Override
  public String toString() {
    return "SearchPage{results=" + results + ", more=" + (nextCursor != null) + ", fromStore=" + fromStore
        + "}";
  }
}
