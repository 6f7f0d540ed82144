package dev.svc.chat.bench.support;

import com.sun.tools.attach.VirtualMachine;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The bytes another JVM of this machine allocated, thread by thread, which holds under load (unlike a pause or a
 * latency): attached once through the JDK's attach API, which starts that JVM's local management agent, then read
 * through its {@code com.sun.management.ThreadMXBean} ({@code getThreadAllocatedBytes}) at each snapshot. A
 * snapshot sums the threads alive at that moment, so a thread that ended between two snapshots takes its bytes
 * with it (the SDK's and the server's pools keep their threads while messages flow). The agent's own threads
 * (RMI, the connection's) wake only when a snapshot is read, outside a measured window's messages. Without
 * attach (another user's JVM, {@code -XX:+DisableAttachMechanism}) every count is -1.
 */
public final class JvmAllocation implements AutoCloseable {
    private final JMXConnector connector;
    private final com.sun.management.ThreadMXBean threads;

    private JvmAllocation(JMXConnector connector, com.sun.management.ThreadMXBean threads) {
        this.connector = connector;
        this.threads = threads;
    }

    /** Attaches to the JVM of process {@code pid}; on failure, returns one whose counts are all -1. */
    public static JvmAllocation attach(long pid) {
        try {
            VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
            String address;
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
            JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
            com.sun.management.ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(
                    connector.getMBeanServerConnection(), ManagementFactory.THREAD_MXBEAN_NAME,
                    com.sun.management.ThreadMXBean.class);
            return new JvmAllocation(connector, threads);
        } catch (Exception | LinkageError e) {
            System.err.println("no allocation counts for process " + pid + ": " + e);
            return new JvmAllocation(null, null);
        }
    }

    /** Returns the bytes allocated so far by the threads alive now, or -1 without counts. */
    public long total() {
        if (threads == null) {
            return -1;
        }
        try {
            long sum = 0;
            for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
                sum += Math.max(0, bytes);
            }
            return sum;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * Returns the bytes allocated so far by the threads alive now, summed by thread name with its digits dropped
     * (a pool's threads count together), for finding which threads allocate per message; empty without counts.
     */
    public Map<String, Long> byThread() {
        Map<String, Long> byName = new TreeMap<>();
        if (threads == null) {
            return byName;
        }
        try {
            long[] ids = threads.getAllThreadIds();
            long[] bytes = threads.getThreadAllocatedBytes(ids);
            java.lang.management.ThreadInfo[] infos = threads.getThreadInfo(ids);
            for (int i = 0; i < ids.length; i++) {
                if (infos[i] != null && bytes[i] > 0) {
                    byName.merge(infos[i].getThreadName().replaceAll("[0-9]+", "#"), bytes[i], Long::sum);
                }
            }
        } catch (RuntimeException e) {
            byName.clear();
        }
        return byName;
    }

    /** Returns {@code bytes} per message as "12.3 KB" (1,000 bytes), or "-" without counts. */
    public static String perMessage(long bytes, int messages) {
        if (bytes < 0 || messages <= 0) {
            return "-";
        }
        return String.format(java.util.Locale.ROOT, "%.1f KB", bytes / 1000.0 / messages);
    }

    @Override
    public void close() {
        if (connector != null) {
            try {
                connector.close();
            } catch (java.io.IOException e) {
                // the JVM ended first
            }
        }
    }
}
