package dev.svc.chat.reference;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The storage backend the REST and gateway suites run on, chosen by the system property
 * {@value #PROPERTY}: {@code memory} (the default), {@code h2} (each server in a fresh data directory under
 * {@code target/}) or {@code postgres} (each server in a fresh schema of one embedded PostgreSQL that this JVM
 * starts once and stops at exit). The build runs the suites once per backend.
 */
public final class Backends {

    /** The system property that names the backend. */
    public static final String PROPERTY = "svc.test.backend";

    private static final AtomicInteger COUNT = new AtomicInteger();
    private static Path h2Root;

    private Backends() {
    }

    /** Returns the backend of this run. */
    public static String current() {
        return System.getProperty(PROPERTY, "memory");
    }

    /** Returns a server builder on this run's backend, as fresh as an in-memory one. */
    public static ReferenceServer.Builder builder() {
        ReferenceServer.Builder builder = ReferenceServer.builder();
        switch (current()) {
            case "memory" -> {
            }
            case "h2" -> builder.dataDir(h2Root().resolve("server-" + COUNT.incrementAndGet()));
            case "postgres" -> {
                EmbeddedPg pg = EmbeddedPg.shared();
                builder.databaseUrl(pg.jdbcUrl(), pg.user(), null)
                        .databaseSchema("suite_" + ProcessHandle.current().pid() + "_" + COUNT.incrementAndGet());
            }
            default -> throw new IllegalArgumentException(PROPERTY + " must be memory, h2 or postgres: " + current());
        }
        return builder;
    }

    private static synchronized Path h2Root() {
        if (h2Root == null) {
            try {
                Files.createDirectories(Path.of("target"));
                h2Root = Files.createTempDirectory(Path.of("target"), "h2-suites-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Path root = h2Root;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(root), "h2-suites-cleanup"));
        }
        return h2Root;
    }

    /** Deletes a directory tree, ignoring what cannot be deleted. */
    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort at exit
        }
    }
}
