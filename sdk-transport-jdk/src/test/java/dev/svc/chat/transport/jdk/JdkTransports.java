package dev.svc.chat.transport.jdk;

import java.util.concurrent.Executor;

/** The JDK transport on the shared HttpClient with readers of a test's own. */
public final class JdkTransports {
  private JdkTransports() {
  }

  /** Returns a transport on the shared transport's HttpClient whose listeners run on {@code readers}. */
  public static JdkTransport on(Executor readers) {
    return JdkTransport.shared().with(readers, JdkTransport.CONNECT_TIMEOUT, JdkSocket.CLOSE_TIMEOUT_MILLIS);
  }
}
