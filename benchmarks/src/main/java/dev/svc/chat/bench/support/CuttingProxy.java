package dev.svc.chat.bench.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback that cuts its connections the way a phone's network drops: the client's side is
 * reset (the client learns at once), while the server's side stays open and is never read again, as if the
 * packets were lost, until the server gives up on it (its ping timeout, or its outbound queue's hard limit).
 * The server-side socket has a small receive buffer (16 KiB) so that a dead connection backs up into the
 * server's queue within seconds, as a congested radio link does, instead of into megabytes of loopback buffers.
 * Cuts on command ({@link #cutAll()}, or {@link #resetAll()} on both sides) or every 0.2 to 1.2 s at random
 * ({@link #startCutting(long)}); counts the bytes its clients send ({@link #bytesUp()}). The benchmarks' own copy: integration-tests' {@code FaultProxy} is test code of another module.
 */
public final class CuttingProxy implements AutoCloseable {
    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final int upBuffer;
    private final List<Link> open = new CopyOnWriteArrayList<>();
    private final List<Socket> dead = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final AtomicInteger cuts = new AtomicInteger();
    private final AtomicLong bytesUp = new AtomicLong();
    private volatile boolean closed;
    private volatile Thread cutter;

    private CuttingProxy(String targetHost, int targetPort, int upBuffer) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.upBuffer = upBuffer;
        this.listener = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        start("accept", this::accept);
    }

    /** Starts a proxy to {@code apiUrl}'s host and port; its own {@link #apiUrl()} goes through it. */
    public static CuttingProxy to(String apiUrl) throws IOException {
        return to(apiUrl, 0);
    }

    /**
     * Starts a proxy to {@code apiUrl} whose server-side sockets hold at most about {@code upBuffer} bytes on their
     * way up (their send buffer; 0 leaves it to the system, which grows it to megabytes on loopback): what a network
     * holds in flight, which a reset on both sides loses.
     */
    public static CuttingProxy to(String apiUrl, int upBuffer) throws IOException {
        java.net.URI uri = java.net.URI.create(apiUrl);
        return new CuttingProxy(uri.getHost(), uri.getPort(), upBuffer);
    }

    /** Returns {@code http://127.0.0.1:<port>/v1}. */
    public String apiUrl() {
        return "http://127.0.0.1:" + listener.getLocalPort() + "/v1";
    }

    /** Returns how many connections were cut. */
    public int cuts() {
        return cuts.get();
    }

    /** Returns how many bytes the clients sent through the proxy (headers and bodies, every connection). */
    public long bytesUp() {
        return bytesUp.get();
    }

    /**
     * Resets every open connection on both sides, as a network that drops and both ends notice: the server's read
     * fails at once instead of waiting on a connection that will never send again. Returns how many were open.
     */
    public int resetAll() {
        int reset = 0;
        for (Link link : open) {
            reset++;
            open.remove(link);
            link.dead = true;
            cuts.incrementAndGet();
            for (Socket s : new Socket[] {link.client, link.server}) {
                try {
                    s.setSoLinger(true, 0);
                    s.close();
                } catch (IOException ignored) {
                    // already gone
                }
            }
        }
        return reset;
    }

    /** Cuts every open connection (the client's side reset, the server's side left open and unread). */
    public void cutAll() {
        for (Link link : open) {
            open.remove(link);
            link.dead = true;
            dead.add(link.server);
            cuts.incrementAndGet();
            try {
                link.client.setSoLinger(true, 0);
                link.client.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }

    /** Cuts every connection every 0.2 to 1.2 s (seeded) until {@link #stopCutting()}. */
    public void startCutting(long seed) {
        Random random = new Random(seed);
        cutter = start("cutter", () -> {
            try {
                while (!closed) {
                    Thread.sleep(200 + random.nextInt(1_001));
                    cutAll();
                }
            } catch (InterruptedException e) {
                // stopped
            }
        });
    }

    /** Stops the random cuts. */
    public void stopCutting() throws InterruptedException {
        Thread t = cutter;
        if (t != null) {
            t.interrupt();
            t.join(5_000);
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.setReceiveBufferSize(16 * 1024);
                if (upBuffer > 0) server.setSendBufferSize(upBuffer);
                server.connect(new InetSocketAddress(targetHost, targetPort));
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                Link link = new Link(client, server);
                open.add(link);
                start("up", () -> pump(link, client, server, bytesUp));
                start("down", () -> pump(link, server, client, new AtomicLong()));
            } catch (IOException e) {
                if (closed) return;
            }
        }
    }

    /** Copies {@code from} to {@code to} until either ends, counting; a cut link's server side is left open, unread. */
    private void pump(Link link, Socket from, Socket to, AtomicLong carried) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while (!link.dead && (n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                carried.addAndGet(n);
            }
            if (!link.dead) to.shutdownOutput();
        } catch (IOException e) {
            if (!link.dead) {
                open.remove(link);
                closeQuietly(link.client);
                closeQuietly(link.server);
            }
        }
    }

    private Thread start(String name, Runnable body) {
        Thread t = new Thread(body, "cutting-proxy-" + listener.getLocalPort() + "-" + name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
        return t;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        stopCutting();
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Link link : new ArrayList<>(open)) {
            closeQuietly(link.client);
            closeQuietly(link.server);
        }
        for (Socket s : dead) closeQuietly(s);
        for (Thread t : threads) t.join(5_000);
    }

    private static final class Link {
        final Socket client;
        final Socket server;
        volatile boolean dead;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }
    }
}
