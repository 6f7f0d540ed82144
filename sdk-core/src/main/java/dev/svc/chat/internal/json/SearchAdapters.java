package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.Message;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchResult;

/**
 * The answer of the search route: {@code {results: [{message, snippet}], nextCursor?}}. Unknown fields are
 * skipped; a result without its message fails the read.
 */
public final class SearchAdapters {
  private SearchAdapters() {
  }

  /** Reads {@code {"message": Message, "snippet": "..."}}; a missing snippet is empty. */
  static final JsonAdapter<SearchResult> RESULT = new ResponseAdapters.ReadOnlyAdapter<SearchResult>() {
    private final JsonReader.Options names = JsonReader.Options.of("message", "snippet");

    @Override
    public SearchResult fromJson(JsonReader reader) throws IOException {
      Message message = null;
      String snippet = null;
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.selectName(names)) {
          case 0:
            message = MessageJsonAdapter.INSTANCE.fromJson(reader);
            break;
          case 1:
            snippet = Json.nextStringOrNull(reader);
            break;
          default:
            reader.skipName();
            reader.skipValue();
        }
      }
      reader.endObject();
      if (message == null) throw new JsonDataException("search result without message at " + reader.getPath());
      return new SearchResult(message, snippet == null ? "" : snippet);
    }
  };

  /** Reads {@code {"results": [...], "nextCursor": "..."}}; {@code results} is required. */
  public static final JsonAdapter<SearchPage> PAGE = new ResponseAdapters.ReadOnlyAdapter<SearchPage>() {
    private final JsonReader.Options names = JsonReader.Options.of("results", "nextCursor");

    @Override
    public SearchPage fromJson(JsonReader reader) throws IOException {
      List<SearchResult> results = null;
      String nextCursor = null;
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.selectName(names)) {
          case 0:
            results = new ArrayList<>(Json.nextList(reader, RESULT));
            break;
          case 1:
            nextCursor = Json.nextStringOrNull(reader);
            break;
          default:
            reader.skipName();
            reader.skipValue();
        }
      }
      reader.endObject();
      if (results == null) throw new JsonDataException("search page without results at " + reader.getPath());
      return new SearchPage(results, nextCursor == null || nextCursor.isEmpty() ? null : nextCursor);
    }
  };
}
