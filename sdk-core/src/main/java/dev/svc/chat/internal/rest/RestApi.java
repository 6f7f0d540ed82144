package dev.svc.chat.internal.rest;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import dev.svc.chat.ApiException;
import dev.svc.chat.CallKind;
import dev.svc.chat.ChangesPage;
import dev.svc.chat.ChatException;
import dev.svc.chat.ChatStateException;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePage;
import dev.svc.chat.MessagePart;
import dev.svc.chat.MessageQuery;
import dev.svc.chat.PushPlatform;
import dev.svc.chat.Receipt;
import dev.svc.chat.Room;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.TransportException;
import dev.svc.chat.internal.auth.Credentials;
import dev.svc.chat.internal.util.Log;
import dev.svc.chat.internal.util.OpenSet;
import dev.svc.chat.internal.util.Scheduler;
import dev.svc.chat.internal.util.SharedHttpClients;
import dev.svc.chat.internal.json.CallJsonAdapter;
import dev.svc.chat.internal.json.Json;
import dev.svc.chat.internal.json.MessageJsonAdapter;
import dev.svc.chat.internal.json.MessagingAdapters;
import dev.svc.chat.internal.json.RecoveryAdapters;
import dev.svc.chat.internal.json.ResponseAdapters;
import dev.svc.chat.internal.json.SearchAdapters;
import dev.svc.chat.internal.json.SendLinks;
import dev.svc.chat.internal.json.ServiceError;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The session-token REST routes of contract section 4. Answers are read with the hand-written adapters;
 * a non-2xx answer becomes an {@link dev.svc.chat.ApiException}. Futures complete on the thread that has the
 * answer (an OkHttp thread, or the caller's for a call refused at once), never on the app's callback executor:
 * the SDK's own callers (the outbox, recovery) post them to the client's actor, and only the public boundary
 * ({@code RealChatClient}) hands them to the callback executor. So the SDK's work is never paced by the app's
 * thread, and a handler that blocks on a client future cannot stall it.
 */
public final class RestApi {
  /** Attempts of an idempotent send after the first, on transport failures only. */
  static final int SEND_RETRIES = 2;
  private static final long RETRY_DELAY_MILLIS = 250;
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
  /** Marks answers whose body is not read (204, or a 201 the SDK does not need). */
  private static final JsonAdapter<Void> NO_BODY = new JsonAdapter<Void>() {
    @Override
    public Void fromJson(JsonReader reader) {
      throw new UnsupportedOperationException("not read");
    }

    @Override
    public void toJson(com.squareup.moshi.JsonWriter writer, Void value) {
      throw new UnsupportedOperationException("not written");
    }
  };

  /** Reads a 2xx answer; runs on the OkHttp thread that has it, and may stream its body. */
  public interface AnswerReader<T> {
    /** Returns what the answer means; an {@link IOException} counts as the network's failure. */
    T read(Response response) throws IOException;
  }

  /** Idempotent requests (GETs, sends): OkHttp may send them again on a connection that failed. */
  private final OkHttpClient http;
  /**
   * Requests that must not be repeated when their outcome is unknown (a reaction toggle, an edit, a call's
   * moves): derived from {@link #http}, whose pool and dispatcher it shares, with OkHttp's retry on connection
   * failure off, which would otherwise send them again after a pooled connection dropped mid-request.
   */
  private final OkHttpClient once;
  private final HttpUrl apiUrl;
  /** The token of every request, and the refresh after a {@code 401 token_expired}. */
  private final Credentials credentials;
  private final Scheduler timers;
  private final Log log;
  private final Set<Call> inFlight = new OpenSet<>();
  /** Results not yet complete, failed by {@link #close()} so none is left hanging. */
  private final Set<CompletableFuture<?>> open = new OpenSet<>();
  private volatile boolean closed;

  public RestApi(OkHttpClient http, HttpUrl apiUrl, Credentials credentials, Scheduler timers, Log log) {
    this.http = http;
    this.once = http.newBuilder().retryOnConnectionFailure(false).build(); // a derived client: http is untouched
    this.apiUrl = apiUrl;
    this.credentials = credentials;
    this.timers = timers;
    this.log = log;
  }

  /** {@code GET /v1/chat/rooms}. */
  public CompletableFuture<List<Room>> listRooms() {
    HttpUrl url = apiUrl.newBuilder().addPathSegments("chat/rooms").build();
    return call(new Request.Builder().url(url).get(), ResponseAdapters.ROOM_LIST, 0);
  }

  /** {@code GET /v1/chat/rooms/{roomId}/messages?limit=&before=&after=&threadId=&mainOnly=}. */
  public CompletableFuture<MessagePage> getMessages(String roomId, MessageQuery query) {
    HttpUrl.Builder url = apiUrl.newBuilder().addPathSegments("chat/rooms").addPathSegment(roomId)
        .addPathSegment("messages").addQueryParameter("limit", Integer.toString(query.limit()));
    if (query.before() != null) url.addQueryParameter("before", Long.toString(query.before()));
    if (query.after() != null) url.addQueryParameter("after", Long.toString(query.after()));
    if (query.threadId() != null) url.addQueryParameter("threadId", query.threadId());
    if (query.mainOnly()) url.addQueryParameter("mainOnly", "true");
    return call(new Request.Builder().url(url.build()).get(), ResponseAdapters.MESSAGE_PAGE, 0);
  }

  /**
   * {@code POST /v1/chat/rooms/{roomId}/messages}, one attempt (after a token refresh, two): the outbox owns
   * the retries. The {@code senderId} is the user the app connected as: a token of another user is refused
   * with 403.
   */
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts, String clientMessageId,
      String senderId) {
    return sendMessage(roomId, parts, SendLinks.NONE, clientMessageId, senderId);
  }

  /** {@link #sendMessage(String, List, String, String)} with the send's reply, thread and mentions. */
  public CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts, SendLinks links,
      String clientMessageId, String senderId) {
    HttpUrl url = apiUrl.newBuilder().addPathSegments("chat/rooms").addPathSegment(roomId)
        .addPathSegment("messages").build();
    RequestBody body = RequestBody.create(ResponseAdapters.sendMessageBody(parts, links, clientMessageId, senderId), JSON);
    return call(new Request.Builder().url(url).post(body), MessageJsonAdapter.INSTANCE, 0);
  }

  /** {@code POST /v1/chat/rooms/{roomId}/calls} with {@code {kind}}. */
  public CompletableFuture<dev.svc.chat.Call> startCall(String roomId, CallKind kind) {
    HttpUrl url = apiUrl.newBuilder().addPathSegments("chat/rooms").addPathSegment(roomId)
        .addPathSegment("calls").build();
    RequestBody body = RequestBody.create(Json.object("kind", kind.wireName()), JSON);
    return callOnce(new Request.Builder().url(url).post(body), CallJsonAdapter.INSTANCE);
  }

  /** {@code POST /v1/calls/{callId}/<action>} for {@code accept}, {@code decline} and {@code end}. */
  public CompletableFuture<dev.svc.chat.Call> moveCall(String callId, String action) {
    HttpUrl url = apiUrl.newBuilder().addPathSegment("calls").addPathSegment(callId).addPathSegment(action).build();
    return callOnce(new Request.Builder().url(url).post(RequestBody.create(new byte[0], null)),
        CallJsonAdapter.INSTANCE);
  }

  /** {@code GET /v1/chat/rooms/{roomId}/calls/active}; a 404 {@code not_found} completes with null. */
  public CompletableFuture<dev.svc.chat.Call> getActiveCall(String roomId) {
    HttpUrl url = apiUrl.newBuilder().addPathSegments("chat/rooms").addPathSegment(roomId)
        .addPathSegments("calls/active").build();
    CompletableFuture<dev.svc.chat.Call> answer = call(new Request.Builder().url(url).get(),
        CallJsonAdapter.INSTANCE, 0);
    final CompletableFuture<dev.svc.chat.Call> result = new CompletableFuture<>();
    answer.whenComplete(new java.util.function.BiConsumer<dev.svc.chat.Call, Throwable>() {
      @Override
      public void accept(dev.svc.chat.Call value, Throwable error) {
        if (error == null) {
          result.complete(value);
        } else if (error instanceof ApiException && ((ApiException) error).status() == 404
            && "not_found".equals(((ApiException) error).code())) {
          result.complete(null);
        } else {
          result.completeExceptionally(error);
        }
      }
    });
    return result;
  }

  /** {@code POST /v1/push/devices} with {@code {token, platform}}. */
  public CompletableFuture<Void> registerDeviceToken(String token, PushPlatform platform) {
    HttpUrl url = apiUrl.newBuilder().addPathSegments("push/devices").build();
    String json = "{\"token\":" + Json.string(token) + ",\"platform\":" + Json.string(platform.wireName()) + "}";
    return call(new Request.Builder().url(url).post(RequestBody.create(json, JSON)), NO_BODY, 0);
  }

  /** {@code DELETE /v1/push/devices/{token}}. */
  public CompletableFuture<Void> unregisterDeviceToken(String token) {
    HttpUrl url = apiUrl.newBuilder().addPathSegments("push/devices").addPathSegment(token).build();
    return call(new Request.Builder().url(url).delete(), NO_BODY, 0);
  }

  /**
   * {@code PATCH /v1/chat/rooms/{roomId}/messages/{messageId}}; never sent again once it may have reached the
   * service: repeated later, an old edit could overwrite a newer one.
   */
  public CompletableFuture<Message> updateMessage(String roomId, String messageId, List<MessagePart> parts) {
    return updateMessage(roomId, messageId, parts, null);
  }

  /** {@link #updateMessage(String, String, List)} that also replaces the mentions ({@code null}: kept). */
  public CompletableFuture<Message> updateMessage(String roomId, String messageId, List<MessagePart> parts,
      List<String> mentions) {
    RequestBody body = RequestBody.create(MessagingAdapters.partsBody(parts, mentions), JSON);
    return callOnce(new Request.Builder().url(messageUrl(roomId, messageId).build()).patch(body),
        MessageJsonAdapter.INSTANCE);
  }

  /** {@code GET /v1/chat/rooms/{roomId}/messages/{messageId}}: one message, deleted or not (404 when unknown). */
  public CompletableFuture<Message> getMessage(String roomId, String messageId) {
    return call(new Request.Builder().url(messageUrl(roomId, messageId).build()).get(), MessageJsonAdapter.INSTANCE,
        0);
  }

  /** {@code DELETE /v1/chat/rooms/{roomId}/messages/{messageId}}; retried on transport failures (idempotent). */
  public CompletableFuture<Message> deleteMessage(String roomId, String messageId) {
    return call(new Request.Builder().url(messageUrl(roomId, messageId).build()).delete(),
        MessageJsonAdapter.INSTANCE, SEND_RETRIES);
  }

  /** {@code POST .../messages/{messageId}/reactions}; never sent again: a toggle repeated undoes itself. */
  public CompletableFuture<Message> toggleReaction(String roomId, String messageId, String emoji) {
    RequestBody body = RequestBody.create(dev.svc.chat.internal.json.Json.object("emoji", emoji), JSON);
    return callOnce(new Request.Builder().url(messageUrl(roomId, messageId).addPathSegment("reactions").build())
        .post(body), MessageJsonAdapter.INSTANCE);
  }

  /** {@code POST /v1/chat/rooms/{roomId}/read}; retried on transport failures (receipts never go back). */
  public CompletableFuture<Receipt> markRead(String roomId, String messageId) {
    HttpUrl url = apiUrl.newBuilder().addPathSegments("chat/rooms").addPathSegment(roomId)
        .addPathSegment("read").build();
    RequestBody body = RequestBody.create(dev.svc.chat.internal.json.Json.object("messageId", messageId), JSON);
    return call(new Request.Builder().url(url).post(body), MessagingAdapters.RECEIPT, SEND_RETRIES);
  }

  /** {@code GET /v1/presence}. */
  public CompletableFuture<List<String>> getPresence() {
    HttpUrl url = apiUrl.newBuilder().addPathSegment("presence").build();
    return call(new Request.Builder().url(url).get(), MessagingAdapters.ONLINE, 0);
  }

  /** {@code GET /v1/chat/rooms/{roomId}/changes?since=&limit=}. */
  public CompletableFuture<ChangesPage> getChanges(String roomId, long since, int limit) {
    HttpUrl url = apiUrl.newBuilder().addPathSegments("chat/rooms").addPathSegment(roomId)
        .addPathSegment("changes").addQueryParameter("since", Long.toString(since))
        .addQueryParameter("limit", Integer.toString(limit)).build();
    return call(new Request.Builder().url(url).get(), RecoveryAdapters.CHANGES_PAGE, 0);
  }

  /** {@code GET /v1/search/messages?q=&roomId=&senderId=&threadId=&limit=&cursor=}. */
  public CompletableFuture<SearchPage> searchMessages(SearchQuery query) {
    HttpUrl.Builder url = apiUrl.newBuilder().addPathSegments("search/messages")
        .addQueryParameter("q", query.text()).addQueryParameter("limit", Integer.toString(query.limit()));
    if (query.roomId() != null) url.addQueryParameter("roomId", query.roomId());
    if (query.senderId() != null) url.addQueryParameter("senderId", query.senderId());
    if (query.threadId() != null) url.addQueryParameter("threadId", query.threadId());
    if (query.cursor() != null) url.addQueryParameter("cursor", query.cursor());
    return call(new Request.Builder().url(url.build()).get(), SearchAdapters.PAGE, 0);
  }

  /** {@code GET /v1/chat/rooms/{roomId}/receipts}. */
  public CompletableFuture<List<Receipt>> getReceipts(String roomId) {
    HttpUrl url = apiUrl.newBuilder().addPathSegments("chat/rooms").addPathSegment(roomId)
        .addPathSegment("receipts").build();
    return call(new Request.Builder().url(url).get(), RecoveryAdapters.RECEIPT_LIST, 0);
  }

  /** Reads a JSON answer with {@code adapter} ({@link #NO_BODY}: nothing read). */
  private static <T> AnswerReader<T> json(final JsonAdapter<T> adapter) {
    return new AnswerReader<T>() {
      @Override
      public T read(Response response) throws IOException {
        if (adapter == NO_BODY) return null;
        ResponseBody body = response.body();
        if (body == null) throw new JsonDataException("empty body");
        T value = adapter.fromJson(JsonReader.of(body.source()));
        if (value == null) throw new JsonDataException("null body");
        return value;
      }
    };
  }

  /** Returns the API URL, {@code http(s)://host:port/v1}. */
  public HttpUrl apiUrl() {
    return apiUrl;
  }

  private HttpUrl.Builder messageUrl(String roomId, String messageId) {
    return apiUrl.newBuilder().addPathSegments("chat/rooms").addPathSegment(roomId)
        .addPathSegment("messages").addPathSegment(messageId);
  }

  /**
   * Closes the idle pooled connections to this client's API origin: after its gateway socket stalled (ping
   * timeout), as the path may have stalled for them too, and a call on one would wait out a read timeout. The
   * pool is the SDK's own for that origin ({@link SharedHttpClients#rest}): the app's other connections are
   * not touched.
   */
  public void evictIdleConnections() {
    SharedHttpClients.evictIdle(http);
  }

  /** Cancels the calls in flight; later calls fail at once. */
  public void close() {
    closed = true;
    for (Call c : inFlight) c.cancel();
    for (CompletableFuture<?> f : open) f.completeExceptionally(new TransportException("the client was closed"));
  }

  /**
   * Makes a request that must not be carried out twice: OkHttp does not send it again on a failed connection,
   * and a failure after it may have gone out (or a 2xx answer that could not be read) ends it with a
   * {@link TransportException} whose {@link TransportException#outcomeUnknown()} is true.
   */
  private <T> CompletableFuture<T> callOnce(Request.Builder request, JsonAdapter<T> adapter) {
    return call(request, adapter, 0, false);
  }

  private <T> CompletableFuture<T> call(Request.Builder request, JsonAdapter<T> adapter, int retries) {
    return call(request, adapter, retries, true);
  }

  /**
   * Makes a request; an {@code idempotent} one (the same outcome however often it is carried out: a GET, a send
   * the service deduplicates on its clientMessageId, a delete, a read receipt that never goes back) may be sent
   * again after a network failure, by OkHttp on a failed connection and here {@code retries} times.
   */
  private <T> CompletableFuture<T> call(Request.Builder request, JsonAdapter<T> adapter, int retries,
      boolean idempotent) {
    return exchange(request.header("Accept", "application/json"), json(adapter), retries, idempotent);
  }

  /**
   * Makes a request of another kind than JSON (the tus uploads and file downloads of contract section 9), with
   * the same token, refresh after a {@code 401 token_expired}, error bodies and retries as every REST call;
   * {@code reader} reads a 2xx answer.
   */
  public <T> CompletableFuture<T> exchange(Request.Builder request, AnswerReader<T> reader, int retries,
      boolean idempotent) {
    final CompletableFuture<T> result = new CompletableFuture<>();
    open.add(result);
    result.whenComplete(new java.util.function.BiConsumer<T, Throwable>() {
      @Override
      public void accept(T value, Throwable error) {
        open.remove(result);
      }
    });
    String token = credentials.token();
    if (closed) {
      result.completeExceptionally(new ChatStateException("the client is closed"));
    } else if (token == null) {
      result.completeExceptionally(new ChatStateException("call connect(userId, token) before any REST call"));
    } else {
      Request r = request.header("Authorization", "Bearer " + token).build();
      enqueue(r, reader, retries, true, idempotent, result);
    }
    return result;
  }

  /**
   * After a {@code 401 token_expired}: waits for the shared refresh and sends the request once more with the
   * new token. Returns false when there is no refresher (the caller fails the call with {@code error}). A refresh
   * refused fails the call with {@code error}; one that failed for now (RefreshFailures) with a
   * {@link TransportException}, so that a send is retried with its id rather than lost.
   */
  private <T> boolean retryAfterRefresh(final Request request, final AnswerReader<T> adapter,
      final int retriesLeft, final boolean idempotent, final ApiException error, final CompletableFuture<T> result) {
    String header = request.header("Authorization");
    String used = header != null && header.startsWith("Bearer ") ? header.substring(7) : null;
    if (!credentials.refreshes()) return false;
    CompletableFuture<String> fresh = credentials.refresh(used);
    log.info(request.method() + " " + request.url().encodedPath() + ": token expired; retrying after a refresh");
    fresh.whenComplete(new java.util.function.BiConsumer<String, Throwable>() {
      @Override
      public void accept(String token, Throwable refreshError) {
        Throwable cause = refreshError == null ? null : dev.svc.chat.internal.util.CallbackExecutor.unwrap(refreshError);
        if (cause != null && !dev.svc.chat.internal.auth.RefreshFailures.isRefusal(cause)) {
          // the refresher could not answer for now (a network error, its backend's 5xx): the call did not
          // happen, so it fails as a network failure would, and what retries those (the outbox) tries again
          result.completeExceptionally(new TransportException("the token expired and could not be refreshed yet ("
              + cause + ")", cause));
        } else if (cause != null || token == null) {
          result.completeExceptionally(error);
        } else {
          // the service refused the expired token: the request was not carried out, so it may go again
          enqueue(request.newBuilder().header("Authorization", "Bearer " + token).build(), adapter, retriesLeft,
              false, idempotent, result);
        }
      }
    });
    return true;
  }

  /**
   * The failure of a request that is not sent again: its outcome is unknown unless it surely never left (the
   * connection could not be made), or the client cancelled it.
   */
  private TransportException unknownOutcome(Request request, IOException e, Integer status) {
    String what = request.method() + " " + request.url().encodedPath();
    if (status != null) {
      return new TransportException(what + " was answered " + status + " but its answer could not be read ("
          + e.getMessage() + "): the outcome is unknown, and it is not sent again", e, true);
    }
    if (closed) return new TransportException(what + " failed: the client was closed", e, true);
    if (e instanceof java.net.ConnectException || e instanceof java.net.UnknownHostException) {
      return new TransportException(what + " failed: " + e.getMessage(), e, false);
    }
    return new TransportException(what + " failed (" + e.getMessage() + "): the outcome is unknown, and it is not"
        + " sent again", e, true);
  }

  private <T> void enqueue(final Request request, final AnswerReader<T> adapter, final int retriesLeft,
      final boolean mayRefresh, final boolean idempotent, final CompletableFuture<T> result) {
    if (closed) {
      result.completeExceptionally(new TransportException("the client was closed"));
      return;
    }
    final Call call = (idempotent ? http : once).newCall(request);
    inFlight.add(call);
    call.enqueue(new Callback() {
      @Override
      public void onFailure(Call c, IOException e) {
        inFlight.remove(c);
        if (!idempotent) {
          result.completeExceptionally(unknownOutcome(request, e, null));
          return;
        }
        if (retriesLeft > 0 && !closed && !c.isCanceled()) {
          log.info(request.method() + " " + request.url().encodedPath() + " failed (" + e + "); retrying");
          timers.schedule(new Runnable() {
            @Override
            public void run() {
              enqueue(request, adapter, retriesLeft - 1, mayRefresh, true, result);
            }
          }, RETRY_DELAY_MILLIS * (SEND_RETRIES - retriesLeft + 1));
          return;
        }
        result.completeExceptionally(new TransportException(request.method() + " " + request.url().encodedPath()
            + " failed: " + e.getMessage(), e));
      }

      @Override
      public void onResponse(Call c, Response response) {
        inFlight.remove(c);
        try (ResponseBody body = response.body()) {
          if (!response.isSuccessful()) {
            ApiException error = ServiceError.fromHttp(response.code(), body == null ? "" : body.string(),
                RetryAfter.millis(response));
            if (!(mayRefresh && error.isTokenExpired() && retryAfterRefresh(request, adapter, retriesLeft, idempotent,
                error, result))) {
              result.completeExceptionally(error);
            }
            return;
          }
          result.complete(adapter.read(response));
        } catch (JsonEncodingException e) {
          result.completeExceptionally(new ChatException("malformed answer to " + request.method() + " "
              + request.url().encodedPath() + ": " + e.getMessage(), e));
        } catch (IOException e) {
          if (idempotent) {
            onFailure(c, e);
          } else { // the service answered 2xx: the request was carried out, what it made is unknown
            result.completeExceptionally(unknownOutcome(request, e, response.code()));
          }
        } catch (JsonDataException | IllegalArgumentException | IllegalStateException e) {
          result.completeExceptionally(new ChatException("malformed answer to " + request.method() + " "
              + request.url().encodedPath() + ": " + e.getMessage(), e));
        }
      }
    });
  }
}
