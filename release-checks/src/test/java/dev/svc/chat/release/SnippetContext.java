package dev.svc.chat.release;

import dev.svc.chat.ChatClient;
import dev.svc.chat.Message;
import java.util.List;
import java.util.Map;
import java.util.Set;
import okhttp3.CookieJar;

/**
 * What the documents' snippets take from the reader's app: the names they use without declaring them. Each
 * snippet is compiled in a subclass (see {@link DocSnippetsCompileTest}).
 */
@SuppressWarnings("unused")
public abstract class SnippetContext {
  protected ChatClient client;
  protected String apiUrl;
  protected String roomId;
  protected String userId;
  protected String me;
  protected List<String> users;
  protected String fcmToken;
  protected long lastSeenRev;
  protected List<Message> list;
  protected String rawBody;
  protected Map<String, String> headers;
  protected CookieJar appCookies;
  protected android.content.Context context;
  protected Adapter adapter;
  /** A tenant backend's signed-in user, from its own login. */
  protected String signedInUserId;
  protected String displayName;

  protected abstract String tokenOf(String user);

  protected abstract void show(Object what);

  protected abstract void showOnline(Set<String> users);

  protected abstract void showError(Throwable error);

  protected abstract void status(Object... parts);

  protected abstract void banner(Object... parts);

  protected abstract void log(Object what);

  protected abstract void render(ChatClient client);

  /** A tenant backend's answer to its app. */
  protected abstract void reply(Object... parts);

  /** A list view's adapter. */
  public interface Adapter {
    /** Shows the messages. */
    void submitList(List<Message> messages);
  }
}
