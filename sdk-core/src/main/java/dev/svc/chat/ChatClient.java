package dev.svc.chat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A chat client for one user: REST operations and a realtime connection to the gateway. Create one with
 * {@link Svc#init(SvcOptions)}, call {@link #connect(String, String)} with a session token from the
 * tenant's backend, and {@link #close()} it when done.
 *
 * <p>Every method is thread-safe and returns at once. Returned futures complete on the callback executor
 * (see {@link SvcOptions.Builder#callbackExecutor}) and fail with a {@link ChatException}: an
 * {@link ApiException} when the service refused, a {@link TransportException} when the network failed, a
 * {@link ChatStateException} when the client's state did not allow the operation. The client's own work
 * (connection, recovery, sends) never waits for the callback executor, so a busy app thread delays only its
 * callbacks. A handler may block on a future this client returned ({@code get} or {@code join}: it gets the
 * outcome as soon as the client has it); a future derived from one ({@code thenApply}, ...) completes on the
 * callback executor after the blocking handler, so blocking on that from a handler waits for ever.
 */
public interface ChatClient extends ChatCalls, ChatFiles, ChatThreads, AutoCloseable {
  /**
   * Authenticates as {@code userId} with a session token and opens the realtime connection. Calling it
   * again with a new token (a refresh) reconnects with that token, keeping this client's handlers and its
   * joined room. The token is also used for every REST call from now on.
   *
   * <p>A client serves one user: once it connected as one user, a connect as another user is refused (the
   * future fails with a {@link ChatStateException}) and nothing of the first user's state changes. Close the
   * client and create a new one for the other user.
   *
   * <p>If the transport fails before the gateway accepted the handshake, the future fails with a
   * {@link TransportException} while the client keeps retrying in the background (state
   * {@link ConnectionState#RECONNECTING}).
   *
   * @param userId the user the token is for: 1 to 128 characters of {@code A-Z a-z 0-9 _ - . @ :}
   * @param token the session token (a JWT), never an API key
   * @return a future completed when the gateway accepted the handshake; failed with an
   *     {@link ApiException} ({@code unauthorized}, {@code token_expired}) when it refused
   * @throws IllegalArgumentException if {@code userId} is invalid, or {@code token} is empty or is an API
   *     key ({@code sk_...}): API keys never belong in client code
   */
  CompletableFuture<@Nullable Void> connect(String userId, String token);

  /**
   * Opens the offline store of {@code userId} and serves it without a token or a network: the room list (its first
   * snapshot {@link RoomList#fromStore()}, with the stored unread counts), {@link #listRooms()} and the pages
   * {@link #getMessages} finds whole in the store. The client stays {@link ConnectionState#DISCONNECTED} and asks
   * the service nothing until {@link #connect(String, String)} (with the same user) gives it a token; a read the
   * store cannot answer fails with a {@link ChatStateException} until then. Like {@code connect}, it binds the
   * client to {@code userId}. For an app started with no session yet: show the store at once, connect when the
   * session comes.
   *
   * @param userId the user whose store to open
   * @return a future completed once the store's state is served (the room list's first snapshot is on its way);
   *     failed with a {@link ChatStateException} when the client has no store
   *     ({@link SvcOptions.Builder#store}), is closed, or is bound to another user
   * @throws IllegalArgumentException if {@code userId} is invalid
   */
  default CompletableFuture<@Nullable Void> openOffline(String userId) {
    CompletableFuture<@Nullable Void> refused = new CompletableFuture<>();
    refused.completeExceptionally(new ChatStateException("this client has no offline store"));
    return refused;
  }

  /**
   * Replaces the session token of the connected user with a fresh one, as a {@link TokenRefresher}'s answer
   * does, without connecting or disconnecting: REST calls use it from now on, an open realtime connection
   * moves to it (make before break: the state stays {@link ConnectionState#CONNECTED} and no event is lost
   * or repeated), and a disconnected client keeps it for its next {@link #connect}. For apps (and the session
   * manager) that refresh the token on their own schedule, before it expires.
   *
   * @param token the new session token of the same user (a JWT), never an API key
   * @throws IllegalArgumentException if {@code token} is empty or is an API key
   * @throws ChatStateException before the first {@link #connect}, or after {@link #close()}
   */
  void updateToken(String token);

  /**
   * Closes the realtime connection politely (Socket.IO DISCONNECT, then a WebSocket close) and does not
   * reconnect. The token and the joined room are remembered for a later {@link #connect}. Handlers stay.
   *
   * @return a future completed once the client is {@link ConnectionState#DISCONNECTED}
   */
  CompletableFuture<@Nullable Void> disconnect();

  /**
   * Disconnects and releases everything the client created: its threads, and its OkHttp client's threads
   * and connections when the SDK created that client. Nothing that was given in {@link SvcOptions} is
   * shut down. Pending futures fail with a {@link TransportException} (or a {@link ChatStateException}
   * for operations that had not started), except what is kept for the next start: a send kept by the outbox
   * directory or the store completes with its pending message ({@code seq} 0), a read kept by the store with its
   * receipt marked {@link Receipt#pending()}. Later calls fail with a {@link ChatStateException}. It blocks
   * for at most about one second in all, while the WebSocket closes (a socket not closed by then is cancelled);
   * after it returns no thread of the client's remains. Calling it again does nothing.
   */
  @Override
  void close();

  /**
   * Ends the user's session on this device: closes the client (as {@link #close()}, but pending sends and reads fail,
   * as nothing is kept; nothing more is delivered) and deletes everything kept of the user on this device, the offline store
   * ({@link SvcOptions.Builder#store}) and the outbox directory's entries of the user. A new client must be made
   * for the next user. Without a store and an outbox directory it is {@link #close()}.
   *
   * @return a future completed once the data is deleted, or failed with a {@link ChatException} saying what
   *     could not be deleted
   */
  CompletableFuture<@Nullable Void> logout();

  /**
   * Subscribes to the user's room list: every room, most recently active first, each with its last visible
   * message and unread count ({@link RoomSummary} says the rule), and the total. The handler receives immutable
   * snapshots on the callback executor: the current one at once when the rooms are known (with an offline store,
   * read from it at the first {@link #connect}, even without a network; without one, after the client listed the
   * rooms), then one per change (events, recovery, the app's sends and {@link #markRead}, the counts read after a
   * listing); a burst of events gives one snapshot, and a handler never receives two equal snapshots in a row (a
   * reconnect that changed nothing gives none). The first subscription without a store lists the rooms and reads each room's receipt and
   * unread messages (a few requests per room).
   *
   * @param handler receives the snapshots
   * @return removes the handler
   */
  Subscription roomList(EventHandler<RoomList> handler);

  /**
   * Joins a room on the realtime connection, leaving the previously joined one: a connection has one
   * joined room, which typing and room presence apply to. The room is remembered and joined again after
   * every reconnect. Messages of all the user's rooms arrive whether joined or not.
   *
   * <p>While connecting or reconnecting the join waits for the connection.
   *
   * @param roomId the room id
   * @return a future with the joined room; failed with an {@link ApiException} ({@code forbidden},
   *     {@code not_found}) if the gateway refused, or a {@link ChatStateException} if the client is
   *     disconnected
   */
  CompletableFuture<Room> joinRoom(String roomId);

  /**
   * Leaves a room on the realtime connection, and forgets it as the joined room.
   *
   * @param roomId the room id
   * @return a future completed when the gateway acknowledged (at once when not connected)
   */
  CompletableFuture<@Nullable Void> leaveRoom(String roomId);

  /**
   * Lists the rooms the user is a member of.
   *
   * @return a future with the rooms
   */
  CompletableFuture<List<Room>> listRooms();

  /**
   * Fetches the latest 50 messages of a room.
   *
   * @param roomId the room id
   * @return a future with the page, in ascending seq order
   */
  CompletableFuture<MessagePage> getMessages(String roomId);

  /**
   * Fetches a page of a room's history.
   *
   * @param roomId the room id
   * @param query which page: latest, before a seq, or after a seq
   * @return a future with the page, in ascending seq order
   */
  CompletableFuture<MessagePage> getMessages(String roomId, MessageQuery query);

  /**
   * Sends a message with a new random {@code clientMessageId} (a UUID), through the outbox: see
   * {@link #sendMessage(String, List, String)}.
   *
   * @param roomId the room id
   * @param parts 1 to 10 parts
   * @return a future with the stored message
   */
  CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts);

  /**
   * Sends a message with the given {@code clientMessageId}, through the client's outbox. Sending again with the
   * same id returns the first message and emits nothing new, so an app may retry freely, but it need not:
   * the outbox retries with backoff and the same id on network errors, 5xx answers and {@code 429} (waiting
   * at least its {@code Retry-After}). Sends to one room are stored in call order: over REST one is in flight
   * at a time; over the socket, where the server offers it, up to 256 are in flight on the one ordered
   * connection, which the server handles in order (after a retryable failure the room's later sends wait and
   * follow the failed one again, in order). Rooms do not wait for each other. Sends are made only while
   * {@link ConnectionState#CONNECTED} and wait otherwise. The future fails with the
   * {@link ApiException} of any other refusal, with a {@link SendTimeoutException} after the deadline of
   * {@link SvcOptions.Builder#sendTimeoutMillis(long)} if one is set, and with a {@link ChatStateException}
   * before the first {@link #connect} or when the client is closed with the send in memory only. Pending sends are
   * listed by {@link #pendingSends()}, and kept across restarts with {@link SvcOptions.Builder#outboxDirectory} (or
   * the store): closed then, the future completes with the pending message ({@code seq} 0, the id the client
   * message id, as {@link PendingSend#pendingMessage()}), which goes out at the user's next connect.
   *
   * @param roomId the room id
   * @param parts 1 to 10 parts
   * @param clientMessageId 1 to 64 characters, unique per message (a UUID is best)
   * @return a future with the stored message
   */
  CompletableFuture<Message> sendMessage(String roomId, List<MessagePart> parts, String clientMessageId);

  /**
   * Returns the sends the outbox has not delivered yet, oldest first: waiting for the connection, for their
   * turn in their room, for a retry, or under way. Safe to call from any thread; the list is a snapshot.
   *
   * @return an unmodifiable list, empty when nothing is pending
   */
  List<PendingSend> pendingSends();

  /**
   * Returns the sends to {@code roomId} the outbox has not delivered yet, in the order they will go out.
   *
   * @param roomId the room id
   * @return an unmodifiable list, empty when nothing is pending for the room
   */
  default List<PendingSend> pendingSends(String roomId) {
    if (roomId == null) throw new NullPointerException("roomId == null");
    List<PendingSend> mine = new java.util.ArrayList<>();
    for (PendingSend p : pendingSends()) {
      if (p.roomId().equals(roomId)) mine.add(p);
    }
    return java.util.Collections.unmodifiableList(mine);
  }

  /**
   * Sends a message of one text part.
   *
   * @param roomId the room id
   * @param text the text, 1 to 4,000 characters
   * @return a future with the stored message
   */
  CompletableFuture<Message> sendText(String roomId, String text);

  /**
   * Replaces the parts of one of the user's own messages. Everyone in the room gets
   * {@link EventType#MESSAGE_UPDATED} with {@code editedAt} set. Parts equal to the current ones change
   * nothing. Transport failures are retried (an edit is idempotent).
   *
   * @param roomId the room id
   * @param messageId the message id
   * @param parts 1 to 10 parts
   * @return a future with the edited message; failed with an {@link ApiException} {@code forbidden} (not the
   *     author, or not a member), {@code not_found}, or {@code conflict} (the message was deleted)
   */
  CompletableFuture<Message> updateMessage(String roomId, String messageId, List<MessagePart> parts);

  /**
   * Deletes one of the user's own messages: a soft delete, the message stays with {@code deletedAt} set and
   * no parts or reactions, and everyone in the room gets {@link EventType#MESSAGE_UPDATED}. Deleting a
   * deleted message answers it again.
   *
   * @param roomId the room id
   * @param messageId the message id
   * @return a future with the deleted message; failed with an {@link ApiException} {@code forbidden} or
   *     {@code not_found}
   */
  CompletableFuture<Message> deleteMessage(String roomId, String messageId);

  /**
   * Adds the user's reaction {@code emoji} to a message, or removes it if the user had reacted with it.
   * Everyone in the room gets {@link EventType#MESSAGE_UPDATED}. Never retried: a repeated toggle would undo
   * itself.
   *
   * @param roomId the room id
   * @param messageId the message id
   * @param emoji the reaction, 1 to 32 characters (Unicode code points) without whitespace
   * @return a future with the message and its new reactions; failed with an {@link ApiException}
   *     {@code conflict} if the message was deleted
   */
  CompletableFuture<Message> toggleReaction(String roomId, String messageId, String emoji);

  /**
   * Marks a room read up to and including a message. Every member gets {@link EventType#ROOM_READ}. A
   * receipt never moves backwards: marking an older message answers the current receipt and notifies
   * nobody. The room list's unread count ({@link #roomList}) drops at once. A read the network failed (offline) is
   * kept, the latest per room, and sent when the next connection is accepted: the future completes then. If the
   * client is closed first, a read the offline store keeps ({@link SvcOptions.Builder#store}) is sent at the next
   * start and the future completes with it as {@link Receipt#pending()}; without a store the read is lost with the
   * client and the future fails with a {@link ChatStateException}.
   *
   * @param roomId the room id
   * @param messageId the newest message the user has seen
   * @return a future with the user's receipt of the room after the call, or the kept read marked pending
   */
  CompletableFuture<Receipt> markRead(String roomId, String messageId);

  /**
   * Fetches the messages of a room that changed after revision {@code since}: sent, edited, reacted to or
   * deleted, each once in its latest state, in ascending {@link Message#rev()} order, at most 100. It is how a
   * client recovers the edits, reactions and deletes it missed: pass the highest {@link Message#rev()} (or
   * {@link Room#rev()}) it has seen, and page on with the last message's rev while
   * {@link ChangesPage#hasMore()}.
   *
   * @param roomId the room id
   * @param since the revision the client is up to date with; 0 for every message of the room
   * @return a future with the page; failed with an {@link ApiException} {@code forbidden} (not a member) or
   *     {@code not_found}
   * @throws IllegalArgumentException if {@code since} is negative
   */
  CompletableFuture<ChangesPage> getChanges(String roomId, long since);

  /**
   * Fetches at most {@code limit} of the messages of a room that changed after revision {@code since}, as
   * {@link #getChanges(String, long)} does.
   *
   * @param roomId the room id
   * @param since the revision the client is up to date with; 0 for every message of the room
   * @param limit the most messages of the page, 1 to 100
   * @return a future with the page; failed with an {@link ApiException} {@code forbidden} (not a member) or
   *     {@code not_found}
   * @throws IllegalArgumentException if {@code since} is negative or {@code limit} is outside 1 to 100
   */
  CompletableFuture<ChangesPage> getChanges(String roomId, long since, int limit);

  /**
   * Fetches the current read receipt of every member of a room who has one: what the
   * {@link EventType#ROOM_READ} events missed while disconnected would have said.
   *
   * @param roomId the room id
   * @return a future with the receipts, unmodifiable, in the order of the room's members; failed with an
   *     {@link ApiException} {@code forbidden} (not a member) or {@code not_found}
   */
  CompletableFuture<List<Receipt>> getReceipts(String roomId);

  /**
   * Fetches who of the tenant is online now: the users with at least one session-token connection.
   * Follow changes with {@link EventType#TENANT_PRESENCE}, or use {@link Svc#createTenantPresenceTracker}.
   *
   * @return a future with the online user ids, sorted, unmodifiable
   */
  CompletableFuture<List<String>> getPresence();

  /**
   * Searches the messages of the user's current rooms by their words ({@code docs/search.md}), newest first;
   * page on with {@code query.after(page.nextCursor())}.
   *
   * @param query the words and what narrows them
   * @return a future with the page; failed with an {@link ApiException} {@code bad_request} (no word, or a
   *     cursor of another search), {@code forbidden} (a room the user is not in) or {@code not_found}
   */
  CompletableFuture<SearchPage> searchMessages(SearchQuery query);

  /**
   * Searches the messages the offline store holds, without the network, with the service's rules
   * ({@code docs/search.md}): the same words, newest first, snippets with the same marks, the user's current
   * rooms only. It finds only what the store holds (the messages the client received or read, within the store's
   * bounds); the page's {@link SearchPage#fromStore()} is true. Page on with {@code query.after(page.nextCursor())}
   * of a page this method gave.
   *
   * @param query the words and what narrows them
   * @return a future with the page; failed with an {@link ApiException} {@code bad_request} (no word, or a cursor
   *     this search did not give) as the service would, or a {@link ChatStateException} when the client has no
   *     store in use (none configured, not opened by {@code connect()} or {@code openOffline()} yet, or failed)
   */
  CompletableFuture<SearchPage> searchStored(SearchQuery query);

  /**
   * Tells the other people in the joined room that the user started or stopped typing. It applies only to
   * the room this connection joined; typing is ephemeral, so it is not queued while disconnected. Use
   * {@link ComposerTypingController} rather than calling this on every keystroke.
   *
   * @param roomId the joined room
   * @param isTyping whether the user is typing now
   * @return a future completed when the gateway acknowledged; failed with an {@link ApiException}
   *     {@code bad_request} if the room is not the joined one, or a {@link ChatStateException} when not
   *     connected
   */
  CompletableFuture<@Nullable Void> setTyping(String roomId, boolean isTyping);

  /**
   * Registers a handler for one type of event. Handlers run on the callback executor in arrival order.
   *
   * @param type the event type, such as {@link EventType#NEW_MESSAGE}
   * @param handler the handler
   * @param <T> the payload type
   * @return a subscription whose {@link Subscription#remove()} removes exactly this handler
   */
  @Override
  <T> Subscription on(EventType<T> type, EventHandler<T> handler);

  /**
   * Retries the realtime connection at once instead of waiting out the backoff delay: call it when the
   * platform reports that the network came back. While {@link ConnectionState#RECONNECTING} and waiting,
   * the next attempt starts now (and counts as an attempt); in any other state this does nothing. It never
   * connects a client that is disconnected, so it is safe to call at any time.
   */
  void reconnectNow();

  /**
   * Returns the connection state now.
   *
   * @return the state
   */
  ConnectionState state();

  /**
   * Returns the user given to the latest {@link #connect(String, String)}.
   *
   * @return the user id, or null before the first connect
   */
  @Nullable String userId();
}
