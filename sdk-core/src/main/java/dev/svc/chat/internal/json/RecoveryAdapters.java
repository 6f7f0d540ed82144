package dev.svc.chat.internal.json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.ChangesPage;
import dev.svc.chat.Message;
import dev.svc.chat.Receipt;

/**
 * The answers of the recovery routes: {@code {messages, rev, hasMore}} of the changes and {@code {receipts}}.
 * Unknown fields are skipped.
 */
public final class RecoveryAdapters {
  private RecoveryAdapters() {
  }

  /** Reads {@code {"messages": [Message...], "rev": n, "hasMore": bool}}; {@code rev} is required. */
  public static final JsonAdapter<ChangesPage> CHANGES_PAGE = new ResponseAdapters.ReadOnlyAdapter<ChangesPage>() {
    private final JsonReader.Options names = JsonReader.Options.of("messages", "rev", "hasMore");

    @Override
    public ChangesPage fromJson(JsonReader reader) throws IOException {
      List<Message> messages = new ArrayList<>();
      Long rev = null;
      boolean hasMore = false;
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.selectName(names)) {
          case 0:
            messages = Json.nextList(reader, MessageJsonAdapter.INSTANCE);
            break;
          case 1:
            rev = reader.nextLong();
            break;
          case 2:
            if (reader.peek() == JsonReader.Token.NULL) {
              reader.nextNull();
            } else {
              hasMore = reader.nextBoolean();
            }
            break;
          default:
            reader.skipName();
            reader.skipValue();
        }
      }
      reader.endObject();
      // Without the room's rev a client could not tell how far the page brought it.
      if (rev == null) throw new JsonDataException("changes without rev at " + reader.getPath());
      return new ChangesPage(messages, rev, hasMore);
    }
  };

  /** Reads {@code {"receipts": [Receipt...]}} into an unmodifiable list. */
  public static final JsonAdapter<List<Receipt>> RECEIPT_LIST =
      ResponseAdapters.listField("receipts", MessagingAdapters.RECEIPT);
}
