package dev.svc.chat.testing;

import dev.svc.chat.SvcOptions;
import dev.svc.chat.transport.Transport;

/**
 * The transport the realtime tests run on: OkHttp's (the default) unless {@code -Dsvc.test.transport=jdk}, which
 * the module {@code sdk-transport-jdk} sets: its subclasses of this module's test classes (from the test-jar; say
 * {@code RealtimeOnJdkTransportTest}) run them on {@code JdkTransport.shared()}.
 */
public final class TestTransport {
  /** The property naming the transport: {@code okhttp} (or unset) or {@code jdk}. */
  public static final String PROPERTY = "svc.test.transport";

  private TestTransport() {
  }

  /** Returns the transport's name: {@code okhttp} or {@code jdk}. */
  public static String name() {
    return System.getProperty(PROPERTY, "okhttp");
  }

  /** Sets the transport the property names on {@code options}, and returns them. */
  public static SvcOptions.Builder on(SvcOptions.Builder options) {
    String name = name();
    if (name.equals("okhttp")) return options;
    if (!name.equals("jdk")) throw new IllegalArgumentException(PROPERTY + "=" + name + ": okhttp or jdk");
    try {
      Object shared = Class.forName("dev.svc.chat.transport.jdk.JdkTransport").getMethod("shared").invoke(null);
      return options.transport((Transport) shared);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the JDK transport is not on the test class path", e);
    }
  }
}
