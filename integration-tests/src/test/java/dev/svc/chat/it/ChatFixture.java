package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.await;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.reference.ReferenceServer;
import java.util.ArrayList;
import java.util.List;

/**
 * A started reference server, an {@link Admin} for its tenant and the SDK clients a test made through it.
 * Each test passes its own builder (clock, ring timeout, ...); {@link #close()} closes the clients, then the
 * server.
 */
final class ChatFixture implements AutoCloseable {
  private final List<ChatClient> clients = new ArrayList<>();
  private final ReferenceServer server;
  private final Admin admin;

  ChatFixture(ReferenceServer.Builder builder) {
    server = builder.build().start();
    admin = new Admin(server.apiUrl(), server.apiKey());
  }

  ReferenceServer server() {
    return server;
  }

  Admin admin() {
    return admin;
  }

  /** A new, not yet connected client of this server, closed with the fixture. */
  ChatClient newClient() {
    return newClient(SvcOptions.builder(server.apiUrl()).build());
  }

  /** A new, not yet connected client with these options (another apiUrl, such as a proxy's), closed with the fixture. */
  ChatClient newClient(SvcOptions options) {
    ChatClient c = Svc.init(options);
    clients.add(c);
    return c;
  }

  /** A connected client of {@code userId}; each call is a new connection (a new device). */
  ChatClient connected(String userId) throws Exception {
    ChatClient c = newClient();
    await(c.connect(userId, admin.mint(userId)));
    return c;
  }

  /** A handler recording the {@code type} events {@code client} receives. */
  static <T> RecordingHandler<T> record(ChatClient client, EventType<T> type) {
    RecordingHandler<T> handler = new RecordingHandler<>();
    client.on(type, handler);
    return handler;
  }

  @Override
  public void close() {
    try {
      clients.forEach(ChatClient::close);
    } finally {
      server.close();
    }
  }
}
