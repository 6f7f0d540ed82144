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
 *
 * <p>The server keeps its state in memory unless the system property {@code svc.it.data-dir} names a
 * directory (each fixture then gets a fresh SQLite database in a subdirectory of it) or {@code svc.it.database-url}
 * a PostgreSQL JDBC URL (each fixture then gets a fresh schema; user and password from {@code SVC_DB_USER}
 * and {@code SVC_DB_PASSWORD}), so that the SDK's suites can run on either durable backend.
 *
 * <p>With the system property {@value #TOPOLOGY} set to {@code cluster}, the fixture starts two servers (nodes)
 * from the same builder on one fresh schema of this JVM's embedded PostgreSQL, and its clients alternate
 * between them: client {@code i} (REST and socket) goes to node {@code i % 2}. {@link #server()} and the
 * admin are node 0. The build runs the suites built on this fixture in both topologies.
 */
final class ChatFixture implements AutoCloseable {
  /** The system property naming the topology: {@code single} (the default) or {@code cluster}. */
  static final String TOPOLOGY = "svc.it.topology";

  private final List<ChatClient> clients = new ArrayList<>();
  private final List<ReferenceServer> nodes = new ArrayList<>();
  private final ReferenceServer server;
  private final Admin admin;
  private int nextNode;

  private static final java.util.concurrent.atomic.AtomicInteger COUNT = new java.util.concurrent.atomic.AtomicInteger();

  ChatFixture(ReferenceServer.Builder builder) {
    try {
      if (isCluster()) {
        dev.svc.chat.reference.EmbeddedPg pg = dev.svc.chat.reference.EmbeddedPg.shared();
        builder.databaseUrl(pg.jdbcUrl(), pg.user(), null)
            .databaseSchema("cluster_" + ProcessHandle.current().pid() + "_" + COUNT.incrementAndGet());
        nodes.add(builder.build().start());
        nodes.add(builder.build().start());
      } else {
        nodes.add(onConfiguredStorage(builder).build().start());
      }
    } catch (RuntimeException | Error e) {
      nodes.forEach(ReferenceServer::close);
      throw e;
    }
    server = nodes.get(0);
    admin = new Admin(server.apiUrl(), server.apiKey());
  }

  /** Returns whether this run's fixtures are two-node clusters (see the class comment). */
  static boolean isCluster() {
    return "cluster".equals(System.getProperty(TOPOLOGY, "single"));
  }

  /** Points {@code builder} at the storage the system properties name (see the class comment). */
  static ReferenceServer.Builder onConfiguredStorage(ReferenceServer.Builder builder) {
    String dataDir = System.getProperty("svc.it.data-dir");
    String databaseUrl = System.getProperty("svc.it.database-url");
    String run = ProcessHandle.current().pid() + "_" + COUNT.incrementAndGet();
    if (dataDir != null && !dataDir.isEmpty()) {
      builder.dataDir(java.nio.file.Path.of(dataDir, "fixture_" + run));
    } else if (databaseUrl != null && !databaseUrl.isEmpty()) {
      builder.databaseUrl(databaseUrl, System.getenv("SVC_DB_USER"), System.getenv("SVC_DB_PASSWORD"))
          .databaseSchema("it_" + run);
    }
    return builder;
  }

  /** Node 0 (the only server in the single topology). */
  ReferenceServer server() {
    return server;
  }

  /** The servers: one, or the two nodes of a cluster. */
  List<ReferenceServer> nodes() {
    return List.copyOf(nodes);
  }

  Admin admin() {
    return admin;
  }

  /** A new, not yet connected client of this server, closed with the fixture. */
  ChatClient newClient() {
    ReferenceServer node = nodes.get(nextNode++ % nodes.size());
    return newClient(SvcOptions.builder(node.apiUrl()).build());
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
      // the nodes side by side: each waits a moment for its bus and presence threads to end
      nodes.stream().map(node -> java.util.concurrent.CompletableFuture.runAsync(node::close))
          .collect(java.util.stream.Collectors.toList())
          .forEach(java.util.concurrent.CompletableFuture::join);
    }
  }
}
