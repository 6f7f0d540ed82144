package dev.svc.chat.it;

import dev.svc.chat.it.faults.FaultProxy;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.transport.Transport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 8's acceptance test: the {@link ChaosRun} workload (six users in four overlapping rooms, cuts, stalls and
 * token expiries, plain app code) against one reference server in memory, every client behind one
 * {@link FaultProxy}. {@link ChaosCrashTest} runs the same workload while servers die.
 *
 * <p>{@code -Dchaos.scale=N} multiplies the messages and the duration (default 1: 600 messages over 20 s);
 * {@code -Dchaos.seed=S} replays the workload's and the proxy's random choices. Tagged {@code chaos} so that it can
 * be left out with {@code -DexcludedGroups=chaos}.
 */
@Tag("chaos")
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class ChaosTest {
  private ReferenceServer server;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws Exception {
    // Heartbeats short enough that a stalled connection can be detected within the run (2 s + 2 s).
    // On the storage the build's system properties name (memory by default; see ChatFixture).
    server = ChatFixture.onConfiguredStorage(ReferenceServer.builder().port(0)
        .pingInterval(Duration.ofSeconds(2)).pingTimeout(Duration.ofSeconds(2))).build().start();
    proxy = FaultProxy.start("127.0.0.1", server.port(), ChaosRun.SEED, true);
  }

  @AfterEach
  void stop() {
    try {
      proxy.close();
    } finally {
      server.close();
    }
  }

  /** The clients' realtime transport: the default (OkHttp) here. */
  Transport transport() {
    return null;
  }

  /** The run's name in its report lines. */
  String runName() {
    return "memory";
  }

  @Test
  void everyClientEndsWithTheServersViewOfEveryRoomThroughCutsStallsAndTokenExpiries() throws Exception {
    ChaosRun.Servers servers = new ChaosRun.Servers(List.of(proxy), server.apiUrl(), server.apiKey());
    try (ChaosRun run = new ChaosRun(runName(), servers, transport())) {
      run.run(null);
    }
  }
}
