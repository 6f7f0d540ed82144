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
 * {@value #PROPERTY}: {@code memory} (the default), {@code sqlite} (each server in a fresh data directory under
 * {@code target/}) or {@code postgres} (each server in a fresh schema of one embedded PostgreSQL that this JVM
 * starts once and stops at exit). The build runs the suites once per backend.
 */
public final class Backends {

    /** The system property that names the backend. */
    public static final String PROPERTY = "svc.test.backend";

    private static final AtomicInteger COUNT = new AtomicInteger();
    private static Path dataRoot;

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
            case "sqlite" -> builder.dataDir(dataRoot().resolve("server-" + COUNT.incrementAndGet()));
            case "postgres" -> {
                EmbeddedPg pg = EmbeddedPg.shared();
                builder.databaseUrl(pg.jdbcUrl(), pg.user(), null)
                        .databaseSchema("suite_" + ProcessHandle.current().pid() + "_" + COUNT.incrementAndGet());
            }
            default -> throw new IllegalArgumentException(PROPERTY + " must be memory, sqlite or postgres: " + current());
        }
        return builder;
    }

    private static synchronized Path dataRoot() {
        if (dataRoot == null) {
            try {
                Files.createDirectories(Path.of("target"));
                dataRoot = Files.createTempDirectory(Path.of("target"), "sqlite-suites-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Path root = dataRoot;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(root), "sqlite-suites-cleanup"));
        }
        return dataRoot;
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
