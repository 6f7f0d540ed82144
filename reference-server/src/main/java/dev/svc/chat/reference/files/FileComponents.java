package dev.svc.chat.reference.files;

import dev.svc.chat.reference.http.Credentials;
import dev.svc.chat.reference.store.Database;
import dev.svc.chat.reference.store.Store;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of a server: the storage its options ask for (the data directory's {@code files/}, PostgreSQL, or
 * memory within a budget), the {@link UploadService}, the routes, and the sweep of expired uploads on a timer.
 * Three settings are system properties, read at start: {@value #MEMORY_BUDGET_PROPERTY} (bytes, default 256
 * MiB), {@value #PATCH_IDLE_PROPERTY} (how long a PATCH may send nothing, default 30 s) and
 * {@value #SWEEP_PROPERTY} (how often the sweep runs, default 60 s).
 */
public final class FileComponents implements AutoCloseable {

    /** The system property of the memory backend's budget for uploads, in bytes. */
    public static final String MEMORY_BUDGET_PROPERTY = "svc.files.memoryBudgetBytes";
    /** The system property of a PATCH's idle timeout, in milliseconds. */
    public static final String PATCH_IDLE_PROPERTY = "svc.files.patchIdleMillis";
    /** The system property of the sweep's period, in milliseconds. */
    public static final String SWEEP_PROPERTY = "svc.files.sweepMillis";

    private static final Logger LOG = LoggerFactory.getLogger(FileComponents.class);

    private final FileStorage storage;
    private final UploadService uploads;
    private final Duration patchIdle = Duration.ofMillis(Long.getLong(PATCH_IDLE_PROPERTY, 30_000));
    private final ScheduledThreadPoolExecutor sweeper;

    private FileComponents(FileStorage storage, Store store, Clock clock) {
        this.storage = storage;
        this.uploads = new UploadService(storage, store, clock);
        this.sweeper = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "svc-ref-file-sweep");
            t.setDaemon(true);
            return t;
        });
        long every = Long.getLong(SWEEP_PROPERTY, 60_000);
        sweeper.scheduleWithFixedDelay(this::sweep, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * Opens the files of a server: in {@code dataDir}'s {@code files/} when it is not null, else in {@code
     * postgres} when it is not null, else in memory.
     */
    public static FileComponents open(Path dataDir, Database postgres, Store store, Clock clock) {
        FileStorage storage;
        if (dataDir != null) {
            storage = DirectoryFileStorage.open(dataDir);
        } else if (postgres != null) {
            storage = new PgFileStorage(postgres);
        } else {
            storage = new MemoryFileStorage(Long.getLong(MEMORY_BUDGET_PROPERTY, 256L * 1024 * 1024));
        }
        return new FileComponents(storage, store, clock);
    }

    /** Returns the service, which also fills in the {@code file} parts of messages. */
    public UploadService uploads() {
        return uploads;
    }

    /** Installs {@code /v1/uploads} (tus) and {@code /v1/files/} on {@code app}. */
    public void install(Javalin app, Credentials credentials) {
        TusHandler tus = new TusHandler(credentials, uploads, patchIdle);
        DownloadHandler download = new DownloadHandler(credentials, uploads);
        app.options("/v1/uploads", tus::options);
        app.post("/v1/uploads", tus::create);
        app.head("/v1/uploads/{fileId}", tus::head);
        app.patch("/v1/uploads/{fileId}", tus::patch);
        app.delete("/v1/uploads/{fileId}", tus::delete);
        app.get("/v1/files/{fileId}", download::file);
        app.get("/v1/files/{fileId}/thumbnail", download::thumbnail);
    }

    /**
     * Answers {@code GET .../thumbnail?size=N} of a complete file of {@code tenantId} with the headers of the
     * user route, for a caller that checked the tenant's API key (the dev API); 404 for any other file.
     */
    public void tenantThumbnail(Context ctx, String tenantId) {
        int size = DownloadHandler.size(ctx.queryParam("size"));
        DownloadHandler.thumbnail(ctx, uploads, uploads.ofTenant(tenantId, ctx.pathParam("fileId")), size);
    }

    private void sweep() {
        try {
            int deleted = uploads.sweep();
            if (deleted > 0) {
                LOG.info("deleted {} expired or unreferenced uploads", deleted);
            }
        } catch (RuntimeException e) {
            LOG.warn("the sweep of expired uploads failed; it runs again", e);
        }
    }

    /** Stops the sweep and releases the storage (not the database, which the server closes). */
    @Override
    public void close() {
        sweeper.shutdownNow();
        try {
            sweeper.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        storage.close();
    }
}
