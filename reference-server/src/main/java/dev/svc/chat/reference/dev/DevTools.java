package dev.svc.chat.reference.dev;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.store.Store;
import java.time.Clock;

/**
 * The dev API's state of one server: the faults tenants injected, their request logs, and the snapshot
 * exporter and importer. Nothing here outlives the process.
 */
public final class DevTools {

    private final DevFaults faults;
    private final DevRequestLog requestLog = new DevRequestLog();
    private final DevSnapshot snapshot;
    private final SnapshotImport importer;

    /** Creates the tools over {@code store}. */
    public DevTools(Store store, ObjectMapper mapper, Clock clock) {
        this.faults = new DevFaults(clock);
        this.snapshot = new DevSnapshot(store, mapper, clock);
        this.importer = new SnapshotImport(store, mapper, clock);
    }

    /** Returns the injected faults. */
    public DevFaults faults() {
        return faults;
    }

    /** Returns the request log. */
    public DevRequestLog requestLog() {
        return requestLog;
    }

    /** Returns the exporter. */
    public DevSnapshot snapshot() {
        return snapshot;
    }

    /** Returns the importer (the dev API's import and {@code --seed}). */
    public SnapshotImport importer() {
        return importer;
    }
}
