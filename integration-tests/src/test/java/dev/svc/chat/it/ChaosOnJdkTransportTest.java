package dev.svc.chat.it;

import dev.svc.chat.transport.Transport;
import dev.svc.chat.transport.jdk.JdkTransport;
import org.junit.jupiter.api.Tag;

/**
 * {@link ChaosTest}'s workload (cuts, stalls and token expiries behind the fault proxy) with every client's realtime
 * socket on the JDK transport ({@code svc-chat-sdk-transport-jdk}); REST stays on OkHttp.
 */
@Tag("chaos")
class ChaosOnJdkTransportTest extends ChaosTest {
  @Override
  Transport transport() {
    return JdkTransport.shared();
  }

  @Override
  String runName() {
    return "memory-jdk";
  }
}
