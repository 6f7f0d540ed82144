package dev.svc.chat.it;

import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.reference.EmbeddedPg;
import dev.svc.chat.reference.ReferenceServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link ChaosRun} workload (cuts, stalls, token expiries, edits, reactions, deletes, receipts) while servers
 * die under it, compared at the end like {@link ChaosTest}: every acknowledged send stored with the seq it was
 * acknowledged with, every send stored once, every client's view of every room equal to the server's (each
 * message once, in order, in its latest state).
 * <ul>
 *   <li>scenario E: the reference server on its SQLite data directory, in a child JVM, is killed with {@code kill -9}
 *       and restarted on the same directory three times during the run; its clients' proxy follows it to the
 *       new port (a restarted server behind the same address);</li>
 *   <li>a node of a two-node PostgreSQL cluster (a child JVM) is killed with {@code kill -9} half-way; the proxy of
 *       the clients that were on it moves them to the surviving node, as a load balancer does.</li>
 * </ul>
 * A send that was not acknowledged when its server died is retried by the SDK with the same
 * {@code clientMessageId}, so it is stored once.
 */
@Tag("chaos")
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class ChaosCrashTest {
  private static final String KEY = "sk_test_chaos_crash_0123456789";
  private static final String[] HEARTBEATS = {"--ping-interval", "2s", "--ping-timeout", "2s"};
  private static final int KILLS = 3;
  private static final Duration WAIT = Duration.ofMinutes(2);

  private final List<AutoCloseable> opened = new ArrayList<>();
  private volatile ServerChild server;

  @AfterEach
  void stop() throws Exception {
    Closing.inReverse(opened, server);
  }

  @Test
  void scenarioE_theServerIsKilledAndRestartedOnItsDataDirectoryUnderTheChaosClients(@TempDir Path dir) throws Exception {
    String[] args = withHeartbeats("--data-dir", dir.toString());
    server = ServerChild.start(KEY, args);
    FaultProxy faults = open(FaultProxy.start("127.0.0.1", server.port(), ChaosRun.SEED, true));
    // the tenant backend's and the final reading's way in: the same server, without faults
    FaultProxy front = open(FaultProxy.start("127.0.0.1", server.port(), ChaosRun.SEED, true));
    List<Integer> ports = new ArrayList<>(List.of(server.port()));
    try (ChaosRun run = new ChaosRun("scenario-E", new ChaosRun.Servers(List.of(faults), front.apiUrl(), KEY))) {
      run.run(r -> {
        for (int k = 1; k <= KILLS; k++) {
          if (!r.awaitSends(ChaosRun.totalSends() * k / (KILLS + 1), WAIT)) throw new AssertionError("the workload stalled");
          server.kill();
          System.out.println("ChaosCrashTest: kill -9 of the server on port " + server.port() + " (" + k + " of " + KILLS + ")");
          server = ServerChild.start(KEY, args);
          faults.retarget(server.port());
          front.retarget(server.port());
          ports.add(server.port());
        }
      });
    }
    System.out.println("ChaosCrashTest: scenario E ran the server on ports " + ports + " (" + KILLS + " kill -9)");
  }

  @Test
  void aNodeOfATwoNodePostgresClusterDiesUnderTheChaosClients() throws Exception {
    EmbeddedPg pg = EmbeddedPg.shared();
    String schema = "chaos_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
    ReferenceServer survivor = open(ReferenceServer.builder().port(0)
        .pingInterval(Duration.ofSeconds(2)).pingTimeout(Duration.ofSeconds(2))
        .databaseUrl(pg.jdbcUrl(), pg.user(), null).databaseSchema(schema).build().start());
    // the dying node: same database and schema, so the same tenant, key and token secret
    server = ServerChild.start(null, withHeartbeats(
        "--database-url", pg.jdbcUrl() + "?user=" + pg.user(), "--database-schema", schema));
    int dyingPort = server.port();
    // half of the clients prefer the dying node, the other half the survivor
    FaultProxy toDying = open(FaultProxy.start("127.0.0.1", dyingPort, ChaosRun.SEED, true));
    toDying.retarget(dyingPort, survivor.port());
    FaultProxy toSurvivor = open(FaultProxy.start("127.0.0.1", survivor.port(), ChaosRun.SEED + 1, true));
    try (ChaosRun run = new ChaosRun("cluster-node-death",
        new ChaosRun.Servers(List.of(toDying, toSurvivor), survivor.apiUrl(), survivor.apiKey()))) {
      run.run(r -> {
        if (!r.awaitSends(ChaosRun.totalSends() / 2, WAIT)) throw new AssertionError("the workload stalled");
        server.kill();
        System.out.println("ChaosCrashTest: kill -9 of the cluster node on port " + dyingPort);
      });
    }
  }

  private static String[] withHeartbeats(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of(HEARTBEATS));
    return all.toArray(new String[0]);
  }

  private <T extends AutoCloseable> T open(T closeable) {
    opened.add(closeable);
    return closeable;
  }
}
