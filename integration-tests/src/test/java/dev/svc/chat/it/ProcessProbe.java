package dev.svc.chat.it;

import com.sun.management.UnixOperatingSystemMXBean;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Heap after a full GC, live threads and open file descriptors of one JVM: this one through its own platform
 * beans, another one on this machine through the local management agent the Attach API starts in it (one JMX
 * connection, kept open, so that its own threads and descriptors stay constant between samples).
 */
final class ProcessProbe implements AutoCloseable {
  /** One sample: bytes of heap in use after a full GC, live threads, open file descriptors (-1: unknown). */
  record Sample(long heapAfterGc, int threads, long descriptors) {
  }

  private final String name;
  private final JMXConnector connector;
  private final MemoryMXBean memory;
  private final OperatingSystemMXBean os;
  /** The threads a sample counts: all live ones ({@link ThreadMXBean}), or the selection of {@code self(name, count)}. */
  private final java.util.function.IntSupplier threadCount;

  private ProcessProbe(String name, JMXConnector connector, MemoryMXBean memory, ThreadMXBean threads,
      OperatingSystemMXBean os, java.util.function.IntSupplier threadCount) {
    this.name = name;
    this.threadCount = threadCount != null ? threadCount : threads::getThreadCount;
    this.connector = connector;
    this.memory = memory;
    this.os = os;
  }

  /** A probe of this JVM. */
  static ProcessProbe self(String name) {
    return self(name, null);
  }

  /** A probe of this JVM whose samples count the threads {@code threadCount} counts. */
  static ProcessProbe self(String name, java.util.function.IntSupplier threadCount) {
    return new ProcessProbe(name, null, ManagementFactory.getMemoryMXBean(), ManagementFactory.getThreadMXBean(),
        ManagementFactory.getOperatingSystemMXBean(), threadCount);
  }

  /** A probe of the JVM with this process id, which must run as this user on this machine. */
  static ProcessProbe attach(String name, long pid) throws Exception {
    VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
    String address;
    try {
      address = vm.startLocalManagementAgent();
    } finally {
      vm.detach();
    }
    JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
    MBeanServerConnection beans = connector.getMBeanServerConnection();
    return new ProcessProbe(name, connector,
        ManagementFactory.newPlatformMXBeanProxy(beans, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class),
        ManagementFactory.newPlatformMXBeanProxy(beans, ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class),
        ManagementFactory.newPlatformMXBeanProxy(beans, ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME,
            UnixOperatingSystemMXBean.class), null);
  }

  String name() {
    return name;
  }

  /** Runs a full GC in the JVM, then reads its heap in use, its live threads and its open descriptors. */
  Sample sample() {
    memory.gc();
    long descriptors = os instanceof UnixOperatingSystemMXBean unix ? unix.getOpenFileDescriptorCount() : -1;
    return new Sample(memory.getHeapMemoryUsage().getUsed(), threadCount.getAsInt(), descriptors);
  }

  @Override
  public void close() throws IOException {
    if (connector != null) connector.close();
  }
}
