package dev.svc.chat;

import dev.svc.chat.internal.util.ClientLoggers;
import dev.svc.chat.internal.RealChatClient;

/**
 * Creates chat clients: the entry point of the SDK, like the JS SDK's global {@code Svc}.
 *
 * <pre>{@code
 * ChatClient client = Svc.init(session.apiUrl());
 * client.connect(session.chatUserId(), session.token()).join();
 * client.on(EventType.NEW_MESSAGE, m -> show(m));
 * }</pre>
 */
public final class Svc {
  private Svc() {
  }

  /**
   * Creates a client with the given options. It does nothing on the network until
   * {@link ChatClient#connect(String, String)}.
   *
   * @param options the client's settings
   * @return a new client; close it when done
   */
  public static ChatClient init(SvcOptions options) {
    if (options == null) throw new NullPointerException("options == null");
    ChatClient client = new RealChatClient(options);
    // the helpers made on this client (presence tracker, typing controller) log through the client's logger
    ClientLoggers.register(client, options.logger());
    return client;
  }

  /**
   * Creates a client of the service at {@code apiUrl} with default settings.
   *
   * @param apiUrl the API base, {@code http(s)://host[:port]/v1}
   * @return a new client; close it when done
   * @throws IllegalArgumentException if the URL is not valid
   */
  public static ChatClient init(String apiUrl) {
    return init(SvcOptions.builder(apiUrl).build());
  }

  /**
   * Creates a live view of one room, like the JS SDK's {@code createRoomSubscription}: it joins the room
   * (waiting for the connection if needed), delivers the latest 50 messages oldest first to
   * {@link RoomSubscriptionListener#onInitialMessages}, then that room's new and updated messages, each
   * once. Call {@link RoomSubscription#destroy()} to remove its handlers.
   *
   * @param client the client
   * @param roomId the room
   * @param userId the client's user
   * @param listener receives the messages on the client's callback executor
   * @return the started subscription
   */
  public static RoomSubscription createRoomSubscription(ChatClient client, String roomId, String userId,
      RoomSubscriptionListener listener) {
    return createRoomSubscription(client, roomId, userId, RoomSubscription.DEFAULT_HISTORY_LIMIT, listener);
  }

  /**
   * Creates a live view of one room with a given amount of initial history; see
   * {@link #createRoomSubscription(ChatClient, String, String, RoomSubscriptionListener)}.
   *
   * @param client the client
   * @param roomId the room
   * @param userId the client's user
   * @param historyLimit how many of the latest messages to load first, 1 to 100
   * @param listener receives the messages on the client's callback executor
   * @return the started subscription
   */
  public static RoomSubscription createRoomSubscription(ChatClient client, String roomId, String userId,
      int historyLimit, RoomSubscriptionListener listener) {
    RoomSubscription subscription = new RoomSubscription(client, roomId, userId, historyLimit, listener);
    subscription.start();
    return subscription;
  }

  /**
   * Creates a live view of one thread: it joins the room, delivers the root and the latest 50 replies oldest first
   * to {@link ThreadSubscriptionListener#onInitialReplies}, then the thread's new and changed replies and the root's
   * changes (its reply count among them), each once. Call {@link ThreadSubscription#destroy()} to remove its
   * handlers.
   *
   * @param client the client
   * @param roomId the room of the thread
   * @param rootId the id of the thread's root
   * @param listener receives the thread on the client's callback executor
   * @return the started subscription
   */
  public static ThreadSubscription createThreadSubscription(ChatClient client, String roomId, String rootId,
      ThreadSubscriptionListener listener) {
    return createThreadSubscription(client, roomId, rootId, ThreadSubscription.DEFAULT_HISTORY_LIMIT, listener);
  }

  /**
   * Creates a live view of one thread with a given number of replies loaded first; see
   * {@link #createThreadSubscription(ChatClient, String, String, ThreadSubscriptionListener)}.
   *
   * @param client the client
   * @param roomId the room of the thread
   * @param rootId the id of the thread's root
   * @param historyLimit how many of the latest replies to load first, 1 to 100
   * @param listener receives the thread on the client's callback executor
   * @return the started subscription
   */
  public static ThreadSubscription createThreadSubscription(ChatClient client, String roomId, String rootId,
      int historyLimit, ThreadSubscriptionListener listener) {
    ThreadSubscription subscription = new ThreadSubscription(client, roomId, rootId, historyLimit, listener);
    subscription.start();
    return subscription;
  }

  /**
   * Creates a tracker of the tenant's online users, like the JS SDK's {@code createTenantPresenceTracker}:
   * a snapshot from {@link ChatClient#getPresence()} when connected, kept current by
   * {@link EventType#TENANT_PRESENCE}. Call {@link TenantPresenceTracker#destroy()} to remove its handlers.
   *
   * @param client the client
   * @param listener receives the set of online users whenever it changes
   * @return the started tracker
   */
  public static TenantPresenceTracker createTenantPresenceTracker(ChatClient client,
      TenantPresenceListener listener) {
    TenantPresenceTracker tracker = new TenantPresenceTracker(client, listener);
    tracker.start();
    return tracker;
  }
}
